import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { runIdentity, type RunIdentity } from '../idempotency/keys';
import { readKeySource, type KeySource } from '../idempotency/keySource';
import { isToolVariant } from '../idempotency/toolMode';
import type { ConcurrencySetting } from '../scheduling/controller';
import { openConnection, type InventoryConnection, type RetryPolicy } from '../transport';
import { blankRows, blankRowsHint } from './blankRows';
import type { DateOrder } from '../values/dates/dateReading';
import { ItemInput, type RunDateOrder } from '../values/itemInput';
import { dateOrderOption, readRunOptions } from './options.description';

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
	/** Options → Date Order, read once, when a date first needs it. */
	dateOrder: RunDateOrder;
}

/** The run's setup; a run option the first item refuses throws that item's failure. */
export async function readRunSetup(context: IExecuteFunctions): Promise<RunSetup> {
	const asTool = isToolVariant(context);
	// What counts as the same action; an expression typed as fixed text stops the run before any send.
	const keySource = readKeySource(context, asTool);
	const connection = await openConnection(context);
	const firstItem = new ItemInput(context, 0, noDateOrder);
	const { policy, concurrency, dryRun } = firstItem.checked(() => readRunOptions(firstItem));
	return {
		asTool,
		keySource,
		connection,
		policy,
		concurrency,
		identity: runIdentity(context),
		dryRun,
		dateOrder: readOnceWhenNeeded(context),
	};
}

/** The run options are no dates: reading them needs no Date Order. */
const noDateOrder: RunDateOrder = () => undefined;

/**
 * Options → Date Order, read from the first item the first time a date needs it: a run without
 * dates whose day and month could be either never reads it (nor fails on it). A refusal is not
 * kept: each item that needs the order fails with it.
 */
function readOnceWhenNeeded(context: IExecuteFunctions): RunDateOrder {
	let read: { dateOrder: DateOrder | undefined } | undefined;
	return () => {
		if (!read) {
			const first = new ItemInput(context, 0, noDateOrder);
			read = {
				dateOrder: first.checked(() => first.option(dateOrderOption)) as DateOrder | undefined,
			};
		}
		return read.dateOrder;
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
