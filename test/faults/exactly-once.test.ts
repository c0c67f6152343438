/**
 * Exactly-once under faults: 1,000 actions of all three operations go through the node in n8n's
 * engine while the sandbox injects every kind of fault it has, and the sandbox's own records show
 * each action applied once, with its events, and nothing else. Then a batch that fails mid-way is
 * retried the way n8n's "Retry execution" does it.
 */
import type { IDataObject, INodeExecutionData, IRun } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import {
	createTodoParameters,
	recordAcquisitionParameters,
	TOKENS,
	updateBillingParameters,
} from '../fixtures';
import {
	FAULT_KINDS,
	startSandbox,
	type FaultConfig,
	type FaultKind,
	type HeldRequest,
	type LogEntry,
	type RecordedRequest,
	type SandboxHandle,
	type SandboxState,
} from '../../sandbox/src';
import {
	installAttemptTimeouts,
	timeOutAttempt,
	UNREACHED_TIMEOUT_MS,
	uninstallAttemptTimeouts,
} from '../harness/attempts';
import {
	forgetServerControllers,
	inventoryWorkflow,
	nodeOutput,
	retryExecution,
	runWorkflow,
	type WorkflowDefinition,
} from '../harness/engine';
import {
	branchesWorkflow,
	captureOutput,
	occurrences,
	serializeRun,
	type Capture,
} from './helpers';

const TODOS = 400;
const ACQUISITIONS = 300;
const BILLINGS = 300;
const ACTIONS = TODOS + ACQUISITIONS + BILLINGS;

/**
 * The node's retry budget in these runs (the most it allows), and small waits so 1,000 faulty actions
 * take seconds. It covers the 5 injected faults a key may meet plus the 409 of a held action (see
 * FAULTS). The Timeout is one no answer reaches: an attempt times out only when the test ends it.
 */
const MAX_RETRIES = 10;
/** A number: that fixed concurrency (the Concurrency option); 'automatic': the node finds it (Max Concurrency). */
type Sending = number | 'automatic';
const nodeOptions = (sending: Sending) => ({
	...(sending === 'automatic' ? {} : { concurrency: sending }),
	maxRetries: MAX_RETRIES,
	retryDelay: 1,
	maxRetryWait: 2000,
	timeout: UNREACHED_TIMEOUT_MS,
});

/**
 * Rate-based faults, decided by the sandbox per Idempotency-Key and attempt: about a fifth of the
 * actions meet each kind. slowResponse holds an applied action's response back, holdInFlight keeps a
 * fresh action's key in flight before applying it; both hold their request until released
 * (`holdRequests`, see heldUntilNextAttempt), so the node's attempt times out first, by construction:
 * a held answer comes after the node gave up on it, and a held key's next attempt meets "409 still
 * being processed" before the action is applied and the one after gets the replay. holdInFlight,
 * dropAfterApply and slowResponse can only hit the attempt that applies the action, and each one
 * that fires rules out the next, so their rates are set so that each reaches about 20 % of the
 * actions. At most 5 injected faults per key.
 */
const FAULTS: FaultConfig = {
	seed: 20260331,
	resetBeforeApplyRate: 0.2,
	serverErrorRate: 0.2,
	holdInFlightRate: 0.23,
	dropAfterApplyRate: 0.28,
	slowResponseRate: 0.42,
	maxFaultsPerKey: 5,
};
const RATE_LIMIT_EVERY = 4;

let sandbox: SandboxHandle;
let capture: Capture;
const sandboxLog: LogEntry[] = [];
let onLog: (entry: LogEntry) => void = () => {};

/** The requests the sandbox holds (slowResponse, holdInFlight), by key, until that key's next attempt is answered. */
const held = new Map<string, HeldRequest[]>();
/** Holds whose key had no attempt in flight to time out: none, or the test proves nothing. */
const notTimedOut: string[] = [];

