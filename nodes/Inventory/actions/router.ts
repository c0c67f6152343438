import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { chooseIdempotencyKey, runIdentity, type KeyBasis } from '../idempotency/keys';
import { blankRows, blankRowsHint } from '../values/blankRow';
import { ItemInput } from '../values/itemInput';
import { runInRecordOrder } from '../scheduling/recordOrder';
import { AnsweredKeys, REPEAT_CHECK_FIELD } from '../idempotency/answeredKeys';
import { readKeySource, type KeySource } from '../idempotency/keySource';
import { keyBasisOf } from '../idempotency/rowIdentity';
import { withRunSummary } from '../idempotency/runSummary';
import { refuseRowsSharingKey } from '../idempotency/rowsSharingKey';
import { isToolVariant } from '../idempotency/toolMode';
import { ExecutionStopped } from '../scheduling/cancel';
import { openSendingRun } from '../scheduling/controller';
import { openConnection, sendInventoryRequest, type InventoryRequest } from '../transport';
import * as asset from './asset/Asset.resource';
import type { InventoryOperation, OperationMap, Resource } from './node.type';
import { readRunOptions } from './options.description';
import {
	checksFailure,
	compactForAgent,
	dryRunItemJson,
	errorItemJson,
	isDryRun,
} from './outcomeItems';
import * as subscription from './subscription/Subscription.resource';
import { toolRefusal } from './toolRefusal';

const operations: OperationMap = {
	asset: asset.operations,
	subscription: subscription.operations,
};

/** A map's own entry; a name such as "toString" is no entry. */
const own = <T>(map: Partial<Record<string, T>> | undefined, name: string): T | undefined =>
	map && Object.hasOwn(map, name) ? map[name] : undefined;

/** The note of a tool call replayed because an earlier call sent the same arguments. */
const CALL_REPLAYED =
	'A call of this tool with the same arguments was booked before: this is that booking, and nothing new was booked. Calls with the same arguments are one action.';

/** A row left out because its cells are all empty (values/blankRow.ts). */
const BLANK = 'blank';

/** An item's request, its failed checks, or BLANK. */
type Built = InventoryRequest | NodeOperationError | NodeApiError | typeof BLANK;

const isRequest = (built: Built): built is InventoryRequest =>
	built !== BLANK && !(built instanceof Error);

