import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
	type INodeExecutionData,
	type NodeApiError,
} from 'n8n-workflow';

import { FATE_WORDS, ItemFailure } from '../model/itemFailure';
import { LISTED_ITEMS, listedFirst } from '../model/listedFirst';
import { BLANK, isKeyedByData, type KeyedRequest, type PreparedItems } from './prepareRequests';
import type { RunSetup } from './runSetup';
import { toolRefusal } from './toolRefusal';

/**
 * The json of a failed item's error item. n8n (from 2.36) routes an item to the error output when its
 * json holds nothing but `error`, `message` and `details`, and merges the input item's fields in; so
 * the message stays in `error` and everything else a user needs to fix or retry the row is in
 * `details`. n8n before 2.36 routes only an item whose json is `{ error }` alone: there these
 * items go to the success output.
 */
export function errorItemJson({ error, details }: ItemFailure): IDataObject {
	return {
		error: error.message,
		details: {
			...details,
			fateDescription: FATE_WORDS[details.fate],
			description: error.description ?? null,
		},
	};
}

/**
 * What a dry run outputs for an item whose request passed every check: the request it would send,
 * and, keyed by the row, the key values it was made of.
 */
export function dryRunItemJson(request: KeyedRequest, baseUrl: string): IDataObject {
	const { keyBasis } = request;
	return {
		dryRun: true,
		method: request.method,
		path: request.path,
		url: `${baseUrl}${request.path}`,
		body: request.body,
		idempotencyKey: request.idempotencyKey,
		...(keyBasis.kind === 'row' ? { keyValues: keyBasis.row.keyValues } : {}),
		note: isKeyedByData(request)
			? "Dry run: nothing was sent. The Idempotency-Key comes from this row's data (Repeat Protection's key), so a real run sends this same key."
			: 'Dry run: nothing was sent. The Idempotency-Key belongs to this execution; a real run is another execution and sends keys of its own.',
	};
}

/**
 * Without Continue On Fail, items that fail their own checks stop the run before any request is sent
 * (a dry run's too): one error that names the first failing item and lists every failing item with
 * its reasons (the first ten, then how many more). A run of one item keeps that item's own error.
 */
export function checksFailure(
	node: INode,
	failures: PreparedItems['failures'],
	itemCount: number,
	dryRun: boolean,
): NodeApiError | NodeOperationError {
	const [first] = failures;
	if (itemCount === 1 && !dryRun) return first.failure.error;
	const listed = listedFirst(
		failures.map(({ failure }) => failure.message),
		LISTED_ITEMS,
		'; ',
	);
	const counted = `${failures.length} of ${itemCount} ${itemCount === 1 ? 'item' : 'items'}`;
	const summary = dryRun
		? `Dry run: ${counted} would fail`
		: `Nothing was sent: ${counted} failed ${failures.length === 1 ? 'its' : 'their'} checks`;
	const firstNamed = failures.length === 1 ? '' : 'The first: ';
	const next = dryRun
		? 'Set On Error to "Continue (using error output)" to get every failing item with its reasons.'
		: 'Correct them and run again, or set On Error to "Continue (using error output)" to send the items that pass and get every failing item, with its reasons, on the error output.';
	return new NodeOperationError(node, `${summary}. ${firstNamed}${first.failure.message}`, {
		itemIndex: first.itemIndex,
		description: `Nothing was sent. ${listed}. ${next}`,
	});
}

/**
 * Without Continue On Fail, an item that fails its checks stops the run before anything is sent (a
 * dry run's too): one error listing the failing items, or, to a tool call, the refusal its model
 * reads.
 */
export function stopOnFailedChecks(
	context: IExecuteFunctions,
	{ failures }: PreparedItems,
	run: RunSetup,
	itemCount: number,
): void {
	if (failures.length === 0 || context.continueOnFail()) return;
	throw run.asTool && !run.dryRun
		? toolRefusal(context, failures[0])
		: checksFailure(context.getNode(), failures, itemCount, run.dryRun);
}

/** A dry run outputs, for each item, the request it would send or why it fails; blank rows none. */
export function dryRunOutput({ byItem }: PreparedItems, run: RunSetup): INodeExecutionData[] {
	return byItem.flatMap((prepared, itemIndex) => {
		if (prepared === BLANK) return [];
		const json =
			prepared instanceof ItemFailure
				? errorItemJson(prepared)
				: dryRunItemJson(prepared, run.connection.baseUrl);
		return [{ json, pairedItem: { item: itemIndex } }];
	});
}

/**
 * What a tool call returns to the agent: the response's data without the null, empty-list and
 * empty-object fields (an available asset's state is mostly nulls), so that the model reads the IDs
 * and values that matter and fewer tokens. The node's own output (not a tool) stays the data object.
 */
export function compactForAgent(data: IDataObject): IDataObject {
	const compact: IDataObject = {};
	for (const [key, value] of Object.entries(data)) {
		const kept = compactValue(value);
		if (kept !== undefined) compact[key] = kept;
	}
	return compact;
}

function compactValue(value: unknown): IDataObject[keyof IDataObject] | undefined {
	if (value === null || value === undefined) return undefined;
	if (Array.isArray(value)) return value.length === 0 ? undefined : (value as IDataObject[]);
	if (typeof value === 'object') {
		const nested = compactForAgent(value as IDataObject);
		return Object.keys(nested).length === 0 ? undefined : nested;
	}
	return value as IDataObject[keyof IDataObject];
}
