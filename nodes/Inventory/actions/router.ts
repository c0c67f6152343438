import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ItemFailure } from '../model/itemFailure';
import * as asset from './asset/Asset.resource';
import type { InventoryOperation } from './node.type';
import { dryRunOutput, stopOnFailedChecks } from './outcomeItems';
import { prepareRequests } from './prepareRequests';
import { leaveOutBlankRows, readRunSetup } from './runSetup';
import { sendAndCollect } from './sendRequests';
import * as subscription from './subscription/Subscription.resource';

/** Each resource's operations by their value in its Operation dropdown (test/package/form.test.ts holds the two together). */
export const operations: Record<string, Record<string, InventoryOperation>> = {
	asset: asset.operations,
	subscription: subscription.operations,
};

/** A map's own entry; a name such as "toString" is no entry. */
const ownEntry = <T>(map: Partial<Record<string, T>> | undefined, name: string): T | undefined =>
	map && Object.hasOwn(map, name) ? map[name] : undefined;

/** The operation the node's Resource and Operation choose; refused when the map does not know it. */
export function chosenOperation(context: IExecuteFunctions): InventoryOperation {
	const resource = context.getNodeParameter('resource', 0) as string;
	const operationName = context.getNodeParameter('operation', 0) as string;
	// The parameters may hold values the map does not know (an older workflow, a typo in JSON).
	const operation = ownEntry<InventoryOperation>(ownEntry(operations, resource), operationName);
	if (!operation)
		throw new NodeOperationError(
			context.getNode(),
			`The operation "${operationName}" of resource "${resource}" is not supported`,
		);
	return operation;
}

/**
 * Routes the node's run to the operation chosen, in its steps: the run's settings read once, blank
 * rows left out, every item's request prepared and checked, then either a stop before anything is
 * sent, a dry run's output, or the requests sent and their answers output.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const operation = chosenOperation(this);
	if (items.length === 0) return [[]];
	const run = await readRunSetup(this).catch((caught: unknown) => {
		// An option of the first item refused: n8n shows that item's error.
		throw caught instanceof ItemFailure ? caught.error : caught;
	});
	const blank = leaveOutBlankRows(this, items, run);
	const prepared = prepareRequests(this, items, operation, run, blank);
	stopOnFailedChecks(this, prepared, run, items.length);
	if (run.dryRun) return [dryRunOutput(prepared, run)];
	return [await sendAndCollect(this, prepared, run, blank)];
}
