/**
 * The in-memory organization data built from the seed: organizations, tokens, the records and
 * events the operations (operations.ts) create, and the views of GET /_sandbox/state.
 */
import type {
	AcquisitionView,
	AssetEventView,
	AssetView,
	BillingChangeView,
	SeedData,
	SeedOrganization,
	SeedToken,
	SubscriptionEventView,
	SubscriptionView,
	TodoView,
} from '../types';
import { toCents } from '../validation/fields';
import { formatTimestamp, subscriptionState, type Org } from './records';

const ID_BASE = {
	todo: 30001,
	assetEvent: 40001,
	subscriptionEvent: 50001,
	acquisition: 60001,
	billingChange: 70001,
};

export class World {
	readonly orgs = new Map<number, Org>();
	readonly tokens = new Map<string, SeedToken>();
	readonly todos: TodoView[] = [];
	readonly acquisitions: AcquisitionView[] = [];
	readonly billingChanges: BillingChangeView[] = [];
	readonly assetEvents: AssetEventView[] = [];
	readonly subscriptionEvents: SubscriptionEventView[] = [];
	private readonly next = { ...ID_BASE };

	constructor(
		seed: SeedData,
		/** The sandbox's clock. */
		readonly now: () => Date,
	) {
		for (const o of seed.organizations) this.orgs.set(o.id, buildOrg(o));
		for (const t of seed.tokens) this.tokens.set(t.token, t);
	}

	/** The next ID of a kind of record (each kind counts up from its own base). */
	nextId(kind: keyof typeof ID_BASE): number {
		return this.next[kind]++;
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
					decommission_event_type_id:
						a.status === 'decommissioned' ? (a.decommission_event_type_id ?? null) : null,
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
