/**
 * The simulation matrix: automatic concurrency's throttle under jest's fake clock against models of
 * servers, each item sent as transport/index.ts sends it (its turn, half a round trip, the server's
 * answer, half a round trip; a 429 waits out its Retry-After and goes first, a 500 its back-off). Each
 * case asserts what the run comes to (every item taken once, none failed) and the order of effects;
 * how fast, in items/s and 429s against a real network, is the bench's (docs/performance.md).
 */
import { sleep } from 'n8n-workflow';

import type * as ThrottleModule from '../../nodes/Inventory/scheduling/throttle';
import { fromDist } from '../harness/engine';
import { timed } from './fake-clock';

const { AdaptiveThrottle } = fromDist(
	'./nodes/Inventory/scheduling/throttle.js',
) as typeof ThrottleModule;

type Throttle = InstanceType<typeof AdaptiveThrottle>;
type Lane = ReturnType<Throttle['openLane']>;

beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
afterEach(() => jest.useRealTimers());

/** What a server model answers a request that reaches it now: 200, 500, or 429 with its Retry-After. */
interface Answer {
	status: 200 | 429 | 500;
	retryAfterMs?: number;
}

interface ServerModel {
	/** A request reaches the server; `done` is called when the server is through with it. */
	take(): Answer;
	done?(): void;
}

/** A token bucket (burst = R) whose Retry-After is whole seconds, at least 1, as HTTP allows. */
class TokenBucket implements ServerModel {
	private tokens: number;
	private at = Date.now();

	constructor(public ratePerSecond: number) {
		this.tokens = ratePerSecond;
	}

	take(): Answer {
		const now = Date.now();
		this.tokens = Math.min(
			this.ratePerSecond,
			this.tokens + ((now - this.at) / 1000) * this.ratePerSecond,
		);
		this.at = now;
		if (this.tokens >= 1) {
			this.tokens -= 1;
			return { status: 200 };
		}
		const seconds = Math.max(1, Math.ceil((1 - this.tokens) / this.ratePerSecond));
		return { status: 429, retryAfterMs: seconds * 1000 };
	}
}

/** `perMinute` requests in each fixed minute; over it, 429 with a Retry-After to the minute's end. */
class MinuteWindow implements ServerModel {
	private readonly start = Date.now();
	private count = 0;
	private window = 0;

	constructor(private readonly perMinute: number) {}

	windowEnd(): number {
		return this.start + (this.window + 1) * 60_000;
	}

	take(): Answer {
		const window = Math.floor((Date.now() - this.start) / 60_000);
		if (window !== this.window) [this.window, this.count] = [window, 0];
		if (++this.count <= this.perMinute) return { status: 200 };
		return { status: 429, retryAfterMs: Math.ceil((this.windowEnd() - Date.now()) / 1000) * 1000 };
	}
}

/** Allows `limit` requests at once; one more is answered 429, Retry-After 1. */
class InFlightLimit implements ServerModel {
	private held = 0;
	peak = 0;

	constructor(private readonly limit: number) {}

	take(): Answer {
		if (this.held >= this.limit) return { status: 429, retryAfterMs: 1000 };
		this.held++;
		this.peak = Math.max(this.peak, this.held);
		return { status: 200 };
	}

	done(): void {
		this.held--;
	}
}

/** No limit; `errorShare` of the requests answered 500, by a fixed sequence. */
class NoLimit implements ServerModel {
	private n = 0;

	constructor(private readonly errorEvery = 0) {}

	take(): Answer {
		this.n++;
		return this.errorEvery > 0 && this.n % this.errorEvery === 0
			? { status: 500 }
			: { status: 200 };
	}
}

interface Effect {
	at: number;
	item: string;
	what: 'sent' | 200 | 429 | 500;
	retryAfterMs?: number;
}

interface Run {
	effects: Effect[];
	failed: string[];
	/** Items the server took (answered 200), in order. */
	taken: string[];
}

const MAX_RETRIES = 5;

const count = (run: Run, what: Effect['what']) =>
	run.effects.filter((effect) => effect.what === what).length;

/** Sends one item as the node does; `serviceMs`: how long the server works on a request it takes. */
async function sendItem(
	lane: Lane,
	server: ServerModel,
	item: string,
	run: Run,
	{ rttMs, serviceMs = 0 }: { rttMs: number; serviceMs?: number },
): Promise<void> {
	let backFromRateLimit = false;
	for (let retries = 0; retries <= MAX_RETRIES; retries++) {
		const sendNumber = await lane.acquire(undefined, backFromRateLimit);
		run.effects.push({ at: Date.now(), item, what: 'sent' });
		await sleep(rttMs / 2);
		const answer = server.take();
		if (answer.status === 200) {
			run.taken.push(item);
			await sleep(serviceMs);
			server.done?.();
		}
		await sleep(rttMs / 2);
		run.effects.push({ at: Date.now(), item, what: answer.status, ...answer });
		lane.release(
			sendNumber,
			answer.status === 429 ? 'throttled' : answer.status === 500 ? 'failed' : 'answered',
		);
		if (answer.status === 200) return;
		const waitMs = answer.retryAfterMs ?? 1000 * 2 ** retries;
		if (answer.status === 429) lane.pauseUntil(Date.now() + waitMs);
		await sleep(waitMs);
		backFromRateLimit = answer.status === 429;
	}
	run.failed.push(item);
}

