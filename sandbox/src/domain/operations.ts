/**
 * The three operations, applied to the World. Each is synchronous: once called it validates, checks
 * the business rules and applies atomically, so no two actions interleave. Record lookup (404) comes
 * before body validation.
 */
import { billingValues, formatTimestamp, subscriptionState, type Org } from './records';
import {
	assetActionCreated,
	conflict,
	invalid,
	notFound,
	staleEventDate,
	type OpResult,
} from './results';
import type {
	AcquisitionView,
	AssetEventView,
	SeedToken,
	SubscriptionEventView,
	TodoView,
} from '../types';
import { validateAcquisition } from '../validation/acquisition';
import { validateBilling } from '../validation/billing';
import { validateTodo } from '../validation/todo';
import { formatMoney } from '../validation/fields';
import type { World } from './world';

// POST /api/v1/assets/{record}/todos
export function createTodo(
	world: World,
	org: Org,
	token: SeedToken,
	assetId: number,
	body: Record<string, unknown>,
): OpResult {
	const asset = org.assets.get(assetId);
	if (!asset) return notFound('asset');
	const v = validateTodo(body, org);
	if (!v.ok) return invalid(v.errors);
	const at = formatTimestamp(world.now().getTime());
	const todo: TodoView = {
		organization_id: org.id,
		asset_id: asset.id,
		id: world.nextId('todo'),
		name: v.value.name,
		notes: v.value.notes === null ? null : notesToHtml(v.value.notes),
		due_date: v.value.due_date,
		assigned_to: v.value.assigned_to,
		created_by: token.user_id,
		is_complete: v.value.is_complete,
		created_at: at,
		updated_at: at,
	};
	world.todos.push(todo);
	return assetActionCreated(asset, [], without(todo, 'organization_id', 'asset_id'));
}

// PUT /api/v1/subscriptions/{record}/billing
export function updateBilling(
	world: World,
	org: Org,
	key: string,
	subscriptionId: number,
	body: Record<string, unknown>,
): OpResult {
	const sub = org.subscriptions.get(subscriptionId);
	if (!sub) return notFound('subscription');
	const now = world.now();
	const v = validateBilling(body, now);
	if (!v.ok) return invalid(v.errors);
	if (sub.free)
		return conflict('The subscription is free and has no billing; its billing cannot be updated.');
	if (sub.final) {
		return conflict(
			'The subscription is final; it must be restored before its billing can be changed.',
		);
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
		id: world.nextId('subscriptionEvent'),
		subscription_id: sub.id,
		kind: 'billing_change',
		event_date: formatTimestamp(v.value.eventTime),
		event_type_id: null,
		created_at: at,
	};
	world.subscriptionEvents.push(event);
	world.billingChanges.push({
		organization_id: org.id,
		id: world.nextId('billingChange'),
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

// POST /api/v1/assets/{record}/acquisitions
export function recordAcquisition(
	world: World,
	org: Org,
	key: string,
	assetId: number,
	body: Record<string, unknown>,
): OpResult {
	const asset = org.assets.get(assetId);
	if (!asset) return notFound('asset');
	const now = world.now();
	const v = validateAcquisition(body, now, org.eventTypes);
	if (!v.ok) return invalid(v.errors);
	const input = v.value;
	const stale = staleEventDate('asset', input.eventTime, asset.lastChange);
	if (stale) return stale;
	const reactivate = asset.status === 'decommissioned';
	if (
		reactivate &&
		org.maxReactivations !== null &&
		org.reactivationsUsed >= org.maxReactivations
	) {
		return conflict(
			`The plan limit on reactivations (${org.maxReactivations}) has been reached; this acquisition would reactivate a decommissioned asset.`,
		);
	}
	const at = formatTimestamp(now.getTime());
	const eventDate = formatTimestamp(input.eventTime);
	const addEvent = (kind: string, eventTypeId: number | null): number => {
		const event: AssetEventView = {
			organization_id: org.id,
			id: world.nextId('assetEvent'),
			asset_id: asset.id,
			kind,
			event_date: eventDate,
			event_type_id: eventTypeId,
			created_at: at,
		};
		world.assetEvents.push(event);
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
		id: world.nextId('acquisition'),
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
	world.acquisitions.push(record);
	asset.acquisition = without(
		record,
		'organization_id',
		'asset_id',
		'idempotency_key',
		'created_at',
	);
	return assetActionCreated(asset, eventIds, null);
}

/**
 * "Plain text on input; responses may contain HTML": the sandbox escapes &, < and > and turns line
 * breaks into <br>, so plain single-line notes come back unchanged.
 */
/** The record without the named fields (internal bookkeeping the API does not show). */
function without<T extends object, K extends keyof T>(record: T, ...fields: K[]): Omit<T, K> {
	const copy: Partial<T> = { ...record };
	for (const field of fields) delete copy[field];
	return copy as Omit<T, K>;
}

export function notesToHtml(text: string): string {
	return text
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/\r\n|\r|\n/g, '<br>\n');
}