/**
 * A held request: the node's attempt that sent it times out now, and the hold lasts until the sandbox
 * has answered the key's next attempt (sent after the node gave up on this one, since a key's
 * attempts go one after another): a 409 while its key is held in flight, else the replay of its
 * stored result (or a fault or a 429 first).
 */
function heldUntilNextAttempt(request: HeldRequest): void {
	const key = request.key ?? '(none)';
	if (!timeOutAttempt(request.key)) notTimedOut.push(`${request.kind} ${key}`);
	held.set(key, [...(held.get(key) ?? []), request]);
}

function releaseHeld(key: string | null): void {
	for (const request of held.get(key ?? '(none)') ?? []) request.release();
	held.delete(key ?? '(none)');
}

/** The token bucket of the automatic runs: 100 requests a second, in bursts of up to 20. */
const TOKEN_BUCKET = { ratePerSecond: 100, burst: 20 };
/** The node's first requests that meet the bucket together (automatic concurrency starts with ten in flight). */
const FIRST_TOGETHER = 6;
/** The tokens that other traffic of the organization left in the bucket for them. */
const TOKENS_LEFT = 3;
let firstRequests: HeldRequest[] = [];

/**
 * An automatic run starts on a bucket that other traffic of the organization has nearly emptied:
 * the node's first FIRST_TOGETHER requests are held at the sandbox (a latency hold, no injected
 * fault) until all of them have arrived, then meet the bucket together, so that TOKENS_LEFT pass
 * and the others get the bucket's 429, whatever the machine's speed (until they have met it, the
 * bucket refills at one token a second: no stall of the machine can refill it). Then the faults
 * and the bucket's real rate are on.
 */
function startOnNearlyEmptyBucket(): void {
	firstRequests = [];
	sandbox.setRateLimit({ ratePerSecond: 1, burst: TOKENS_LEFT });
	sandbox.setFaults({ latencyMs: 1 });
}

function metTheBucketTogether(request: HeldRequest): void {
	firstRequests.push(request);
	if (firstRequests.length < FIRST_TOGETHER) return;
	sandbox.setFaults(FAULTS);
	for (const first of firstRequests) first.release();
	// They take their tokens before the event loop's next turn; then the bucket refills at its rate.
	setImmediate(() => sandbox.setRateLimit(TOKEN_BUCKET));
}

/** What a run left held (nothing, when every timed-out attempt was retried) is let go. */
function releaseAllHeld(): void {
	for (const key of [...held.keys()]) releaseHeld(key);
}

beforeAll(async () => {
	capture = captureOutput();
	installAttemptTimeouts();
	sandbox = await startSandbox({
		log: (entry) => {
			sandboxLog.push(entry);
			// A held request's own entry comes after its release: an entry of a held key is a later attempt's.
			releaseHeld(entry.key);
			onLog(entry);
		},
	});
	sandbox.holdRequests((request) =>
		request.kind === 'latency' ? metTheBucketTogether(request) : heldUntilNextAttempt(request),
	);
});
afterAll(async () => {
	releaseAllHeld();
	await sandbox.close();
	uninstallAttemptTimeouts();
	capture.stop();
});
beforeEach(async () => {
	releaseAllHeld();
	await slowResponsesDelivered();
	notTimedOut.length = 0;
	onLog = () => {};
	sandbox.setFaults(null);
	sandbox.reset();
	forgetServerControllers();
});

/**
 * Responses the sandbox decided to hold back (slowResponse) would land in the next test's request
 * log: wait until every one has been written out (or dropped). Each was released by its key's next
 * attempt; one still held would mean the node never came back for it.
 */
async function slowResponsesDelivered(): Promise<void> {
	expect([...held.keys()]).toEqual([]);
	const pending = () =>
		sandbox.state().counters.faults.slowResponse -
		sandbox.requests().filter((r) => r.fault === 'slowResponse').length;
	while (pending() > 0) await sleep(50);
}

