/**
 * Public types of the Inventory API sandbox.
 *
 * The sandbox shares no code with the node (nodes/, credentials/): everything it knows about the
 * Inventory API comes from its documentation (as docs/api.md reads it) and the choices listed in
 * sandbox/README.md.
 */

/** The three operations of the contract. */
export type Operation = 'createTodo' | 'updateBilling' | 'recordAcquisition';

export const OPERATIONS: readonly Operation[] = [
	'createTodo',
	'updateBilling',
	'recordAcquisition',
];

/** Permissions named by the contract. */
export type Permission = 'assets:todos' | 'subscriptions:update' | 'assets:lifecycle';

// ---------------------------------------------------------------------------------------------
// Seed data (the JSON file format, sandbox/seed.json)
// ---------------------------------------------------------------------------------------------

export interface SeedToken {
	/** The bearer token string. */
	token: string;
	organization_id: number;
	/** Organization user that owns the token; becomes `created_by` of to-dos. */
	user_id: number;
	/** Only `customer_api` tokens are accepted; anything else is 401. */
	kind: 'customer_api' | string;
	permissions: string[];
	/** ISO 8601 timestamp; a token whose expiry is not in the future is 401. null = never. */
	expires_at?: string | null;
	revoked?: boolean;
	/** Free text shown by the CLI: what the token is for. */
	description?: string;
}

export interface SeedUser {
	id: number;
	name: string;
}

export interface SeedPerson {
	id: number;
	name: string;
}

export interface SeedAsset {
	id: number;
	name: string;
	/** `available` or `decommissioned` (the latter is a sandbox value; the contract shows only `available`). */
	status: 'available' | 'decommissioned';
	is_in_storage?: boolean;
	/** Event type that decommissioned the asset (decommissioned assets only). */
	decommission_event_type_id?: number | null;
	/** Time of the newest state change of the asset (ISO 8601). Older event_date values are 409. */
	last_state_change_at: string;
}

export interface SeedSubscription {
	id: number;
	name: string;
	/** A free subscription has no billing: billing updates are 409. */
	free?: boolean;
	/** A final subscription must be restored first: billing updates are 409 (sandbox choice). */
	final?: boolean;
	price_model: 'lump_sum' | 'per_license';
	cost: number;
	billing_frequency: string;
	license_count?: number | null;
	/** Time of the newest state change of the subscription (ISO 8601). Older event_date values are 409. */
	last_state_change_at: string;
}

export type FieldDatatype = 'text' | 'number' | 'date' | 'select' | 'multi_select' | 'checkbox';

export interface SeedCustomField {
	id: number;
	name: string;
	datatype: FieldDatatype;
	required: boolean;
	/** Allowed option IDs (select / multi_select only). */
	options?: { id: number; label: string }[];
}

export interface SeedEventType {
	id: number;
	name: string;
	/** Only acquisition event types are eligible for the acquisition operation (else 422). */
	acquisition: boolean;
	/** Enables `finance_amount`. */
	enables_finance?: boolean;
	/** Enables `payment`, `billing_frequency` and `number_of_payments`. */
	enables_payments?: boolean;
	/** Custom fields whose values go into `field_values`. */
	fields?: SeedCustomField[];
}

export interface SeedOrganization {
	id: number;
	name: string;
	plan: {
		/** How many decommissioned assets may be reactivated by acquisitions. null = unlimited. */
		max_reactivations: number | null;
		/** Reactivations already used before the sandbox started. */
		reactivations_used?: number;
	};
	users: SeedUser[];
	people: SeedPerson[];
	assets: SeedAsset[];
	subscriptions: SeedSubscription[];
	event_types: SeedEventType[];
}

export interface SeedData {
	organizations: SeedOrganization[];
	tokens: SeedToken[];
}

// ---------------------------------------------------------------------------------------------
// Faults
// ---------------------------------------------------------------------------------------------

export const FAULT_KINDS = [
	'latency',
	'rateLimited',
	'serverError',
	'resetBeforeApply',
	'dropAfterApply',
	'slowResponse',
	'holdInFlight',
] as const;

export type FaultKind = (typeof FAULT_KINDS)[number];

/**
 * Fault injection configuration. Everything is off unless set. Rates are probabilities 0..1,
 * decided deterministically from (seed, fault kind, Idempotency-Key, attempt number of that key).
 */
