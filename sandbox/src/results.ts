/**
 * What the operations answer: the result type, the error bodies (404, 409, 422), the action results
 * and record states of the contract's response shapes, and the timestamp format.
 */
import type { BillingChangeView } from './types';
import { formatMoney, type FieldErrors } from './validation';
import type { Asset, Subscription } from './world';

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

/** Timestamps with fractional seconds (six digits) and the UTC designator, e.g. 2026-01-02T03:04:05.678000Z. */
export function formatTimestamp(time: number): string {
	return new Date(time).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
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

function assetState(a: Asset): Record<string, unknown> {
	return {
		status: a.status,
		person_id: null,
		location_id: null,
		sublocation_id: null,
		is_in_storage: a.is_in_storage,
		person_loan_due: null,
		location_loan_due: null,
		condition_id: null,
		decommission_event_type_id: a.decommission_event_type_id,
	};
}

export function subscriptionState(s: Subscription): Record<string, unknown> {
	return {
		status: 'available',
		billing_type: 'subscription',
		license_count: s.license_count,
		billing_frequency: s.billing_frequency,
		price_model: s.price_model,
		cost: formatMoney(s.costCents),
		contract_term: null,
		contract_start_date: null,
		contract_end_date: null,
	};
}

export function billingValues(s: Subscription): BillingChangeView['before'] {
	return {
		price_model: s.price_model,
		cost: formatMoney(s.costCents),
		billing_frequency: s.billing_frequency,
		license_count: s.license_count,
	};
}
