import type { NodeApiError, NodeOperationError } from 'n8n-workflow';

/** What is known of a failed request's fate, as the error item reports it. */
export type RequestFate =
	/** It never reached the Inventory API (not sent, or sent to a server that is not the API): nothing applied. */
	| 'notSent'
	/** The API answered and refused it: nothing applied. */
	| 'rejected'
	/** It may have been applied (no answer, a server failure, an attempt still in progress): the same key replays it. */
	| 'mayHaveBeenApplied';

/** Each fate as the error item's `fateDescription` words it. */
export const FATE_WORDS: Readonly<Record<RequestFate, string>> = {
	notSent: 'The request never reached the Inventory API: nothing was applied.',
	rejected: 'The Inventory API refused the request: nothing was applied.',
	mayHaveBeenApplied:
		'The request may have reached the Inventory API and been applied; the same Idempotency-Key replays it instead of applying it twice.',
};

/** What a failed item's error item carries besides the message: what a user needs to fix or retry the row. */
export interface FailureDetails {
	/** The HTTP status, when a server answered. */
	status: number | null;
	/** The API's own message, when the Inventory API answered. */
	apiMessage: string | null;
	/**
	 * The reasons by field, as the API names them in a 422 (its body field, nested ones as dotted paths
	 * such as `field_values.5`), or the node's parameter when the value goes into no body field: a row
	 * refused by the node and one refused by the API are fixed the same way.
	 */
	reasons: Record<string, string>;
	fate: RequestFate;
	/** The key that replays the request, when it was built. */
	idempotencyKey: string | null;
}

/** One failed check of an item's value: whom it was about (the names messages use) and its problem. */
export interface FailedCheck {
	/** The field's label in messages. */
	label: string;
	/** The node's parameter, when the value is one (not, e.g., a key made of columns). */
	parameter?: string;
	/** The request body field it fills. */
	apiField?: string;
	/** Where the API would name it among its reasons when that is below the API field (`field_values.5`). */
	reasonPath?: string;
	/** The kind of value the field takes (values/checks.ts Check), when a value's check failed. */
	checkKind?: string;
	problem: string;
}

/**
 * An item that failed: the n8n error the user reads (its message names the field or record and the
 * item), what its error item carries, and, when its own values failed their checks before anything
 * was sent, each failed check. It goes through the node's item loop as one value; n8n only ever sees
 * `error`.
 */
export class ItemFailure extends Error {
	constructor(
		readonly error: NodeApiError | NodeOperationError,
		readonly details: FailureDetails,
		readonly checks: readonly FailedCheck[] = [],
	) {
		super(error.message);
	}

	/**
	 * An item that failed before anything was sent: its values' checks (`reasons` by field, `checks`),
	 * or an error the node did not explain (neither a check's nor an answer's).
	 */
	static beforeSending(
		error: NodeApiError | NodeOperationError,
		reasons: Record<string, string> = {},
		checks: readonly FailedCheck[] = [],
	): ItemFailure {
		return new ItemFailure(
			error,
			{ status: null, apiMessage: null, reasons, fate: 'notSent', idempotencyKey: null },
			checks,
		);
	}
}
