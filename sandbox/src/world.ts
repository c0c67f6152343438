/**
 * The in-memory organization data built from the seed, and the three operations applied to it.
 * Operations are synchronous: once called they validate, check the business rules and apply
 * atomically, so no two actions interleave.
 */
import type {
	AcquisitionView,
	AssetEventView,
	AssetView,
	BillingChangeView,
	SeedData,
	SeedEventType,
	SeedOrganization,
	SeedToken,
	SubscriptionEventView,
	SubscriptionView,
	TodoView,
} from './types';
import { formatMoney, toCents, validateAcquisition, validateBilling, validateTodo, type FieldErrors } from './validation';

/** Result of an operation: the HTTP status and the JSON body. */
export interface OpResult {
	status: number;
	body: unknown;
	/** true when records or events were created. */
	applied: boolean;
}

export function errorBody(message: string, errors?: FieldErrors): { message: string; errors?: FieldErrors } {
	return errors ? { message, errors } : { message };
}

/** Timestamps with fractional seconds (six digits) and the UTC designator, e.g. 2026-01-02T03:04:05.678000Z. */
export function formatTimestamp(time: number): string {
	return new Date(time).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

interface Asset {
	id: number;
	name: string;
	status: string;
	is_in_storage: boolean;
	decommission_event_type_id: number | null;
	lastChange: number;
	acquisition: Record<string, unknown> | null;
}

interface Subscription {
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

const ID_BASE = { todo: 30001, assetEvent: 40001, subscriptionEvent: 50001, acquisition: 60001, billingChange: 70001 };

export class World {
	readonly orgs = new Map<number, Org>();
	readonly tokens = new Map<string, SeedToken>();
	readonly todos: TodoView[] = [];
	readonly acquisitions: AcquisitionView[] = [];
	readonly billingChanges: BillingChangeView[] = [];
	readonly assetEvents: AssetEventView[] = [];
	readonly subscriptionEvents: SubscriptionEventView[] = [];
	private next = { ...ID_BASE };

	constructor(
		seed: SeedData,
		private readonly now: () => Date,
	) {
		for (const o of seed.organizations) this.orgs.set(o.id, buildOrg(o));
		for (const t of seed.tokens) this.tokens.set(t.token, t);
	}

	// -------------------------------------------------------------------------------------------
	// POST /api/v1/assets/{record}/todos
	// -------------------------------------------------------------------------------------------
	createTodo(org: Org, token: SeedToken, assetId: number, body: Record<string, unknown>): OpResult {
		const asset = org.assets.get(assetId);
		if (!asset) return notFound('asset');
		const v = validateTodo(body, org);
		if (!v.ok) return invalid(v.errors);
		const at = formatTimestamp(this.now().getTime());
		const todo: TodoView = {
			organization_id: org.id,
			asset_id: asset.id,
			id: this.next.todo++,
			name: v.value.name,
			notes: v.value.notes === null ? null : notesToHtml(v.value.notes),
			due_date: v.value.due_date,
			assigned_to: v.value.assigned_to,
			created_by: token.user_id,
			is_complete: v.value.is_complete,
			created_at: at,
			updated_at: at,
		};
		this.todos.push(todo);
		const { organization_id: _o, asset_id: _a, ...todoOut } = todo;
		return assetActionCreated(asset, [], todoOut);
	}

	// -------------------------------------------------------------------------------------------
	// PUT /api/v1/subscriptions/{record}/billing
	// -------------------------------------------------------------------------------------------
	updateBilling(org: Org, key: string, subscriptionId: number, body: Record<string, unknown>): OpResult {
		const sub = org.subscriptions.get(subscriptionId);
		if (!sub) return notFound('subscription');
		const now = this.now();
		const v = validateBilling(body, now);
		if (!v.ok) return invalid(v.errors);
		if (sub.free) return conflict('The subscription is free and has no billing; its billing cannot be updated.');
		if (sub.final) {
			return conflict('The subscription is final; it must be restored before its billing can be changed.');
		}
		const stale = staleEventDate('subscription', v.value.eventTime, sub.lastChange);
		if (stale) return stale;
		const before = billingValues(sub);
		sub.price_model = v.value.price_model;
		sub.costCents = v.value.costCents;
		sub.billing_frequency = v.value.billing_frequency;
		sub.license_count = v.value.license_count;
		sub.lastChange = Math.max(sub.lastChange, v.value.eventTime);
		const at = formatTimestamp(now.getTime());
		const event: SubscriptionEventView = {
			organization_id: org.id,
			id: this.next.subscriptionEvent++,
			subscription_id: sub.id,
			kind: 'billing_change',
			event_date: formatTimestamp(v.value.eventTime),
			event_type_id: null,
			created_at: at,
		};
		this.subscriptionEvents.push(event);
		this.billingChanges.push({
			organization_id: org.id,
			id: this.next.billingChange++,
			subscription_id: sub.id,
			event_date: event.event_date,
			description: v.value.description,
			before,
			after: billingValues(sub),
			subscription_event_id: event.id,
			idempotency_key: key,
			created_at: at,
		});
		return {
			status: 200,
			applied: true,
			body: {
				data: {
					subscription_id: sub.id,
					subscription_event_ids: [event.id],
					todo: null,
					state: subscriptionState(sub),
				},
			},
		};
	}

	// -------------------------------------------------------------------------------------------
	// POST /api/v1/assets/{record}/acquisitions
	// -------------------------------------------------------------------------------------------
	recordAcquisition(org: Org, key: string, assetId: number, body: Record<string, unknown>): OpResult {
		const asset = org.assets.get(assetId);
		if (!asset) return notFound('asset');
		const now = this.now();
		const v = validateAcquisition(body, now, org.eventTypes);
		if (!v.ok) return invalid(v.errors);
		const input = v.value;
		const stale = staleEventDate('asset', input.eventTime, asset.lastChange);
		if (stale) return stale;
		const reactivate = asset.status === 'decommissioned';
		if (reactivate && org.maxReactivations !== null && org.reactivationsUsed >= org.maxReactivations) {
			return conflict(
				`The plan limit on reactivations (${org.maxReactivations}) has been reached; this acquisition would reactivate a decommissioned asset.`,
			);
		}
		const at = formatTimestamp(now.getTime());
		const eventDate = formatTimestamp(input.eventTime);
		const addEvent = (kind: string, eventTypeId: number | null): number => {
			const event: AssetEventView = {
				organization_id: org.id,
				id: this.next.assetEvent++,
				asset_id: asset.id,
				kind,
				event_date: eventDate,
				event_type_id: eventTypeId,
				created_at: at,
			};
			this.assetEvents.push(event);
			return event.id;
		};
		const eventIds: number[] = [];
		if (reactivate) {
			eventIds.push(addEvent('reactivation', null));
			org.reactivationsUsed++;
			asset.status = 'available';
			asset.decommission_event_type_id = null;
		}
		eventIds.push(addEvent('acquisition', input.eventType.id));
		asset.lastChange = Math.max(asset.lastChange, input.eventTime);
		const money = (c: number | null) => (c === null ? null : formatMoney(c));
		const record: AcquisitionView = {
			organization_id: org.id,
			id: this.next.acquisition++,
			asset_id: asset.id,
			event_type_id: input.eventType.id,
			event_date: eventDate,
			description: input.description,
			field_values: input.field_values,
			acquired_from: input.acquired_from,
			price: money(input.priceCents),
			cost: money(input.costCents),
			salvage_value: money(input.salvageCents),
			finance_amount: money(input.financeCents),
			payment: money(input.paymentCents),
			billing_frequency: input.billing_frequency,
			number_of_payments: input.number_of_payments,
			reactivated: reactivate,
			asset_event_ids: eventIds,
			idempotency_key: key,
			created_at: at,
		};
		this.acquisitions.push(record);
		const { organization_id: _o, asset_id: _a, idempotency_key: _k, created_at: _c, ...details } = record;
		asset.acquisition = details;
		return assetActionCreated(asset, eventIds, null);
	}

	// -------------------------------------------------------------------------------------------
	// Inspection views
	// -------------------------------------------------------------------------------------------
	assetViews(): AssetView[] {
		return [...this.orgs.values()].flatMap((org) =>
			[...org.assets.values()].map((a) => ({
				organization_id: org.id,
				id: a.id,
				name: a.name,
				status: a.status,
				is_in_storage: a.is_in_storage,
				decommission_event_type_id: a.decommission_event_type_id,
				last_state_change_at: formatTimestamp(a.lastChange),
				acquisition: a.acquisition,
			})),
		);
	}

	subscriptionViews(): SubscriptionView[] {
		return [...this.orgs.values()].flatMap((org) =>
			[...org.subscriptions.values()].map(
				(s) =>
					({
						organization_id: org.id,
						id: s.id,
						name: s.name,
						free: s.free,
						final: s.final,
						...subscriptionState(s),
						last_state_change_at: formatTimestamp(s.lastChange),
					}) as SubscriptionView,
			),
		);
	}
}

function buildOrg(o: SeedOrganization): Org {
	return {
		id: o.id,
		name: o.name,
		maxReactivations: o.plan.max_reactivations,
		reactivationsUsed: o.plan.reactivations_used ?? 0,
		userIds: new Set(o.users.map((u) => u.id)),
		personIds: new Set(o.people.map((p) => p.id)),
		assets: new Map(
			o.assets.map((a) => [
				a.id,
				{
					id: a.id,
					name: a.name,
					status: a.status,
					is_in_storage: a.is_in_storage ?? false,
					decommission_event_type_id: a.status === 'decommissioned' ? (a.decommission_event_type_id ?? null) : null,
					lastChange: Date.parse(a.last_state_change_at),
					acquisition: null,
				},
			]),
		),
		subscriptions: new Map(
			o.subscriptions.map((s) => [
				s.id,
				{
					id: s.id,
					name: s.name,
					free: s.free ?? false,
					final: s.final ?? false,
					price_model: s.price_model,
					costCents: toCents(s.cost),
					billing_frequency: s.billing_frequency,
					license_count: s.license_count ?? null,
					lastChange: Date.parse(s.last_state_change_at),
				},
			]),
		),
		eventTypes: new Map(o.event_types.map((t) => [t.id, t])),
	};
}

/** 409 when the event_date is before the record's newest state change (whole seconds), else null. */
function staleEventDate(record: 'asset' | 'subscription', eventTime: number, lastChange: number): OpResult | null {
	if (Math.floor(eventTime / 1000) >= Math.floor(lastChange / 1000)) return null;
	return conflict(
		`The event_date precedes a newer state change of this ${record} (${formatTimestamp(lastChange)}); refresh the record.`,
	);
}

/** 201 with the API's action result for an asset: the events created, the to-do (if any), the new state. */
function assetActionCreated(asset: Asset, assetEventIds: number[], todo: unknown): OpResult {
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

function subscriptionState(s: Subscription): Record<string, unknown> {
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

function billingValues(s: Subscription): BillingChangeView['before'] {
	return {
		price_model: s.price_model,
		cost: formatMoney(s.costCents),
		billing_frequency: s.billing_frequency,
		license_count: s.license_count,
	};
}

/**
 * "Plain text on input; responses may contain HTML": the sandbox escapes &, < and > and turns line
 * breaks into <br>, so plain single-line notes come back unchanged.
 */
export function notesToHtml(text: string): string {
	return text
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/\r\n|\r|\n/g, '<br>\n');
}

function notFound(what: string): OpResult {
	return { status: 404, applied: false, body: errorBody(`The ${what} is unavailable in this organization.`) };
}

function invalid(errors: FieldErrors): OpResult {
	const first = Object.values(errors)[0]?.[0] ?? 'The given data was invalid.';
	const more = Object.values(errors).reduce((n, l) => n + l.length, 0) - 1;
	const message = more > 0 ? `${first} (and ${more} more error${more > 1 ? 's' : ''})` : first;
	return { status: 422, applied: false, body: errorBody(message, errors) };
}

function conflict(message: string): OpResult {
	return { status: 409, applied: false, body: errorBody(message) };
}