export interface FaultConfig {
	/** Seed of the deterministic fault decisions. Default 1. */
	seed?: number;
	/** Operations affected by every fault below. Default: all three. */
	operations?: Operation[];
	/** Added latency in ms before every affected request is handled. Not counted towards maxFaultsPerKey. */
	latencyMs?: number;
	/** 429 with Retry-After once more than `requests` affected requests arrived in the current fixed window. */
	rateLimit?: { requests: number; windowMs: number; retryAfterSeconds?: number } | null;
	/** Probability of a 5xx answered before the action is applied. */
	serverErrorRate?: number;
	/** Status of the injected 5xx. Default 503. */
	serverErrorStatus?: number;
	/** Probability that the connection is reset before the action is applied (nothing stored). */
	resetBeforeApplyRate?: number;
	/** Probability that the connection is dropped after the action is applied and stored (response lost). */
	dropAfterApplyRate?: number;
	/** Probability that the response of an applied and stored action is held back for slowResponseDelayMs. */
	slowResponseRate?: number;
	/** Delay of a slow response in ms. Default 5000. */
	slowResponseDelayMs?: number;
	/**
	 * Probability that a fresh action is held in flight for holdInFlightMs before it is applied: its key
	 * is taken, so a retry with the same key meanwhile gets 409 "still being processed"; then the action
	 * is applied and stored and a retry gets the replay. Its own response goes out after the hold, if
	 * the client is still there.
	 */
	holdInFlightRate?: number;
	/** How long a held action stays in flight, in ms. Default 5000. */
	holdInFlightMs?: number;
	/**
	 * At most this many injected faults (rate limit, 5xx, reset, drop, slow, hold) per Idempotency-Key,
	 * so a client with a bounded retry budget always succeeds eventually. Default 3.
	 */
	maxFaultsPerKey?: number;
	/**
	 * Not a fault: time in ms an action spends "processing" while holding its Idempotency-Key, so that
	 * concurrent requests with the same key observably meet an in-flight request (409).
	 */
	processingDelayMs?: number;
}

/** The timed waits that hold a request: `latencyMs`, `processingDelayMs`, and the two holding faults. */
export const HOLD_KINDS = ['latency', 'processing', 'holdInFlight', 'slowResponse'] as const;

export type HoldKind = (typeof HOLD_KINDS)[number];

/**
 * A request held by one of the timed waits while a hold listener is set (SandboxHandle.holdRequests):
 * it stays where it is until `release()`, however long that takes.
 */
export interface HeldRequest {
	/**
	 * Which wait: `latency` before anything else, `processing` and `holdInFlight` with the key in
	 * flight before the action is applied, `slowResponse` with the action applied and its answer ready.
	 */
	readonly kind: HoldKind;
	/** The request's `seq` in the request log. */
	readonly seq: number;
	/** The Idempotency-Key as sent (trimmed), or null. */
	readonly key: string | null;
	readonly operation: Operation;
	/** Ends the hold: the request goes on as after its wait. Calling it again does nothing. */
	release(): void;
}

// ---------------------------------------------------------------------------------------------
// Rate limit (not a fault: the sandbox's own limit, like a gateway's)
// ---------------------------------------------------------------------------------------------

/**
 * Token-bucket rate limit per organization: each organization's bucket holds up to `burst` tokens,
 * refilled continuously at `ratePerSecond`; each API request of an authenticated token takes one,
 * and a request that finds none is answered 429 at once.
 */
export interface RateLimitConfig {
	/** Tokens added per second (a positive finite number, fractions allowed). */
	ratePerSecond: number;
	/** Capacity of a bucket, at least 1. Default: ratePerSecond (one second's worth), at least 1. */
	burst?: number;
}

/** The rate limit in effect, with its burst resolved. */
export type ActiveRateLimit = Required<RateLimitConfig>;

export interface RateLimitBucketView {
	organization_id: number;
	/** Tokens in the bucket now (refilled up to now, rounded to 3 decimals); a request needs 1. */
	tokens: number;
}

// ---------------------------------------------------------------------------------------------
// Logging, recorded requests, inspection state
// ---------------------------------------------------------------------------------------------

export interface LogEntry {
	time: string;
	method: string;
	path: string;
	status: number | null;
	key: string | null;
	durationMs: number;
	operation: Operation | 'admin' | null;
	replayed: boolean;
	fault: FaultKind | null;
}