const names = (prefix: string, count: number) =>
	Array.from({ length: count }, (_, i) => `${prefix}${i}`);

type Network = { rttMs: number; serviceMs?: number };

/** Starts runs of the given items at once, each through a lane of its own (Max Concurrency 50). */
function start(throttle: Throttle, server: ServerModel, runs: string[][], network: Network) {
	const run: Run = { effects: [], failed: [], taken: [] };
	const done = Promise.all(
		runs.map(async (items) => {
			const lane = throttle.openLane(50);
			await Promise.all(items.map((item) => sendItem(lane, server, item, run, network)));
			lane.close();
		}),
	);
	return { run, done };
}

/** The runs of `start`, to their end; with the seconds they took. */
async function simulate(
	throttle: Throttle,
	server: ServerModel,
	runs: string[][],
	network: Network,
): Promise<Run & { seconds: number }> {
	const { run, done } = start(throttle, server, runs, network);
	const seconds = await timed(done, 50);
	return { ...run, seconds };
}

/** Every item taken exactly once, none failed. */
function expectEachOnce(run: Run, items: string[]): void {
	expect(run.failed).toEqual([]);
	expect([...run.taken].sort()).toEqual([...items].sort());
}

describe('token bucket whose Retry-After is whole seconds', () => {
	test('900 items against 150/s: a 1 s Retry-After holds the others back one turn; the item it answered goes first once it waited, and meets no second 429', async () => {
		const throttle = new AdaptiveThrottle();
		const items = names('item', 900);
		const run = await simulate(throttle, new TokenBucket(150), [items], { rttMs: 60 });

		expectEachOnce(run, items);
		const throttled = run.effects.filter((effect) => effect.what === 429);
		expect(throttled.length).toBeGreaterThan(0);
		for (const { item } of throttled)
			expect(throttled.filter((effect) => effect.item === item)).toHaveLength(1);
		// While a throttled item waits out its second, the others go on.
		const last = throttled[throttled.length - 1];
		expect(
			run.effects.some((e) => e.what === 'sent' && e.at > last.at && e.at < last.at + 1000),
		).toBe(true);
		expect(run.seconds).toBeLessThanOrEqual(1.3 * (900 / 150));
	});

	test('after a run against no limit, the same controller meets the bucket: the slow start begins again, each item once', async () => {
		const throttle = new AdaptiveThrottle();
		const first = names('first', 900);
		await simulate(throttle, new NoLimit(), [first], { rttMs: 60 });
		expect(throttle.state().ratePerSecond).toBeUndefined();
		await jest.advanceTimersByTimeAsync(2000);

		const items = names('item', 900);
		const run = await simulate(throttle, new TokenBucket(150), [items], { rttMs: 60 });
		expectEachOnce(run, items);
		expect(throttle.state().cuts).toBeGreaterThan(0);
		expect(run.seconds).toBeLessThanOrEqual(1.3 * (900 / 150));
	});
});

describe('a fixed window per minute with a long Retry-After', () => {
	test('the server means its Retry-After: nothing is sent until the window ends but what was in flight', async () => {
		const throttle = new AdaptiveThrottle();
		const server = new MinuteWindow(100);
		const items = names('item', 250);
		const run = await simulate(throttle, server, [items], { rttMs: 20 });

		expectEachOnce(run, items);
		for (const refusal of run.effects.filter((effect) => effect.what === 429)) {
			const resumesAt = refusal.at + (refusal.retryAfterMs as number);
			// Sent after the refusal came back and before its Retry-After ended: none.
			const sentMeanwhile = run.effects.filter(
				(e) => e.what === 'sent' && e.at > refusal.at && e.at < resumesAt - 20,
			);
			expect(sentMeanwhile).toEqual([]);
		}
		// Three windows: 100, 100, 50.
		expect(run.seconds).toBeGreaterThanOrEqual(120);
		expect(run.seconds).toBeLessThan(125);
	});
});

describe('a server that allows N requests in flight', () => {
	test('8 at once, each 100 ms of work: every item once, and the requests it refuses stay few', async () => {
		const throttle = new AdaptiveThrottle();
		const server = new InFlightLimit(8);
		const items = names('item', 400);
		const run = await simulate(throttle, server, [items], { rttMs: 20, serviceMs: 100 });

		expectEachOnce(run, items);
		expect(server.peak).toBe(8);
		expect(count(run, 429)).toBeLessThan(0.1 * items.length);
	});
});

