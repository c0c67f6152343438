import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { AnsweredKeys, REPEAT_CHECK_FIELD } from '../idempotency/answeredKeys';
import { withOtherFailures, withRunSummary } from '../idempotency/runSummary';
import { ItemFailure } from '../model/itemFailure';
import { ExecutionStopped } from '../scheduling/cancel';
import { joinServerController } from '../scheduling/controller';
import { runInRecordOrder } from '../scheduling/recordOrder';
import { sendInventoryRequest } from '../transport';
import { asItemFailure } from '../values/itemInput';
import { compactForAgent, errorItemJson } from './outcomeItems';
import { isKeyedByData, isRequest, type KeyedRequest, type PreparedItems } from './prepareRequests';
import type { RunSetup } from './runSetup';

/** What sending gave: an output item by item index, the items answered, the failures (without Continue On Fail). */
interface SentItems {
	results: INodeExecutionData[];
	answeredItems: number[];
	answeredKeys: AnsweredKeys;
	/** Every item that failed, the first stopping what was not yet sent (others were already under way). */
	failures: Array<{ index: number; failure: ItemFailure }>;
}

/**
 * Sends the prepared requests, items on one record one after another in input order, the others in
 * parallel, through the run's share of the server's controller (rate, pause and records are shared
 * by every execution to this server and credential in the process). Without Continue On Fail the
 * first failure stops what is not yet sent; with it, each failed item becomes an error item.
 */
async function sendInRecordOrder(
	context: IExecuteFunctions,
	{ byItem }: PreparedItems,
	run: RunSetup,
): Promise<SentItems> {
	const share = joinServerController(context, run.connection, run.concurrency);
	const sent: SentItems = {
		results: new Array(byItem.length),
		answeredItems: [],
		failures: [],
		// The output says whether the API recorded a row now or replayed it.
		answeredKeys: new AnsweredKeys(context, run.identity, run.keySource.basis),
	};
	const itemOf = (itemIndex: number, json: INodeExecutionData['json']) => ({
		json,
		pairedItem: { item: itemIndex },
	});
	await runInRecordOrder({
		records: byItem.map((prepared) => (isRequest(prepared) ? prepared.record : undefined)),
		maxActive: share.maxActive,
		locks: share.recordLocks,
		stopAfterFailure: !context.continueOnFail(),
		signal: context.getExecutionCancelSignal?.(),
		work: async (itemIndex, othersWaitForRecord) => {
			try {
				const request = byItem[itemIndex];
				if (request instanceof ItemFailure) throw request;
				if (!isRequest(request)) return true;
				const data = await sendInventoryRequest.call(
					context,
					request,
					run.connection,
					run.policy,
					share.throttle,
					othersWaitForRecord,
				);
				sent.answeredItems.push(itemIndex);
				sent.answeredKeys.answered(itemIndex, request.idempotencyKey);
				sent.results[itemIndex] = itemOf(itemIndex, run.asTool ? compactForAgent(data) : data);
				return true;
			} catch (caught) {
				const failure = asItemFailure(context.getNode(), caught, itemIndex);
				// Routed to the error output, where n8n adds the input item's fields (see errorItemJson);
				// the message names the field or record and the item.
				if (context.continueOnFail())
					sent.results[itemIndex] = itemOf(itemIndex, errorItemJson(failure));
				else sent.failures.push({ index: itemIndex, failure });
				return false;
			}
		},
	}).finally(() => share.close());
	await sent.answeredKeys.settle();
	sent.answeredItems.sort((a, b) => a - b);
	sent.failures.sort((a, b) => a.index - b.index);
	return sent;
}

/**
 * Each answered item says whether this run recorded it or the API replayed it, and which input row
 * it answers: its item and, keyed by the row, its key values (no Merge needed to find the row).
 */
function addRepeatChecks(
	{ results, answeredItems, answeredKeys }: SentItems,
	{ byItem }: PreparedItems,
	run: RunSetup,
): void {
	for (const index of answeredItems) {
		const request = byItem[index] as KeyedRequest;
		const { keyBasis } = request;
		results[index].json[REPEAT_CHECK_FIELD] = {
			...answeredKeys.check(index, request.idempotencyKey),
			...(run.asTool ? {} : { item: index }),
			...(keyBasis.kind === 'row' ? { keyValues: keyBasis.row.keyValues } : {}),
		};
	}
}

/**
 * Sends the run's requests and gives its output: one item per item sent or failed, blank rows left
 * out. A failure without Continue On Fail stops the node, saying which other rows failed and what
 * happened to the rows sent before it; a stopped execution outputs nothing (nor error items).
 */
export async function sendAndCollect(
	context: IExecuteFunctions,
	prepared: PreparedItems,
	run: RunSetup,
	blank: Set<number>,
): Promise<INodeExecutionData[]> {
	const sent = await sendInRecordOrder(context, prepared, run);
	if (context.getExecutionCancelSignal?.()?.aborted) throw new ExecutionStopped();
	addRepeatChecks(sent, prepared, run);
	const [first, ...others] = sent.failures;
	if (first)
		throw withRunSummary(
			withOtherFailures(
				first.failure.error,
				others.map(({ failure }) => failure.error),
			),
			sent.answeredItems,
			sent.answeredItems.every((index) => isKeyedByData(prepared.byItem[index] as KeyedRequest)),
			sent.answeredKeys.counts(),
		);
	return sent.results.filter((_, itemIndex) => !blank.has(itemIndex));
}
