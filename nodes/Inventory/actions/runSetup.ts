import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { runIdentity, type RunIdentity } from '../idempotency/keys';
import { readKeySource, type KeySource } from '../idempotency/keySource';
import { isToolVariant } from '../idempotency/toolMode';
import type { ConcurrencySetting } from '../scheduling/controller';
import { openConnection, type InventoryConnection, type RetryPolicy } from '../transport';
import { blankRows, blankRowsHint } from '../values/blankRow';
import { ItemInput } from '../values/itemInput';
import * as asset from './asset/Asset.resource';
import type { InventoryOperation } from './node.type';
import { readRunOptions } from './options.description';
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

/** What one run of the node reads once: its settings, its credential and its identity. */
export interface RunSetup {
	/** The tool variant, which an AI agent or an MCP client calls. */
	asTool: boolean;
	keySource: KeySource;
	connection: InventoryConnection;
	policy: RetryPolicy;
	concurrency: ConcurrencySetting;
	identity: RunIdentity;
	dryRun: boolean;
	/** A thrown value as the node's error, naming the item. */
	asNodeError(caught: unknown, itemIndex: number): NodeApiError | NodeOperationError;
}

export async function openRun(context: IExecuteFunctions): Promise<RunSetup> {
	const asTool = isToolVariant(context);
	// What counts as the same action; an expression typed as fixed text stops the run before any send.
	const keySource = readKeySource(context, asTool);
	const connection = await openConnection(context);
	const firstItem = new ItemInput(context, 0);
	const { policy, concurrency, dryRun } = firstItem.checked(() => readRunOptions(firstItem));
	const node = context.getNode();
	return {
		asTool,
		keySource,
		connection,
		policy,
		concurrency,
		identity: runIdentity(context),
		dryRun,
		asNodeError: (caught, itemIndex) =>
			caught instanceof NodeApiError || caught instanceof NodeOperationError
				? caught
				: new NodeOperationError(node, caught as Error, { itemIndex }),
	};
}

/**
 * A row whose cells are all empty (the `;;;;` an Excel CSV ends with) is no failure: it is left out,
 * with no request and no output item (as a filter leaves an item out: the other items keep their
 * pairedItem), and an execution hint says so. A tool call is no sheet row.
 */
export function leaveOutBlankRows(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	run: RunSetup,
): Set<number> {
	const blank = new Set(run.asTool ? [] : blankRows(items));
	if (blank.size > 0) outputPaneHint(context, blankRowsHint([...blank]));
	return blank;
}

/** A note in n8n's output panel (an n8n without execution hints shows none). */
export function outputPaneHint(context: IExecuteFunctions, message: string): void {
	if (typeof context.addExecutionHints === 'function')
		context.addExecutionHints({ message, location: 'outputPane' });
}
