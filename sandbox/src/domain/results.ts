/**
 * What the operations answer: the result type, the error bodies (404, 409, 422), the action results
 * (record states and timestamps come from records.ts).
 */
import type { FieldErrors } from '../validation/fields';
import { assetState, formatTimestamp, type Asset } from './records';

/** Result of an operation: the HTTP status and the JSON body. */
export interface OpResult {
	status: number;
	body: unknown;
	/** true when records or events were created. */
	applied: boolean;
}

export function errorBody(
	message: string,
	errors?: FieldErrors,
): { message: string; errors?: FieldErrors } {
	return errors ? { message, errors } : { message };
}

export function notFound(what: string): OpResult {
	return {
		status: 404,
		applied: false,
		body: errorBody(`The ${what} is unavailable in this organization.`),
	};
}

export function invalid(errors: FieldErrors): OpResult {
	const first = Object.values(errors)[0]?.[0] ?? 'The given data was invalid.';
	const more = Object.values(errors).reduce((n, l) => n + l.length, 0) - 1;
	const message = more > 0 ? `${first} (and ${more} more error${more > 1 ? 's' : ''})` : first;
	return { status: 422, applied: false, body: errorBody(message, errors) };
}

export function conflict(message: string): OpResult {
	return { status: 409, applied: false, body: errorBody(message) };
}

/** 409 when the event_date is before the record's newest state change (whole seconds), else null. */
export function staleEventDate(
	record: 'asset' | 'subscription',
	eventTime: number,
	lastChange: number,
): OpResult | null {
	if (Math.floor(eventTime / 1000) >= Math.floor(lastChange / 1000)) return null;
	return conflict(
		`The event_date precedes a newer state change of this ${record} (${formatTimestamp(lastChange)}); refresh the record.`,
	);
}

/** 201 with the API's action result for an asset: the events created, the to-do (if any), the new state. */
export function assetActionCreated(asset: Asset, assetEventIds: number[], todo: unknown): OpResult {
	return {
		status: 201,
		applied: true,
		body: {
			data: {
				asset_id: asset.id,
				asset_event_ids: assetEventIds,
				subscription_event_ids: [],
				todo,
				tracker_disconnect_pending: false,
				state: assetState(asset),
			},
		},
	};
}
