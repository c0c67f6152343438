import type { RequestFate } from '../errors/itemFailure';

/** What a failed item's error item carries besides the message: what a user needs to fix or retry the row. */
export interface FailureDetails {
	/** The HTTP status, when a server answered. */
	status: number | null;
	/** The API's own message, when the Inventory API answered. */
	apiMessage: string | null;
	/** The API's per-field reasons, nested fields as dotted paths (`field_values.5`). */
	reasons: Record<string, string>;
	fate: RequestFate;
	/** The key that replays the request, when it was built. */
	idempotencyKey: string | null;
}

const detailsOfErrors = new WeakMap<Error, FailureDetails>();

/** The details of an error the transport made; undefined for any other error. */
export function failureDetailsOf(error: Error): FailureDetails | undefined {
	return detailsOfErrors.get(error);
}

export function withDetails<E extends Error>(error: E, details: FailureDetails): E {
	detailsOfErrors.set(error, details);
	return error;
}