export interface RecordedRequest {
	seq: number;
	receivedAt: string;
	method: string;
	path: string;
	operation: Operation | null;
	/** All request headers (lower-cased names) except Authorization. */
	headers: Record<string, string>;
	/** Parsed JSON body, or the raw text when it is not JSON, or null when empty. */
	body: unknown;
	/** Status the sandbox produced (for dropAfterApply: the status of the lost response; null for resetBeforeApply). */
	status: number | null;
	key: string | null;
	replayed: boolean;
	/** Injected fault, if any (latency is not listed here). */
	fault: FaultKind | null;
	/** false when the response never reached the client (reset, drop). */
	delivered: boolean;
	durationMs: number;
	/**
	 * When the request arrived, in milliseconds since the epoch with sub-millisecond precision
	 * (performance.timeOrigin + performance.now()).
	 */
	startedAtMs: number;
	/** When its response was fully written, or its connection reset or dropped; same clock. */
	finishedAtMs: number;
}

export interface Counters {
	requestsTotal: number;
	requestsByPath: Record<string, number>;
	requestsByOperation: Record<string, number>;
	responsesByStatus: Record<string, number>;
	/** Actions applied (new records/events created). */
	applied: number;
	appliedByOperation: Record<string, number>;
	/** Responses replayed from the idempotency store. */
	replays: number;
	/** 409s because the key was reused with a different method, path or body. */
	idempotencyMismatches: number;
	/** 409s because the key's first request was still in flight. */
	idempotencyInFlight: number;
	/** 429s of the token-bucket rate limit (the rateLimit fault counts in faults.rateLimited). */
	rateLimited: number;
	faults: Record<FaultKind, number>;
}

export interface AssetView {
	organization_id: number;
	id: number;
	name: string;
	status: string;
	is_in_storage: boolean;
	decommission_event_type_id: number | null;
	last_state_change_at: string;
	acquisition: Record<string, unknown> | null;
}

export interface SubscriptionView {
	organization_id: number;
	id: number;
	name: string;
	free: boolean;
	final: boolean;
	status: string;
	billing_type: string;
	price_model: string;
	cost: string;
	billing_frequency: string;
	license_count: number | null;
	last_state_change_at: string;
}

export interface TodoView {
	organization_id: number;
	asset_id: number;
	id: number;
	name: string;
	notes: string | null;
	due_date: string | null;
	assigned_to: number | null;
	created_by: number;
	is_complete: boolean;
	created_at: string;
	updated_at: string;
}

export interface AcquisitionView {
	organization_id: number;
	id: number;
	asset_id: number;
	event_type_id: number;
	event_date: string;
	description: string | null;
	field_values: Record<string, unknown>;
	acquired_from: string | null;
	price: string | null;
	cost: string | null;
	salvage_value: string | null;
	finance_amount: string | null;
	payment: string | null;
	billing_frequency: string | null;
	number_of_payments: number | null;
	reactivated: boolean;
	asset_event_ids: number[];
	idempotency_key: string;
	created_at: string;
}

export interface BillingChangeView {
	organization_id: number;
	id: number;
	subscription_id: number;
	event_date: string;
	description: string | null;
	before: {
		price_model: string;
		cost: string;
		billing_frequency: string;
		license_count: number | null;
	};
	after: {
		price_model: string;
		cost: string;
		billing_frequency: string;
		license_count: number | null;
	};
	subscription_event_id: number;
	idempotency_key: string;
	created_at: string;
}

export interface EventView {
	organization_id: number;
	id: number;
	kind: string;
	event_date: string;
	event_type_id: number | null;
	created_at: string;
}

export interface AssetEventView extends EventView {
	asset_id: number;
}

export interface SubscriptionEventView extends EventView {
	subscription_id: number;
}

export interface IdempotencyEntryView {
	organization_id: number;
	key: string;
	method: string;
	path: string;
	status: number;
	stored_at: string;
}

export interface SandboxState {
	notice: string;
	organizations: {
		id: number;
		name: string;
		plan: { max_reactivations: number | null; reactivations_used: number };
	}[];
	assets: AssetView[];
	subscriptions: SubscriptionView[];
	todos: TodoView[];
	acquisitions: AcquisitionView[];
	billingChanges: BillingChangeView[];
	assetEvents: AssetEventView[];
	subscriptionEvents: SubscriptionEventView[];
	idempotencyKeys: IdempotencyEntryView[];
	faults: FaultConfig | null;
	rateLimit: ActiveRateLimit | null;
	/** One bucket per organization while the rate limit is on; empty when it is off. */
	rateLimitBuckets: RateLimitBucketView[];
	counters: Counters;
}