/**
 * A 429 on every RATE_LIMIT_EVERY-th request, counted (not timed) so the share of rate limits does
 * not depend on the machine's speed: after that many API requests the sandbox's rate limit is
 * switched to "0 requests allowed", and back off as soon as one request got its 429. The 429s say
 * `Retry-After: 0`, except the `slowTrips`-th ones, which say `Retry-After: 1` (one second, which
 * the node must honour for every request of the run: kept to a few so the suite stays fast).
 */
function rateLimitEvery(base: FaultConfig, every: number, slowTrips: number[]): void {
	let counted = 0;
	let trips = 0;
	let tripped = false;
	onLog = (entry) => {
		if (entry.operation === 'admin' || entry.operation === null) return;
		if (entry.fault === 'rateLimited') {
			if (tripped) sandbox.setFaults(base);
			tripped = false;
			return;
		}
		counted++;
		if (!tripped && counted % every === 0) {
			trips++;
			tripped = true;
			const retryAfterSeconds = slowTrips.includes(trips) ? 1 : 0;
			sandbox.setFaults({
				...base,
				rateLimit: { requests: 0, windowMs: 3_600_000, retryAfterSeconds },
			});
		}
	};
	sandbox.setFaults(base);
}

const todoItems = Array.from({ length: TODOS }, (_, i) => ({
	assetId: 1001 + (i % 20),
	task: `intake-todo-${i}`,
}));
const acquisitionItems = Array.from({ length: ACQUISITIONS }, (_, i) => ({
	assetId: 1001 + (i % 20),
	ref: `intake-acquisition-${i}`,
	price: 100 + i,
}));
const billingItems = Array.from({ length: BILLINGS }, (_, i) => ({
	subscriptionId: 2001 + (i % 5),
	ref: `intake-billing-${i}`,
	cost: Number((10 + i / 100).toFixed(2)),
}));

/** The items of one execution: all 1,000 actions, or a share of them when several executions run at once. */
interface Intake {
	todos: typeof todoItems;
	acquisitions: typeof acquisitionItems;
	billings: typeof billingItems;
}
const allIntake: Intake = {
	todos: todoItems,
	acquisitions: acquisitionItems,
	billings: billingItems,
};

/** The 1,000 actions dealt round-robin to `count` executions. */
function dealIntake(count: number): Intake[] {
	const share = <T>(items: T[], part: number) => items.filter((_, i) => i % count === part);
	return Array.from({ length: count }, (_, part) => ({
		todos: share(todoItems, part),
		acquisitions: share(acquisitionItems, part),
		billings: share(billingItems, part),
	}));
}

const mixedWorkflow = (sending: Sending, intake: Intake = allIntake) => {
	return branchesWorkflow([
		{
			name: 'Create To-dos',
			items: intake.todos,
			parameters: createTodoParameters({
				assetId: '={{ $json.assetId }}',
				name: '={{ $json.task }}',
				options: nodeOptions(sending),
			}),
		},
		{
			name: 'Record Acquisitions',
			items: intake.acquisitions,
			parameters: recordAcquisitionParameters(
				{ assetId: '={{ $json.assetId }}', options: nodeOptions(sending) },
				{ description: '={{ $json.ref }}', price: '={{ $json.price }}' },
			),
		},
		{
			name: 'Update Billing',
			items: intake.billings,
			parameters: updateBillingParameters(
				{
					subscriptionId: '={{ $json.subscriptionId }}',
					cost: '={{ $json.cost }}',
					options: nodeOptions(sending),
				},
				{ description: '={{ $json.ref }}' },
			),
		},
	]);
};

function byKey(requests: RecordedRequest[]): Map<string, RecordedRequest[]> {
	const keys = new Map<string, RecordedRequest[]>();
	for (const request of requests) {
		const key = request.key ?? '(none)';
		keys.set(key, [...(keys.get(key) ?? []), request]);
	}
	return keys;
}

function countBy<T>(values: T[]): Map<T, number> {
	const counts = new Map<T, number>();
	for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
	return counts;
}