/** What the keys of this run are made of, as a 409's words name it. */
function keyedByOf(source: KeySource): NonNullable<InventoryRequest['keyedBy']> {
	if (source.basis === 'columns')
		return source.columns.length === 0 ? 'noKeyColumns' : 'keyColumns';
	return source.basis === 'expression' ? 'rowKey' : source.basis;
}

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as Resource;
	const operationName = this.getNodeParameter('operation', 0) as string;
	// The parameters may hold values the map does not know (an older workflow, a typo in JSON).
	const operation = own<InventoryOperation>(own(operations, resource), operationName);
	if (!operation) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operationName}" of resource "${resource}" is not supported`,
		);
	}
	if (items.length === 0) return [[]];

	const asTool = isToolVariant(this);
	// What counts as the same action; an expression typed as fixed text stops the run before any send.
	const keySource = readKeySource(this, asTool);
	const connection = await openConnection(this);
	const first = new ItemInput(this, 0);
	const { policy, sending } = first.checked(() => readRunOptions(first));
	const identity = runIdentity(this);
	const node = this.getNode();
	const asNodeError = (caught: unknown, itemIndex: number) =>
		caught instanceof NodeApiError || caught instanceof NodeOperationError
			? caught
			: new NodeOperationError(node, caught as Error, { itemIndex });

	// A row whose cells are all empty (the `;;;;` an Excel CSV ends with) is no failure: it is left
	// out, with no request and no output item (as a filter leaves an item out: the other items keep
	// their pairedItem), and an execution hint says so. A tool call is no sheet row.
	const blank = new Set(asTool ? [] : blankRows(items));
	if (blank.size > 0 && typeof this.addExecutionHints === 'function')
		this.addExecutionHints({ message: blankRowsHint([...blank]), location: 'outputPane' });

	const keyBases = new Map<number, KeyBasis>();
	// Every item's request is built first: the record it addresses decides what may run at once, and
	// without Continue On Fail an item that fails its checks stops the run before anything is sent.
	const built = items.map((_, itemIndex): Built => {
		if (blank.has(itemIndex)) return BLANK;
		try {
			const input = new ItemInput(this, itemIndex);
			// Every check of the item runs, its request's and its key's: a failing item tells every reason.
			const { request, basis } = input.checked(() => ({
				request: operation.buildRequest(input),
				basis: keyBasisOf(keySource, input, this, items[itemIndex]),
			}));
			keyBases.set(itemIndex, basis);
			const idempotencyKey = chooseIdempotencyKey(basis, { ...identity, itemIndex }, request);
			return { ...request, itemIndex, idempotencyKey, keyedBy: keyedByOf(keySource) };
		} catch (caught) {
			return asNodeError(caught, itemIndex);
		}
	});
	// Rows that share a key but would book different values fail before anything is sent.
	const sharingKey = refuseRowsSharingKey(
		this,
		keySource,
		items,
		built.filter((request): request is InventoryRequest => isRequest(request)),
		(itemIndex) => {
			const basis = keyBases.get(itemIndex);
			return basis?.kind === 'row' ? basis.rowId : '';
		},
	);
	const requests = built.map(
		(request, itemIndex) =>
			(sharingKey.get(itemIndex) as NodeOperationError | undefined) ?? request,
	);
	// Keyed by the row's data or the call's arguments: a new run sends the same keys.
	const keyedByData = new Set(
		[...keyBases].filter(([, basis]) => basis.kind !== 'execution').map(([index]) => index),
	);

	// Every item's own checks ran while its request was built.
	const failures = requests.flatMap((request, itemIndex) =>
		request instanceof Error ? [{ itemIndex, error: request }] : [],
	);
	const kept = (itemIndex: number) => !blank.has(itemIndex);
	const dryRun = isDryRun(this);
	// Stopping on errors: an item that fails its checks stops the run before anything is sent.
	if (failures.length > 0 && !this.continueOnFail())
		throw asTool && !dryRun
			? toolRefusal(this, failures[0])
			: checksFailure(node, failures, items.length, dryRun);
	if (dryRun) {
		return [
			requests.flatMap((request, itemIndex) =>
				isRequest(request) || request instanceof Error
					? [
							{
								json:
									request instanceof Error
										? errorItemJson(request)
										: dryRunItemJson(request, connection.baseUrl, keyedByData.has(itemIndex)),
								pairedItem: { item: itemIndex },
							},
						]
					: [],
			),
		];
	}

	// Shared by every execution to this server and credential in the process: rate, pause and records.
	const sendingRun = openSendingRun(this, connection, sending);
	const { throttle } = sendingRun;
	const results: INodeExecutionData[] = new Array(items.length);
	// The output says whether the API recorded a row now or replayed it.
	const answers = new AnsweredKeys(this, identity);
	let failure: { index: number; error: NodeApiError | NodeOperationError } | undefined;
	const answered = new Set<number>();

	await runInRecordOrder({
		records: requests.map((request) => (isRequest(request) ? request.record : undefined)),
		maxActive: sendingRun.maxActive,
		locks: sendingRun.records,
		stopAfterFailure: !this.continueOnFail(),
		signal: this.getExecutionCancelSignal?.(),
		work: async (itemIndex, awaited) => {
			try {
				const request = requests[itemIndex];
				if (request instanceof Error) throw request;
				if (!isRequest(request)) return true;
				const data = await sendInventoryRequest.call(
					this,
					request,
					connection,
					policy,
					throttle,
					awaited,
				);
				answered.add(itemIndex);
				answers.answered(itemIndex, request.idempotencyKey);
				results[itemIndex] = {
					json: asTool ? compactForAgent(data) : data,
					pairedItem: { item: itemIndex },
				};
				return true;
			} catch (caught) {
				const error = asNodeError(caught, itemIndex);
				if (this.continueOnFail()) {
					// Routed to the error output, where n8n adds the input item's fields (see errorItemJson);
					// the message names the field or record and the item.
					results[itemIndex] = {
						json: errorItemJson(error),
						pairedItem: { item: itemIndex },
					};
				} else if (!failure || itemIndex < failure.index) failure = { index: itemIndex, error };
				return false;
			}
		},
	}).finally(() => sendingRun.close());
	await answers.settle();

	// Stopped: the items cut short are no results (nor error items), whatever Continue On Fail says.
	if (this.getExecutionCancelSignal?.()?.aborted) throw new ExecutionStopped();
	const through = [...answered].sort((a, b) => a - b);
	for (const index of through) {
		const request = requests[index] as InventoryRequest;
		const check = answers.check(index, request.idempotencyKey);
		// A model reads the note of a replayed call: it says why nothing new was booked.
		if (keySource.basis === 'call' && check.outcome === 'replayed') check.note = CALL_REPLAYED;
		results[index].json[REPEAT_CHECK_FIELD] = { ...check };
	}
	if (failure)
		throw withRunSummary(
			failure.error,
			through,
			through.every((index) => keyedByData.has(index)),
			answers.counts(),
		);
	return [results.filter((_, itemIndex) => kept(itemIndex))];
}
