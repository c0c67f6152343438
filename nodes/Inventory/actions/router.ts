import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { checksFailure, dryRunItemJson, errorItemJson } from './outcomeItems';
import { BLANK, prepareRequests, type PreparedRun } from './prepareRequests';
import { chosenOperation, leaveOutBlankRows, openRun, type RunSetup } from './runSetup';
import { sendAndCollect } from './sendRequests';
import { toolRefusal } from './toolRefusal';

/**
 * The node's run, in its steps: the operation chosen, the run's settings read once, blank rows left
 * out, every item's request prepared and checked, then either a stop before anything is sent, a dry
 * run's output, or the requests sent and their answers output.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const operation = chosenOperation(this);
	if (items.length === 0) return [[]];
	const run = await openRun(this);
	const blank = leaveOutBlankRows(this, items, run);
	const prepared = prepareRequests(this, items, operation, run, blank);
	stopOnFailedChecks(this, prepared, run, items.length);
	if (run.dryRun) return [dryRunOutput(prepared, run)];
	return [await sendAndCollect(this, prepared, run, blank)];
}

/**
 * Without Continue On Fail, an item that fails its checks stops the run before anything is sent (a
 * dry run's too): one error listing the failing items, or, to a tool call, the refusal its model
 * reads.
 */
function stopOnFailedChecks(
	context: IExecuteFunctions,
	{ failures }: PreparedRun,
	run: RunSetup,
	itemCount: number,
): void {
	if (failures.length === 0 || context.continueOnFail()) return;
	throw run.asTool && !run.dryRun
		? toolRefusal(context, failures[0])
		: checksFailure(context.getNode(), failures, itemCount, run.dryRun);
}

/** A dry run outputs, for each item, the request it would send or why it fails; blank rows none. */
function dryRunOutput({ requests }: PreparedRun, run: RunSetup): INodeExecutionData[] {
	return requests.flatMap((request, itemIndex) => {
		if (request === BLANK) return [];
		const json =
			request instanceof Error
				? errorItemJson(request)
				: dryRunItemJson(request, run.connection.baseUrl);
		return [{ json, pairedItem: { item: itemIndex } }];
	});
}