/** Values that occur more than once. */
function duplicates<T>(values: T[]): T[] {
	return [...countBy(values)].filter(([, count]) => count > 1).map(([value]) => value);
}

function expectNoToken(runs: IRun[]): void {
	const texts = [
		...runs.map(serializeRun),
		capture.lines.join('\n'),
		JSON.stringify(sandboxLog),
		JSON.stringify(sandbox.requests()),
	];
	for (const text of texts) expect(occurrences(text, TOKENS.fullAccess)).toEqual([]);
	expect(capture.lines.some((line) => line.startsWith('debug Running node'))).toBe(true);
}

/** Every check of "exactly once" that the sandbox's inspection and the node's output allow. */
function expectExactlyOnce(
	run: IRun | Array<{ run: IRun; intake: Intake }>,
	state: SandboxState,
	requests: RecordedRequest[],
): void {
	const runs = Array.isArray(run) ? run : [{ run, intake: allIntake }];
	expect(notTimedOut).toEqual([]);
	for (const { run: oneRun } of runs) {
		expect(oneRun.data.resultData.error?.message).toBeUndefined();
		expect(oneRun.status).toBe('success');
	}

	// The records: one per item identity, none missing, none twice.
	expect(state.todos.map((todo) => todo.name).sort()).toEqual(
		todoItems.map((item) => item.task).sort(),
	);
	expect(state.acquisitions.map((a) => a.description).sort()).toEqual(
		acquisitionItems.map((item) => item.ref).sort(),
	);
	expect(state.billingChanges.map((b) => b.description).sort()).toEqual(
		billingItems.map((item) => item.ref).sort(),
	);

	// Their events: exactly one acquisition event per acquisition, one billing-change event per billing update.
	expect(state.assetEvents).toHaveLength(ACQUISITIONS);
	expect(state.assetEvents.every((event) => event.kind === 'acquisition')).toBe(true);
	expect(state.acquisitions.flatMap((a) => a.asset_event_ids).sort((a, b) => a - b)).toEqual(
		state.assetEvents.map((event) => event.id).sort((a, b) => a - b),
	);
	expect(state.subscriptionEvents).toHaveLength(BILLINGS);
	expect(state.billingChanges.map((b) => b.subscription_event_id).sort((a, b) => a - b)).toEqual(
		state.subscriptionEvents.map((event) => event.id).sort((a, b) => a - b),
	);
	expect(state.counters.applied).toBe(ACTIONS);

	// Per idempotency key: 1,000 keys stored, each applied by exactly one request; every retry of a
	// key resent the identical request (method, path, body) and got a replay, a fault, or (while the
	// key was held in flight) a 409.
	expect(state.idempotencyKeys).toHaveLength(ACTIONS);
	expect(duplicates(state.idempotencyKeys.map((entry) => entry.key))).toEqual([]);
	expect(
		duplicates([...state.acquisitions, ...state.billingChanges].map((r) => r.idempotency_key)),
	).toEqual([]);
	const keys = byKey(requests);
	expect(keys.size).toBe(ACTIONS);
	expect(new Set(keys.keys())).toEqual(new Set(state.idempotencyKeys.map((entry) => entry.key)));
	for (const [key, attempts] of keys) {
		const applied = attempts.filter((r) => r.status !== null && r.status < 300 && !r.replayed);
		expect({ key, applied: applied.length }).toEqual({ key, applied: 1 });
		expect(new Set(attempts.map((r) => JSON.stringify([r.method, r.path, r.body]))).size).toBe(1);
		expect(attempts.length).toBeLessThanOrEqual(MAX_RETRIES + 1);
		const held = attempts.some((r) => r.fault === 'holdInFlight');
		for (const r of attempts) {
			expect([
				r.fault !== null,
				r.status !== null && r.status < 300,
				r.status === 429, // the token bucket's (not a fault)
				held && r.status === 409,
			]).toContain(true);
		}
	}

	for (const { run: oneRun, intake } of runs) expectOutputsCarryRecords(oneRun, intake, state);
}

