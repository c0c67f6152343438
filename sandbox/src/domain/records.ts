/**
 * The records of an organization (assets, subscriptions) and their states in the contract's
 * response shapes, shared by the world that holds them and the results that show them.
 */
import type { BillingChangeView, SeedEventType } from '../types';
import { formatMoney } from '../validation/fields';

export interface Asset {
	id: number;
	name: string;
	status: string;
	is_in_storage: boolean;
	decommission_event_type_id: number | null;
	lastChange: number;
	acquisition: Record<string, unknown> | null;
}

export interface Subscription {
	id: number;
	name: string;
	free: boolean;
	final: boolean;
	price_model: string;
	costCents: number;
	billing_frequency: string;
	license_count: number | null;
	lastChange: number;
}

export interface Org {
	id: number;
	name: string;
	maxReactivations: number | null;
	reactivationsUsed: number;
	userIds: Set<number>;
	personIds: Set<number>;
	assets: Map<number, Asset>;
	subscriptions: Map<number, Subscription>;
	eventTypes: Map<number, SeedEventType>;
}

/** Timestamps with fractional seconds (six digits) and the UTC designator, e.g. 2026-01-02T03:04:05.678000Z. */
export function formatTimestamp(time: number): string {
	return new Date(time).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export function assetState(a: Asset): Record<string, unknown> {
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
