import type {
	IExecuteFunctions,
	INodeExecutionData,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';

import { chooseIdempotencyKey, type KeyBasis } from '../idempotency/keys';
import { keyReuseWords } from '../idempotency/keyReuse';
import { keyBasisOf } from '../idempotency/rowIdentity';
import { refuseRowsSharingKey } from '../idempotency/rowsSharingKey';
import type { InventoryRequest } from '../transport';
import { ItemInput } from '../values/itemInput';
import type { InventoryOperation } from './node.type';
import type { RunSetup } from './runSetup';

/** A row left out because its cells are all empty (values/blankRow.ts). */
export const BLANK = 'blank';

/** An item's request, its failed checks, or BLANK. */
export type Prepared = InventoryRequest | NodeOperationError | NodeApiError | typeof BLANK;

export const isRequest = (prepared: Prepared): prepared is InventoryRequest =>
	prepared !== BLANK && !(prepared instanceof Error);

/** Every item's request, by item index, and which of them are keyed by data. */
export interface PreparedRun {
	requests: Prepared[];
	/** Keyed by the row's data or the call's arguments: a new run sends the same keys. */
	keyedByData: Set<number>;
	/** The items that failed their checks, in item order. */
	failures: Array<{ itemIndex: number; error: NodeApiError | NodeOperationError }>;
}

/**
 * Every item's request is built first, with its Idempotency-Key: the record it addresses decides what
 * may run at once, and without Continue On Fail an item that fails its checks stops the run before
 * anything is sent. Every check of an item runs, its request's and its key's, so a failing item
 * tells every reason; rows that share a key but would book different values fail here too.
 */
export function prepareRequests(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	operation: InventoryOperation,
	run: RunSetup,
	blank: Set<number>,
): PreparedRun {
	const { keySource, identity } = run;
	const wordsOfKeyReuse = keyReuseWords(keySource);
	const keyBases = new Map<number, KeyBasis>();
	const built = items.map((item, itemIndex): Prepared => {
		if (blank.has(itemIndex)) return BLANK;
		try {
			const input = new ItemInput(context, itemIndex);
			const { request, basis } = input.checked(() => ({
				request: operation.buildRequest(input),
				basis: keyBasisOf(keySource, input, context, item),
			}));
			keyBases.set(itemIndex, basis);
			const idempotencyKey = chooseIdempotencyKey(basis, { ...identity, itemIndex }, request);
			const whenKeyReused = () => wordsOfKeyReuse(idempotencyKey, request.recordLabel);
			return { ...request, itemIndex, idempotencyKey, whenKeyReused };
		} catch (caught) {
			return run.asNodeError(caught, itemIndex);
		}
	});
	const sharingKey = refuseRowsSharingKey(
		context,
		keySource,
		items,
		built.filter(isRequest),
		(itemIndex) => {
			const basis = keyBases.get(itemIndex);
			return basis?.kind === 'row' ? basis.rowId : '';
		},
	);
	const requests = built.map(
		(request, itemIndex) =>
			(sharingKey.get(itemIndex) as NodeOperationError | undefined) ?? request,
	);
	return {
		requests,
		keyedByData: new Set(
			[...keyBases].filter(([, basis]) => basis.kind !== 'execution').map(([index]) => index),
		),
		failures: requests.flatMap((request, itemIndex) =>
			request instanceof Error ? [{ itemIndex, error: request }] : [],
		),
	};
}