/** The node's output: one item per input item, in order, paired, carrying that item's record. */
function expectOutputsCarryRecords(run: IRun, intake: Intake, state: SandboxState): void {
	const todoOut = nodeOutput(run, 'Create To-dos');
	expect(todoOut.map((item) => item.pairedItem)).toEqual(intake.todos.map((_, item) => ({ item })));
	const todoIds = new Map(state.todos.map((todo) => [todo.name, todo.id]));
	expect(todoOut.map((item) => (item.json.todo as IDataObject).id)).toEqual(
		intake.todos.map((item) => todoIds.get(item.task)),
	);
	expect(todoOut.map((item) => item.json.asset_id)).toEqual(
		intake.todos.map((item) => item.assetId),
	);

	const acquisitionOut = nodeOutput(run, 'Record Acquisitions');
	expect(acquisitionOut.map((item) => item.pairedItem)).toEqual(
		intake.acquisitions.map((_, item) => ({ item })),
	);
	const acquisitionEvents = new Map(
		state.acquisitions.map((a) => [a.description, a.asset_event_ids]),
	);
	expect(acquisitionOut.map((item) => item.json.asset_event_ids)).toEqual(
		intake.acquisitions.map((item) => acquisitionEvents.get(item.ref)),
	);

	const billingOut = nodeOutput(run, 'Update Billing');
	expect(billingOut.map((item) => item.pairedItem)).toEqual(
		intake.billings.map((_, item) => ({ item })),
	);
	const billingEvents = new Map(
		state.billingChanges.map((b) => [b.description, [b.subscription_event_id]]),
	);
	expect(billingOut.map((item) => item.json.subscription_event_ids)).toEqual(
		intake.billings.map((item) => billingEvents.get(item.ref)),
	);
}

/** Keys (actions) that met each fault kind, from the sandbox's request log. */
function actionsPerFault(
	requests: RecordedRequest[],
): Record<Exclude<FaultKind, 'latency'>, number> {
	const kinds = FAULT_KINDS.filter((kind) => kind !== 'latency');
	return Object.fromEntries(
		kinds.map((kind) => [
			kind,
			new Set(requests.filter((r) => r.fault === kind).map((r) => r.key)).size,
		]),
	) as Record<Exclude<FaultKind, 'latency'>, number>;
}

/**
 * The faults really happened, at the rates asked for (about 20 % of the actions each; the floor leaves
 * room for chance, since keys differ per run), and some retries met "409 still being processed".
 */
function expectFaultsMet(
	requests: RecordedRequest[],
): Record<Exclude<FaultKind, 'latency'>, number> {
	const perFault = actionsPerFault(requests);
	for (const kind of [
		'serverError',
		'resetBeforeApply',
		'dropAfterApply',
		'slowResponse',
		'holdInFlight',
	] as const) {
		expect({ kind, atLeast15Percent: perFault[kind] >= 0.15 * ACTIONS }).toEqual({
			kind,
			atLeast15Percent: true,
		});
	}
	expect(requests.filter((r) => r.status === 409).length).toBeGreaterThan(0);
	expect(
		new Set(requests.filter((r) => r.fault !== null).map((r) => r.key)).size,
	).toBeGreaterThanOrEqual(0.5 * ACTIONS);
	return perFault;
}