describe('no limit', () => {
	test.each([0, 20, 50, 100])(
		'at a %i ms round trip: never paced, never a cut, up to Max Concurrency in flight',
		async (rttMs) => {
			const throttle = new AdaptiveThrottle();
			const items = names('item', 600);
			const run = await simulate(throttle, new NoLimit(), [items], { rttMs, serviceMs: 2 });

			expectEachOnce(run, items);
			expect(count(run, 429)).toBe(0);
			expect(throttle.state()).toEqual(
				expect.objectContaining({ ratePerSecond: undefined, cuts: 0, peakInFlight: 50 }),
			);
		},
	);

	test('with random 500s (one in 20): each retried with its back-off, the rate untouched', async () => {
		const throttle = new AdaptiveThrottle();
		const items = names('item', 1000);
		const run = await simulate(throttle, new NoLimit(20), [items], { rttMs: 60 });

		expectEachOnce(run, items);
		expect(count(run, 500)).toBeGreaterThanOrEqual(50);
		expect(throttle.state()).toEqual(
			expect.objectContaining({ ratePerSecond: undefined, cuts: 0, peakInFlight: 50 }),
		);
	});
});

describe('a limit that halves, then doubles, mid-run', () => {
	test('100/s, 50/s from 10 s, 100/s from 25 s: every item once; cut after the halving, rising again after the doubling', async () => {
		const rates: Array<{ at: number; rate: number }> = [];
		const throttle = new AdaptiveThrottle(undefined, (state) =>
			rates.push({ at: Date.now(), rate: state.ratePerSecond as number }),
		);
		const bucket = new TokenBucket(100);
		const startedAt = Date.now();
		const items = names('item', 3500);
		const { run, done } = start(throttle, bucket, [items], { rttMs: 60 });
		let finished = false;
		void done.then(() => (finished = true));
		for (let second = 1; !finished; second++) {
			await jest.advanceTimersByTimeAsync(1000);
			if (second === 10) bucket.ratePerSecond = 50;
			if (second === 25) bucket.ratePerSecond = 100;
		}

		expectEachOnce(run, items);
		const takenIn = (from: number, to: number) =>
			run.effects.filter(
				(e) => e.what === 200 && e.at >= startedAt + from * 1000 && e.at < startedAt + to * 1000,
			).length;
		// Halved: cut within a second or two of the change; then no more is taken than the server allows (its refill and one burst).
		const firstCutAfter = rates.find((cut) => cut.at >= startedAt + 10_000);
		expect((firstCutAfter?.at as number) - startedAt).toBeLessThan(12_000);
		expect(takenIn(15, 25)).toBeLessThanOrEqual(10 * 50 + 50);
		// Doubled: the rate grows past the halved limit, and more is taken than it allowed.
		const endSecond = Math.floor((Date.now() - startedAt) / 1000);
		const fiveSecondRates = Array.from(
			{ length: endSecond - 30 },
			(_, i) => takenIn(25 + i, 30 + i) / 5,
		);
		expect(Math.max(...fiveSecondRates)).toBeGreaterThan(60);
	});
});

describe('several executions at once', () => {
	test('4 runs of 150 items and 20 one-item runs against 100/s: every item once, the one-item runs done within a second', async () => {
		const throttle = new AdaptiveThrottle();
		const bucket = new TokenBucket(100);
		const runs = [
			...[0, 1, 2, 3].map((r) => names(`run${r}-`, 150)),
			...names('single', 20).map((item) => [item]),
		];
		const run = await simulate(throttle, bucket, runs, { rttMs: 60 });

		expectEachOnce(run, runs.flat());
		// Turns in rotation: each one-item run's first attempt among the first turns.
		const firstSent = run.effects.filter((e) => e.what === 'sent').map((e) => e.item);
		for (const [single] of runs.slice(4)) expect(firstSent.indexOf(single)).toBeLessThan(100);
		// The four imports end together: fair turns, not one after another.
		const ends = [0, 1, 2, 3].map((r) =>
			Math.max(
				...run.effects
					.filter((e) => e.what === 200 && e.item.startsWith(`run${r}-`))
					.map((e) => e.at),
			),
		);
		expect(Math.max(...ends) - Math.min(...ends)).toBeLessThan(1000);
	});

	test('two processes (a throttle each) sharing 60/s: every item once, each learns its part', async () => {
		const bucket = new TokenBucket(60);
		const throttles = [new AdaptiveThrottle(), new AdaptiveThrottle()];
		const items = throttles.map((_, p) => names(`p${p}-`, 300));
		const started = throttles.map((throttle, p) =>
			start(throttle, bucket, [items[p]], { rttMs: 60 }),
		);
		await timed(Promise.all(started.map(async ({ done }) => await done)), 50);
		started.forEach(({ run }, p) => expectEachOnce(run, items[p]));
		for (const throttle of throttles) expect(throttle.state().cuts).toBeGreaterThan(0);
	});
});
