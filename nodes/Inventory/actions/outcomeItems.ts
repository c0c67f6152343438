import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
	type NodeApiError,
} from 'n8n-workflow';

import type { InventoryRequest } from '../transport';
import { failureDetailsOf, FATE_WORDS, type FailureDetails } from '../transport/errors';

/** From this node version a failed item's error item carries `details` beside `error`. */
export const DETAILED_ERRORS_FROM_VERSION = 4;

/**
 * The json of a failed item's error item. n8n (from 2.36) routes an item to the error output when its
 * json holds nothing but `error`, `message` and `details`, and merges the input item's fields in; so
 * the message stays in `error` and everything else a user needs to fix or retry the row is in
 * `details`. Versions up to 3 keep `{ error }` alone, which every n8n routes.
 */
export function errorItemJson(error: NodeApiError | NodeOperationError, node: INode): IDataObject {
	if (node.typeVersion < DETAILED_ERRORS_FROM_VERSION) return { error: error.message };
	const details: FailureDetails = failureDetailsOf(error) ?? {
		// Not made by the transport: the item's input failed its checks before anything was sent.
		status: null,
		apiMessage: null,
		reasons: {},
		fate: 'notSent',
		idempotencyKey: null,
	};
	return {
		error: error.message,
		details: {
			...details,
			fateDescription: FATE_WORDS[details.fate],
			description: error.description ?? null,
		},
	};
}

/** Whether this run is a dry run (the Dry Run option, read from the first item). */
export function isDryRun(context: IExecuteFunctions): boolean {
	return context.getNodeParameter('options.dryRun', 0, false) === true;
}

/** What a dry run outputs for an item whose request passed every check: the request it would send. */
export function dryRunItemJson(
	request: InventoryRequest,
	baseUrl: string,
	/** The key comes from the row's data (Repeat Protection's key or the Idempotency Key option). */
	keyedByData: boolean,
): IDataObject {
	return {
		dryRun: true,
		method: request.method,
		path: request.path,
		url: `${baseUrl}${request.path}`,
		body: request.body,
		idempotencyKey: request.idempotencyKey,
		note: keyedByData
			? "Dry run: nothing was sent. The Idempotency-Key comes from this row's data (Repeat Protection's key or the Idempotency Key option), so a real run sends this same key."
			: 'Dry run: nothing was sent. The Idempotency-Key belongs to this execution; a real run is another execution and sends keys of its own.',
	};
}

const LISTED_FAILURES = 10;

/** A dry run without Continue On Fail stops with every failing item listed (the first ten). */
export function dryRunFailure(
	node: INode,
	failures: Array<{ itemIndex: number; error: Error }>,
	itemCount: number,
): NodeOperationError {
	const [first] = failures;
	const listed = failures
		.slice(0, LISTED_FAILURES)
		.map(({ error }) => error.message)
		.join('; ');
	const more =
		failures.length > LISTED_FAILURES ? `; and ${failures.length - LISTED_FAILURES} more` : '';
	return new NodeOperationError(
		node,
		`Dry run: ${failures.length} of ${itemCount} ${itemCount === 1 ? 'item' : 'items'} would fail. The first: ${first.error.message}`,
		{
			itemIndex: first.itemIndex,
			description: `Nothing was sent. ${listed}${more}. Set On Error to "Continue (using error output)" to get every failing item with its reasons.`,
		},
	);
}