describe.each([
	{ concurrency: 1, slowTrips: [40] },
	{ concurrency: 10, slowTrips: [40, 200] },
])(
	'1,000 actions under every kind of fault, concurrency $concurrency',
	({ concurrency, slowTrips }) => {
		test('every item succeeds; exactly 1,000 records with their events, 0 duplicates, 0 missing', async () => {
			rateLimitEvery(FAULTS, RATE_LIMIT_EVERY, slowTrips);
			const run = await runWorkflow(mixedWorkflow(concurrency), {
				credentials: { baseUrl: sandbox.baseUrl, apiToken: TOKENS.fullAccess },
			});
			onLog = () => {};
			await slowResponsesDelivered();
			const state = sandbox.state();
			const requests = sandbox.requests();

			expectExactlyOnce(run, state, requests);

			const perFault = expectFaultsMet(requests);
			expect(perFault.rateLimited).toBeGreaterThanOrEqual(0.2 * ACTIONS);
			// Every 429 the sandbox sent is in the log with its Retry-After, and the node came back after it.
			expect(requests.filter((r) => r.fault === 'rateLimited').length).toBeGreaterThan(0);
			console.log(
				`concurrency ${concurrency}: ${requests.length} requests for ${ACTIONS} actions; per kind: ${JSON.stringify(perFault)}; 429 with Retry-After 1 s: ${slowTrips.length}`,
			);

			expectNoToken([run]);
		}, 150_000);
	},
);

describe('1,000 actions under every kind of fault and a token bucket, automatic concurrency', () => {
	test('every item succeeds; exactly 1,000 records with their events, 0 duplicates, 0 missing', async () => {
		startOnNearlyEmptyBucket();
		try {
			const run = await runWorkflow(mixedWorkflow('automatic'), {
				credentials: { baseUrl: sandbox.baseUrl, apiToken: TOKENS.fullAccess },
			});
			await slowResponsesDelivered();
			const state = sandbox.state();
			const requests = sandbox.requests();

			expectExactlyOnce(run, state, requests);
			const perFault = expectFaultsMet(requests);
			// At least the first requests' 429s (see startOnNearlyEmptyBucket).
			expect(state.counters.rateLimited).toBeGreaterThanOrEqual(FIRST_TOGETHER - TOKENS_LEFT);
			// What automatic concurrency settled on is logged at debug level, once per node run.
			expect(
				capture.lines.filter((line) => line.includes('Inventory: automatic concurrency settled')),
			).toHaveLength(3);
			console.log(
				`automatic: ${requests.length} requests for ${ACTIONS} actions; per kind: ${JSON.stringify(perFault)}; 429 of the token bucket: ${state.counters.rateLimited}`,
			);
			expectNoToken([run]);
		} finally {
			sandbox.setRateLimit(null);
		}
	}, 150_000);
});

describe('the same 1,000 actions as 4 executions at once in one process, automatic concurrency, every kind of fault and a token bucket', () => {
	test('every item succeeds; exactly 1,000 records with their events, 0 duplicates, 0 missing', async () => {
		startOnNearlyEmptyBucket();
		const linesBefore = capture.lines.length;
		try {
			const intakes = dealIntake(4);
			const runs = await Promise.all(
				intakes.map(async (intake) => ({
					intake,
					run: await runWorkflow(mixedWorkflow('automatic', intake), {
						credentials: { baseUrl: sandbox.baseUrl, apiToken: TOKENS.fullAccess },
					}),
				})),
			);
			await slowResponsesDelivered();
			const state = sandbox.state();
			const requests = sandbox.requests();

			expectExactlyOnce(runs, state, requests);
			const perFault = expectFaultsMet(requests);
			// At least the first requests' 429s (see startOnNearlyEmptyBucket).
			expect(state.counters.rateLimited).toBeGreaterThanOrEqual(FIRST_TOGETHER - TOKENS_LEFT);
			// The executions shared one controller: created once, settled once per node run.
			const lines = capture.lines.slice(linesBefore);
			expect(
				lines.filter((line) => line.includes('Inventory: rate controller created')),
			).toHaveLength(1);
			expect(
				lines.filter((line) => line.includes('Inventory: automatic concurrency settled')),
			).toHaveLength(3 * intakes.length);
			console.log(
				`4 executions at once: ${requests.length} requests for ${ACTIONS} actions; per kind: ${JSON.stringify(perFault)}; 429 of the token bucket: ${state.counters.rateLimited}`,
			);
			expectNoToken(runs.map(({ run }) => run));
		} finally {
			sandbox.setRateLimit(null);
		}
	}, 150_000);
});

describe('a batch that fails mid-way, then n8n\'s "Retry execution"', () => {
	const items = Array.from({ length: 40 }, (_, i) => ({
		assetId: 1001 + (i % 20),
		task: `batch-${i}`,
	}));
	const parameters = (concurrency: number, maxRetries: number) =>
		createTodoParameters({
			assetId: '={{ $json.assetId }}',
			name: '={{ $json.task }}',
			options: { concurrency, maxRetries, retryDelay: 5, timeout: UNREACHED_TIMEOUT_MS },
		});

	function createdBy(requests: RecordedRequest[]): Set<string> {
		return new Set(requests.filter((r) => r.status === 201 && !r.replayed).map((r) => r.key ?? ''));
	}

	/** The faults are over; the user clicks "Retry execution" (n8n gives it a new execution id). */
	async function retryWithoutFaults(
		workflow: WorkflowDefinition,
		first: IRun,
		failedExecutionId: string,
		executionId: string,
	) {
		sandbox.setFaults(null);
		const seq = sandbox.requests().length;
		const retry = await retryExecution(workflow, first, {
			credentials: { baseUrl: sandbox.baseUrl, apiToken: TOKENS.fullAccess },
			failedExecutionId,
			executionId,
		});
		return { retry, retryRequests: sandbox.requests().slice(seq) };
	}

	test('an outage (503 past the retry budget) from item 20 on: the retry replays items 0-19 and creates 20-39, once each', async () => {
		const workflow = inventoryWorkflow(items, parameters(1, 2));
		// The outage starts after 20 actions were applied and lasts until the test ends it.
		let applied = 0;
		onLog = (entry) => {
			if (entry.status === 201 && !entry.replayed && ++applied === 20) {
				sandbox.setFaults({ serverErrorRate: 1, maxFaultsPerKey: 1000 });
			}
		};
		const first = await runWorkflow(workflow, {
			credentials: { baseUrl: sandbox.baseUrl, apiToken: TOKENS.fullAccess },
			executionId: 'exec-outage-1',
		});
		onLog = () => {};
		expect(first.status).toBe('error');
		expect(first.data.resultData.error?.message).toBe(
			'The Inventory API failed (503) after 2 retries [item 20]',
		);
		expect(first.data.resultData.lastNodeExecuted).toBe('Inventory');
		const firstRequests = sandbox.requests();
		const firstKeys = [...byKey(firstRequests).keys()];
		expect(firstKeys).toHaveLength(21);
		expect(firstRequests.map((r) => r.status)).toEqual([...Array(20).fill(201), 503, 503, 503]);
		expect(sandbox.state().todos.map((todo) => todo.name)).toEqual(
			items.slice(0, 20).map((item) => item.task),
		);

		const { retry, retryRequests } = await retryWithoutFaults(
			workflow,
			first,
			'exec-outage-1',
			'exec-outage-2',
		);
		expect(retry.data.resultData.error?.message).toBeUndefined();
		expect(retry.status).toBe('success');

		expect(retryRequests).toHaveLength(40);
		// Items 0-19 are sent with their original keys and replayed; 20-39 are created now.
		expect(retryRequests.map((r) => r.key).slice(0, 21)).toEqual(firstKeys);
		expect(retryRequests.map((r) => [r.status, r.replayed])).toEqual([
			...Array(20).fill([201, true]),
			...Array(20).fill([201, false]),
		]);
		const state = sandbox.state();
		expect(state.todos.map((todo) => todo.name)).toEqual(items.map((item) => item.task));
		expect(state.idempotencyKeys).toHaveLength(40);
		expect(state.counters.applied).toBe(40);

		const output = nodeOutput(retry, 'Inventory');
		expect(output.map((item) => (item.json.todo as IDataObject).name)).toEqual(
			items.map((item) => item.task),
		);
		expect(output.map((item) => item.pairedItem)).toEqual(items.map((_, item) => ({ item })));
		expectNoToken([first, retry]);
	});

	test('concurrency 10 with no retries and 30 % faults: whatever the first run created (even with its response lost) is replayed, the rest created, 0 duplicates', async () => {
		const workflow = inventoryWorkflow(items, parameters(10, 0));
		sandbox.setFaults({
			seed: 5,
			resetBeforeApplyRate: 0.1,
			serverErrorRate: 0.1,
			dropAfterApplyRate: 0.1,
			maxFaultsPerKey: 1000,
		});
		const first = await runWorkflow(workflow, {
			credentials: { baseUrl: sandbox.baseUrl, apiToken: TOKENS.fullAccess },
			executionId: 'exec-faulty-1',
		});
		expect(first.status).toBe('error');
		// The first failing item decides the message: a 503, or a connection reset / dropped response,
		// which never claims that nothing was created: the lost responses below did create records.
		// The rows that failed beside it (sent at the same time) are listed after it.
		const descriptionByMessage: Record<string, unknown> = {
			'The Inventory API failed (503) after 0 retries': expect.any(String),
			'No answer from the Inventory API after 0 retries: the connection was reset':
				expect.stringMatching(
					/ The request may have reached the API and been applied\. The same Idempotency-Key \([0-9a-f-]{36}\) replays it, so Retry On Fail or Retry execution is safe: it never creates a second record\.(\n\n\d+ other rows? of this run failed too: (The Inventory API failed \(503\) after 0 retries|No answer from the Inventory API after 0 retries: the connection was reset) \[item \d+\](; (The Inventory API failed \(503\) after 0 retries|No answer from the Inventory API after 0 retries: the connection was reset) \[item \d+\])*\.)?(\n\nBefore this failure, \d+ other rows? of this run went through \([^)]+\): items? [\d, ]+\. Retry execution replays (it|them) and sends the rest; running the workflow again \(or Execute step\) books (it|them) again\.)?$/,
				),
		};
		const firstError = first.data.resultData.error as { message: string; description?: string };
		// The message names the failing item: " [item N]" at its end.
		const [, shown, item] = /^(.+) \[item (\d+)\]$/.exec(firstError.message) ?? [];
		expect(Number(item)).toBeLessThan(items.length);
		expect(Object.keys(descriptionByMessage)).toContain(shown);
		expect(firstError.description).toEqual(descriptionByMessage[shown]);
		const firstRequests = sandbox.requests();
		const createdFirst = createdBy(firstRequests);
		const lostResponses = firstRequests
			.filter((r) => r.fault === 'dropAfterApply')
			.map((r) => r.key ?? '');
		expect(createdFirst.size).toBeGreaterThan(0);

		const { retry, retryRequests } = await retryWithoutFaults(
			workflow,
			first,
			'exec-faulty-1',
			'exec-faulty-2',
		);
		expect(retry.data.resultData.error?.message).toBeUndefined();
		expect(retryRequests).toHaveLength(40);
		expect(retryRequests.every((r) => r.status === 201)).toBe(true);
		// Replayed exactly the keys the first run created, lost responses included; created the others.
		expect(new Set(retryRequests.filter((r) => r.replayed).map((r) => r.key))).toEqual(
			createdFirst,
		);
		for (const key of lostResponses) expect(createdFirst.has(key)).toBe(true);
		expect(retryRequests.filter((r) => !r.replayed)).toHaveLength(40 - createdFirst.size);

		const state = sandbox.state();
		expect(state.todos.map((todo) => todo.name).sort()).toEqual(
			items.map((item) => item.task).sort(),
		);
		expect(state.counters.applied).toBe(40);
		const output: INodeExecutionData[] = nodeOutput(retry, 'Inventory');
		expect(output.map((item) => (item.json.todo as IDataObject).name)).toEqual(
			items.map((item) => item.task),
		);
		expectNoToken([first, retry]);
	});
});
