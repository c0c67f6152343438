/**
 * The per-process controller of a server and credential, as a unit under jest's fake clock: turns in
 * rotation across runs, the pause shared by every run, what a later run inherits, the cuts it logs,
 * and when the registry forgets a controller.
 */
import type { Logger } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type * as ControllerModule from '../../nodes/Inventory/scheduling/controller';
import type * as ThrottleModule from '../../nodes/Inventory/scheduling/throttle';
import { fromDist } from '../harness/engine';
import { timed } from './fake-clock';

const { AdaptiveThrottle, FixedThrottle, ServerPause } = fromDist(
	'./nodes/Inventory/scheduling/throttle.js',
) as typeof ThrottleModule;
const { CONTROLLER_IDLE_MS, ServerControllers } = fromDist(
	'./nodes/Inventory/scheduling/controller.js',
) as typeof ControllerModule;

type Throttle = InstanceType<typeof AdaptiveThrottle>;
type Lane = ReturnType<Throttle['openLane']>;

interface LogLine {
	message: string;
	meta: Record<string, unknown>;
}

function captureLogger(): { logger: Logger; lines: LogLine[] } {
	const lines: LogLine[] = [];
	const log = (message: string, meta: Record<string, unknown> = {}) =>
		lines.push({ message, meta });
	return { logger: { debug: log, info: log, warn: log, error: log } as Logger, lines };
}

const TOKEN = 'inv_demo_full_access';

beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
afterEach(() => jest.useRealTimers());

/** Sends `count` attempts through the lane; each is answered as soon as it is sent. Records the sending order. */
function sendAll(lane: Lane, name: string, count: number, order: string[]): Promise<void[]> {
	return Promise.all(
		Array.from({ length: count }, async () => {
			const sendNumber = await lane.acquire();
			order.push(name);
			lane.release(sendNumber, 'answered');
		}),
	);
}

/** `answered` attempts, then one 429: the throttle measures what the server took and cuts to 0.7 of it. */
async function learnRate(lane: Lane, answered: number): Promise<void> {
	await sendAll(lane, 'learning', answered, []);
	const sendNumber = await lane.acquire();
	lane.release(sendNumber, 'throttled');
}

describe('AdaptiveThrottle shared by several runs', () => {
	test('runs with attempts waiting get turns in rotation: two runs that arrive behind a large one wait one turn each, not behind its queue', async () => {
		const throttle = new AdaptiveThrottle();
		const importing = throttle.openLane(50);
		const first = throttle.openLane(50);
		const second = throttle.openLane(50);
		// Everything queues behind a pause, then goes in the order the turns are given.
		importing.pauseUntil(Date.now() + 1000);
		const order: string[] = [];
		const sending = Promise.all([
			sendAll(importing, 'import', 30, order),
			sendAll(first, 'first', 2, order),
			sendAll(second, 'second', 2, order),
		]);
		await jest.advanceTimersByTimeAsync(1000);
		await sending;

		expect(order).toEqual([
			'import',
			'first',
			'second',
			'import',
			'first',
			'second',
			...Array<string>(28).fill('import'),
		]);
	});

	test("each run's Max Concurrency bounds its own attempts in flight; the others' turns go on", async () => {
		const throttle = new AdaptiveThrottle();
		const bounded = throttle.openLane(2);
		const other = throttle.openLane(50);
		const sent: string[] = [];
		const take = (lane: Lane, name: string) =>
			lane.acquire().then((sendNumber) => {
				sent.push(name);
				return sendNumber;
			});
		const boundedAttempts = [take(bounded, 'bounded'), take(bounded, 'bounded')];
		const third = take(bounded, 'bounded');
		const others = [take(other, 'other'), take(other, 'other')];
		await jest.advanceTimersByTimeAsync(0);

		expect(sent).toEqual(['bounded', 'bounded', 'other', 'other']);
		bounded.release(await boundedAttempts[0], 'answered');
		await jest.advanceTimersByTimeAsync(0);
		expect(sent).toEqual(['bounded', 'bounded', 'other', 'other', 'bounded']);
		for (const attempt of [boundedAttempts[1], third]) bounded.release(await attempt, 'answered');
		for (const attempt of others) other.release(await attempt, 'answered');
		expect(throttle.idle).toBe(false);
		bounded.close();
		other.close();
		expect(throttle.idle).toBe(true);
	});

	test("an attempt whose record another run waits for goes before its own run's older attempts, not behind its queue", async () => {
		const throttle = new AdaptiveThrottle();
		const importing = throttle.openLane(50);
		importing.pauseUntil(Date.now() + 1000);
		const order: number[] = [];
		let awaitedItem = -1;
		const attempts = Array.from({ length: 6 }, async (_, item) => {
			const sendNumber = await importing.acquire(undefined, false, () => item === awaitedItem);
			order.push(item);
			importing.release(sendNumber, 'answered');
		});
		// Another run asks for item 4's record while the import's attempts wait out the pause.
		await jest.advanceTimersByTimeAsync(500);
		awaitedItem = 4;
		await jest.advanceTimersByTimeAsync(500);
		await Promise.all(attempts);

		expect(order).toEqual([4, 0, 1, 2, 3, 5]);
	});

	test('a 429 cuts the rate once for the attempts sent before it, and the cut is reported', async () => {
		const cuts: Array<{ ratePerSecond: number | undefined; cuts: number }> = [];
		const throttle = new AdaptiveThrottle(new ServerPause(), (state) => cuts.push(state));
		const lane = throttle.openLane(50);
		await sendAll(lane, 'x', 20, []);
		const [a, b] = await Promise.all([lane.acquire(), lane.acquire()]);
		lane.release(a, 'throttled');
		lane.release(b, 'throttled');

		// 20 taken within the last second: CUBIC's peak 20/s, the rate 0.7 of it; the second 429 was sent before the cut.
		expect(cuts).toEqual([expect.objectContaining({ ratePerSecond: 14, cuts: 1 })]);
		expect(throttle.state()).toEqual(expect.objectContaining({ cuts: 1, throttled: 2 }));
	});

	test('a later run starts at the rate the last one found (the curve stood still while idle) and keeps probing upward', async () => {
		const throttle = new AdaptiveThrottle();
		const earlier = throttle.openLane(50);
		await learnRate(earlier, 20);
		expect(throttle.state().ratePerSecond).toBe(14);
		earlier.close();

		await jest.advanceTimersByTimeAsync(10 * 60 * 1000);
		const later = throttle.openLane(50);
		await sendAll(later, 'later', 1, []);
		// Had the ten idle minutes counted, the curve would be far above the peak of 20/s; resumed, each
		// answer adds one request a second until the first 429 (up to 1.75 times the lower of the rate
		// resumed and the peak).
		expect(throttle.state().ratePerSecond).toBeCloseTo(15, 6);

		// Paced at about 14/s, 300 answers take some 20 s: past CUBIC's K, beyond the old peak.
		const sending = sendAll(later, 'later', 300, []);
		await jest.advanceTimersByTimeAsync(60_000);
		await sending;
		expect(throttle.state().ratePerSecond as number).toBeGreaterThan(20);
		expect(throttle.state().cuts).toBe(1);
	});

	test('a later run probes up to 1.75 times the peak the server was measured at, not a probe above it that no 429 judged', async () => {
		const throttle = new AdaptiveThrottle();
		const earlier = throttle.openLane(50);
		await learnRate(earlier, 20);
		// Kept busy past CUBIC's K (about 2.5 s for a peak of 20/s), the curve has gone beyond the peak.
		const busy = sendAll(earlier, 'earlier', 100, []);
		await jest.advanceTimersByTimeAsync(10_000);
		await busy;
		const probe = throttle.state().ratePerSecond as number;
		expect(probe).toBeGreaterThan(22);
		earlier.close();

		await jest.advanceTimersByTimeAsync(10 * 60 * 1000);
		const later = throttle.openLane(50);
		const probing = sendAll(later, 'later', 20, []);
		await jest.advanceTimersByTimeAsync(10_000);
		await probing;
		// Each answer added one request a second, up to 1.75 x 20/s, not 1.75 x the probe's rate.
		expect(throttle.state().ratePerSecond).toBeCloseTo(1.75 * 20, 6);
		expect(throttle.state().cuts).toBe(1);
	});
});

describe("a 429's pause holds back every run to the server", () => {
	test('automatic and fixed runs alike, whichever of them met the 429', async () => {
		const pause = new ServerPause();
		const throttle = new AdaptiveThrottle(pause);
		const automatic = throttle.openLane(50);
		const fixed = new FixedThrottle(pause);
		fixed.pauseUntil(Date.now() + 5000);

		const sent: string[] = [];
		const attempts = [
			automatic.acquire().then(() => sent.push('automatic')),
			fixed.acquire().then(() => sent.push('fixed')),
		];
		await jest.advanceTimersByTimeAsync(4990);
		expect(sent).toEqual([]);
		await jest.advanceTimersByTimeAsync(20);
		await Promise.all(attempts);
		expect(sent.sort()).toEqual(['automatic', 'fixed']);
	});
});

/**
 * A token bucket under the fake clock, as the sandbox's: `ratePerSecond` tokens a second up to
 * `burst`; a request without a token is answered 429 with Retry-After in whole seconds (at least 1).
 */
class TokenBucket {
	private tokens: number;
	private at = Date.now();

	constructor(
		public ratePerSecond: number,
		private readonly burst: number,
	) {
		this.tokens = burst;
	}

	/** undefined when the request had a token, else the Retry-After in milliseconds. */
	take(): number | undefined {
		const now = Date.now();
		this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) / 1000) * this.ratePerSecond);
		this.at = now;
		if (this.tokens >= 1) {
			this.tokens -= 1;
			return undefined;
		}
		return Math.max(1, Math.ceil((1 - this.tokens) / this.ratePerSecond)) * 1000;
	}
}

interface Traffic {
	sent: number;
	throttled: number;
}

/**
 * One item sent as the node sends it (transport/index.ts): its turn, half a round trip to the server,
 * the answer half a round trip later; after a 429 the server's pause, and the item itself waits at
 * least the Retry-After, then asks for the first turn. Resolves to the 429s it met.
 */
async function sendItem(lane: Lane, bucket: TokenBucket, traffic: Traffic, rttMs = 20) {
	for (let throttled = 0; ; throttled++) {
		const sendNumber = await lane.acquire(undefined, throttled > 0);
		traffic.sent++;
		await sleep(rttMs / 2);
		const retryAfterMs = bucket.take();
		await sleep(rttMs / 2);
		if (retryAfterMs === undefined) {
			lane.release(sendNumber, 'answered');
			return throttled;
		}
		traffic.throttled++;
		lane.release(sendNumber, 'throttled');
		lane.pauseUntil(Date.now() + retryAfterMs);
		await sleep(retryAfterMs);
	}
}

/** `count` runs of one item each, all at once, each through a lane of its own; the 429s each item met. */
async function oneItemRuns(
	throttle: Throttle,
	bucket: TokenBucket,
	traffic: Traffic,
	count: number,
): Promise<number[]> {
	const runs = Promise.all(
		Array.from({ length: count }, async () => {
			const lane = throttle.openLane(50);
			const throttled = await sendItem(lane, bucket, traffic);
			lane.close();
			return throttled;
		}),
	);
	await timed(runs, 100);
	return await runs;
}

describe('against a token bucket, under the fake clock', () => {
	test('120 one-item runs at once (40/s, burst 10): the slow start and the shared cut keep the 429s to a fraction of them', async () => {
		const throttle = new AdaptiveThrottle();
		const bucket = new TokenBucket(40, 10);
		const traffic: Traffic = { sent: 0, throttled: 0 };
		await oneItemRuns(throttle, bucket, traffic, 120);

		expect(traffic.sent).toBe(120 + traffic.throttled);
		// Each run learning the limit alone, 110 would meet a 429 at once, and more after the pause.
		expect(traffic.throttled).toBeLessThan(0.25 * 120);
		expect(throttle.idle).toBe(true);
	});

	test('300 one-item runs at once against 5/s (burst 5), as a burst of webhook calls: an item back from its Retry-After goes first and meets no second 429 (without that, one met three)', async () => {
		const throttle = new AdaptiveThrottle();
		const bucket = new TokenBucket(5, 5);
		const traffic: Traffic = { sent: 0, throttled: 0 };
		const throttledPerItem = await oneItemRuns(throttle, bucket, traffic, 300);

		expect(Math.max(...throttledPerItem)).toBeLessThanOrEqual(1);
		expect(traffic.sent).toBe(300 + traffic.throttled);
	});

	test('one-item runs arriving during a paced import wait at most one of its turns each, not for its queue', async () => {
		const throttle = new AdaptiveThrottle();
		const bucket = new TokenBucket(50, 5);
		const traffic: Traffic = { sent: 0, throttled: 0 };
		const importing = throttle.openLane(50);
		const order: string[] = [];
		const importDone = Promise.all(
			Array.from({ length: 250 }, async () => {
				await sendItem(importing, bucket, traffic);
				order.push('import');
			}),
		);
		await jest.advanceTimersByTimeAsync(3000);
		expect(throttle.state().cuts).toBeGreaterThan(0);
		const arrivedAt = order.length;
		const arrivals = Array.from({ length: 5 }, async (_, i) => {
			const lane = throttle.openLane(50);
			await sendItem(lane, bucket, traffic);
			order.push(`arrival ${i}`);
			lane.close();
		});
		await timed(Promise.all([importDone, ...arrivals]), 100);
		importing.close();

		// Between their arrival and the last of them, one import turn per arrival at most (behind its
		// queue, each would wait for the import's 200-odd attempts waiting).
		const lastArrival = order.indexOf('arrival 4');
		const importTurnsBetween = order
			.slice(arrivedAt, lastArrival)
			.filter((name) => name === 'import').length;
		expect(importTurnsBetween).toBeLessThanOrEqual(5);
	});

	/** One run of `items` through a lane of its own (Max Concurrency 50), as the bench's TLS 20 ms rows (a request: 60 ms). */
	async function run(throttle: Throttle, bucket: TokenBucket, items: number) {
		const traffic: Traffic = { sent: 0, throttled: 0 };
		const lane = throttle.openLane(50);
		const seconds = await timed(
			Promise.all(Array.from({ length: items }, () => sendItem(lane, bucket, traffic, 60))),
			100,
		);
		lane.close();
		return { seconds, idealSeconds: items / bucket.ratePerSecond, ...traffic };
	}

	test('a long import against 100/s (burst 100): after the first cut, every cut finds the rate the server refills, and none holds everyone back for the whole second', async () => {
		const rates: number[] = [];
		const wholePauses: number[] = [];
		const pause = new ServerPause((waitMs) => {
			if (waitMs >= 1000) wholePauses.push(waitMs);
		});
		const throttle = new AdaptiveThrottle(pause, (state) => rates.push(state.ratePerSecond ?? 0));
		const figures = await run(throttle, new TokenBucket(100, 100), 2000);

		// The first cut measured the bucket's burst with its refill; the second corrected it. Each later
		// cut measured what the server took since the one before, its 100/s, and cut to 0.7 of it.
		expect(rates.length).toBeGreaterThan(2);
		for (const rate of rates.slice(2)) expect(Math.round(rate)).toBe(70);
		expect(wholePauses).toEqual([]);
		expect(figures.seconds).toBeLessThanOrEqual(1.15 * figures.idealSeconds);
	});

	test('a rate found against another load is overturned by a higher limit within about a second', async () => {
		const throttle = new AdaptiveThrottle();
		const bucket = new TokenBucket(100, 100);
		const earlier = await run(throttle, bucket, 900);
		await jest.advanceTimersByTimeAsync(2000);
		bucket.ratePerSecond = 150;
		const later = await run(throttle, bucket, 900);
		expect(earlier.seconds).toBeLessThanOrEqual(1.3 * earlier.idealSeconds);
		expect(later.seconds).toBeLessThanOrEqual(1.3 * later.idealSeconds);
	});

	test('the second of two runs back to back against the same limit meets few 429s: its quick probe overshoots briefly', async () => {
		const throttle = new AdaptiveThrottle();
		const bucket = new TokenBucket(150, 150);
		const first = await run(throttle, bucket, 1000);
		await jest.advanceTimersByTimeAsync(2000);
		const second = await run(throttle, bucket, 1000);
		expect(first.seconds).toBeLessThanOrEqual(1.3 * first.idealSeconds);
		expect(second.throttled).toBeLessThanOrEqual(0.01 * second.sent);
	});

	test('before the first 429, more in flight by half a request an answer while answers come as fast as ever, by a quarter once they keep waiting in a queue', async () => {
		/** The most in flight after the 30th answer, and at the end. */
		async function peakInFlight(answer: () => Promise<void>): Promise<number[]> {
			const throttle = new AdaptiveThrottle();
			const lane = throttle.openLane(50);
			const peaks: number[] = [];
			let answers = 0;
			const items = Array.from({ length: 300 }, async () => {
				const sendNumber = await lane.acquire();
				await answer();
				lane.release(sendNumber, 'answered');
				if (++answers === 30) peaks.push(throttle.state().peakInFlight);
			});
			await timed(Promise.all(items), 100);
			return [...peaks, throttle.state().peakInFlight];
		}
		// 40 ms each, however many at once: the server has room; 10 + 30 x 0.5, then Max Concurrency.
		expect(await peakInFlight(async () => await sleep(40))).toEqual([25, 50]);
		// One at a time, 5 ms each (a busy process or a server's queue): the first two answers (5 and
		// 10 ms) add half a request each, the later ones waited in the queue (more than 1.2 x 5 ms + 5 ms)
		// and add a quarter from the eighth in a row: 10 + 1 + 21 x 0.25 after the 30th, Max Concurrency
		// later all the same.
		let freeAt = 0;
		const oneAtATime = async () => {
			freeAt = Math.max(Date.now(), freeAt) + 5;
			await sleep(freeAt - Date.now());
		};
		expect(await peakInFlight(oneAtATime)).toEqual([16, 50]);
	});

	test('before the first 429, a run after a second without traffic begins the slow start again (the allowance refilled); after a shorter break it goes on where it stood', async () => {
		async function inFlightAtStartAfter(idleMs: number): Promise<number> {
			const throttle = new AdaptiveThrottle();
			const lane = throttle.openLane(50);
			let started = 0;
			const send = async () => {
				const sendNumber = await lane.acquire();
				started++;
				await sleep(40);
				lane.release(sendNumber, 'answered');
			};
			await timed(Promise.all(Array.from({ length: 300 }, send)), 100);
			expect(throttle.state().peakInFlight).toBe(50);
			await jest.advanceTimersByTimeAsync(idleMs);
			started = 0;
			const next = Promise.all(Array.from({ length: 100 }, send));
			await jest.advanceTimersByTimeAsync(0);
			const atStart = started;
			await timed(next, 100);
			return atStart;
		}
		expect(await inFlightAtStartAfter(2000)).toBe(10);
		expect(await inFlightAtStartAfter(500)).toBe(50);
	});

	test("a run's Max Concurrency is what it has in flight once the server is slower than its turns", async () => {
		const throttle = new AdaptiveThrottle();
		const lane = throttle.openLane(4);
		const bucket = new TokenBucket(1000, 1000);
		const traffic: Traffic = { sent: 0, throttled: 0 };
		await timed(
			Promise.all(Array.from({ length: 24 }, () => sendItem(lane, bucket, traffic, 40))),
			100,
		);

		expect(throttle.state().peakInFlight).toBe(4);
		expect(traffic).toEqual({ sent: 24, throttled: 0 });
	});
});

describe('a stopped execution leaves every wait of the throttle at once', () => {
	const stoppedError = { name: 'ExecutionStopped', message: 'The execution was stopped' };

	test("an attempt waiting out the server's pause: automatic and fixed alike; the other runs' attempts still go when it ends", async () => {
		const pause = new ServerPause();
		const throttle = new AdaptiveThrottle(pause);
		const stopping = throttle.openLane(50);
		const other = throttle.openLane(50);
		const fixed = new FixedThrottle(pause);
		pause.extend(Date.now() + 60_000);
		const stop = new AbortController();
		const outcomes: string[] = [];
		const attempts = [
			stopping.acquire(stop.signal).then(
				() => outcomes.push('automatic sent'),
				(error: Error) => outcomes.push(`automatic ${error.name}`),
			),
			fixed.acquire(stop.signal).then(
				() => outcomes.push('fixed sent'),
				(error: Error) => outcomes.push(`fixed ${error.name}`),
			),
			other.acquire().then((sendNumber) => {
				outcomes.push('other sent');
				other.release(sendNumber, 'answered');
			}),
		];
		await jest.advanceTimersByTimeAsync(1000);
		stop.abort();
		await jest.advanceTimersByTimeAsync(0);
		expect(outcomes.sort()).toEqual(['automatic ExecutionStopped', 'fixed ExecutionStopped']);

		await jest.advanceTimersByTimeAsync(59_000);
		await Promise.all(attempts);
		expect(outcomes).toContain('other sent');
		stopping.close();
		other.close();
		expect(throttle.idle).toBe(true);
	});

	test('attempts paced for their turn leave the queue; the turns go to the next run, and the stopped run sends nothing more', async () => {
		const throttle = new AdaptiveThrottle();
		const learning = throttle.openLane(50);
		await learnRate(learning, 20);
		learning.close();
		// Paced at 14/s: 14 attempts of each run queue for about a second.
		const stopping = throttle.openLane(50);
		const other = throttle.openLane(50);
		const stop = new AbortController();
		const sent: string[] = [];
		const rejected: unknown[] = [];
		const send = (lane: Lane, name: string, signal?: AbortSignal) =>
			lane.acquire(signal).then(
				(sendNumber) => {
					sent.push(name);
					lane.release(sendNumber, 'answered');
				},
				(error: unknown) => rejected.push(error),
			);
		const attempts = Array.from({ length: 14 }, () => [
			send(stopping, 'stopping', stop.signal),
			send(other, 'other'),
		]).flat();
		await jest.advanceTimersByTimeAsync(150);
		const sentBeforeStop = sent.length;
		expect(sent.slice(0, 2)).toEqual(['stopping', 'other']);
		stop.abort();
		await jest.advanceTimersByTimeAsync(0);
		expect(rejected).toHaveLength(14 - sent.filter((name) => name === 'stopping').length);
		for (const error of rejected) expect(error).toMatchObject(stoppedError);

		await jest.advanceTimersByTimeAsync(2000);
		await Promise.all(attempts);
		expect(sent.slice(sentBeforeStop)).toEqual(
			Array<string>(sent.length - sentBeforeStop).fill('other'),
		);
		expect(sent.filter((name) => name === 'other')).toHaveLength(14);
		stopping.close();
		other.close();
		expect(throttle.idle).toBe(true);
	});

	test('a run stopped before it asks gets no turn; a turn given back unused teaches the rate nothing and frees its slot', async () => {
		const throttle = new AdaptiveThrottle();
		const lane = throttle.openLane(1);
		const stop = new AbortController();
		stop.abort();
		await expect(lane.acquire(stop.signal)).rejects.toMatchObject(stoppedError);

		const sendNumber = await lane.acquire();
		lane.release(sendNumber, 'unsent');
		// Max Concurrency 1: the next attempt gets the slot back at once.
		await lane.acquire();
		expect(throttle.state()).toEqual(expect.objectContaining({ cuts: 0, throttled: 0 }));
	});
});

describe('a Retry-After rounded up to whole seconds', () => {
	/** After a cut at a peak of 20/s (paced at 14/s), a 429 asks for `retryAfterMs`: when does another run's attempt go? */
	async function otherRunWaits(retryAfterMs: number): Promise<number> {
		const throttle = new AdaptiveThrottle();
		const lane = throttle.openLane(50);
		await learnRate(lane, 20);
		const other = throttle.openLane(50);
		const askedAt = Date.now();
		lane.pauseUntil(askedAt + retryAfterMs);
		let sentAt: number | undefined;
		void other.acquire().then(() => (sentAt = Date.now()));
		while (sentAt === undefined) await jest.advanceTimersByTimeAsync(10);
		return sentAt - askedAt;
	}

	test('of one second, the least the header can say, once a rate paces the attempts: the other runs wait one turn (1/14 s), not the second', async () => {
		expect(await otherRunWaits(1000)).toBeLessThanOrEqual(1000 / 14 + 10);
	});

	test('of more than a second: the server means it, every run waits it out', async () => {
		expect(await otherRunWaits(2000)).toBeGreaterThanOrEqual(2000);
	});

	test('before any rate is known, and with fixed concurrency: in full', async () => {
		const pause = new ServerPause();
		const throttle = new AdaptiveThrottle(pause);
		const lane = throttle.openLane(50);
		lane.pauseUntil(Date.now() + 1000);
		const fixed = new FixedThrottle(pause);
		const sent: number[] = [];
		const startedAt = Date.now();
		const attempts = [lane.acquire(), fixed.acquire()].map((attempt) =>
			attempt.then(() => sent.push(Date.now() - startedAt)),
		);
		await jest.advanceTimersByTimeAsync(1000);
		await Promise.all(attempts);
		expect(sent).toEqual([1000, 1000]);
	});
});

describe('ServerControllers: one per base URL and credential in the process', () => {
	const connection = { baseUrl: 'https://inventory.example.com', token: TOKEN };
	const fixed = { mode: 'fixed', concurrency: 5 } as const;

	test('the same server and token share one controller; another token or server gets its own', () => {
		const { logger, lines } = captureLogger();
		const controllers = new ServerControllers();
		const controller = controllers.controllerFor(connection, logger);

		expect(controllers.controllerFor({ ...connection }, logger)).toBe(controller);
		expect(controllers.controllerFor({ ...connection, token: 'inv_other' }, logger)).not.toBe(
			controller,
		);
		expect(
			controllers.controllerFor({ ...connection, baseUrl: 'https://eu.example.com' }, logger),
		).not.toBe(controller);
		expect(lines.map(({ message, meta }) => [message, meta])).toEqual([
			[
				'Inventory: rate controller created',
				{ baseUrl: 'https://inventory.example.com', controllers: 1 },
			],
			[
				'Inventory: rate controller created',
				{ baseUrl: 'https://inventory.example.com', controllers: 2 },
			],
			['Inventory: rate controller created', { baseUrl: 'https://eu.example.com', controllers: 3 }],
		]);
	});

	test('a controller nobody used for five minutes is forgotten on the next lookup, one still in use never', () => {
		const { logger, lines } = captureLogger();
		let now = 0;
		const controllers = new ServerControllers(() => now);
		const idle = controllers.controllerFor(connection, logger);
		idle.join(fixed, logger).close();
		const busy = controllers.controllerFor({ ...connection, token: 'inv_busy' }, logger);
		const open = busy.join(fixed, logger);

		const busyLookup = { ...connection, token: 'inv_busy' };

		now = CONTROLLER_IDLE_MS - 1;
		controllers.forgetIdle(logger);
		expect(controllers.controllerFor(connection, logger)).toBe(idle);

		now = CONTROLLER_IDLE_MS;
		expect(controllers.controllerFor(busyLookup, logger)).toBe(busy);
		// The next lookup of the forgotten one starts afresh.
		const fresh = controllers.controllerFor(connection, logger);
		expect(fresh).not.toBe(idle);

		now = 3 * CONTROLLER_IDLE_MS;
		controllers.forgetIdle(logger);
		expect(controllers.controllerFor(busyLookup, logger)).toBe(busy);
		open.close();
		now = 4 * CONTROLLER_IDLE_MS - 1;
		controllers.forgetIdle(logger);
		expect(controllers.controllerFor(busyLookup, logger)).toBe(busy);
		now = 4 * CONTROLLER_IDLE_MS;
		expect(controllers.controllerFor(busyLookup, logger)).not.toBe(busy);

		expect(
			lines
				.filter(({ message }) => message === 'Inventory: idle rate controller forgotten')
				.map(({ meta }) => [meta.baseUrl, meta.idleMs]),
		).toEqual([
			['https://inventory.example.com', CONTROLLER_IDLE_MS],
			['https://inventory.example.com', 2 * CONTROLLER_IDLE_MS],
			['https://inventory.example.com', CONTROLLER_IDLE_MS],
		]);
		expect(JSON.stringify(lines)).not.toContain('inv_');
	});

	test("runs share the controller's pause, rate and records; fixed runs are bounded by their Concurrency, automatic ones by twice their Max Concurrency", async () => {
		const { logger, lines } = captureLogger();
		const controllers = new ServerControllers();
		const controller = controllers.controllerFor(connection, logger);
		const automaticRun = controller.join({ mode: 'automatic', maxInFlight: 8 }, logger);
		const fixedRun = controller.join(fixed, logger);
		expect([automaticRun.maxActive, fixedRun.maxActive]).toEqual([16, 5]);
		expect(fixedRun.recordLocks).toBe(automaticRun.recordLocks);

		const sendNumber = await automaticRun.throttle.acquire();
		automaticRun.throttle.release(sendNumber, 'throttled');
		automaticRun.throttle.pauseUntil(Date.now() + 2000);
		let sent = false;
		const attempt = fixedRun.throttle.acquire().then(() => (sent = true));
		await jest.advanceTimersByTimeAsync(1990);
		expect(sent).toBe(false);
		await jest.advanceTimersByTimeAsync(20);
		await attempt;

		automaticRun.close();
		fixedRun.close();
		expect(controller.idle).toBe(true);
		expect(lines.map(({ message }) => message)).toEqual([
			'Inventory: rate controller created',
			'Inventory: rate limit answered, sending rate cut',
			'Inventory: rate limit answered, every request to the server held back',
			'Inventory: automatic concurrency settled',
		]);
		expect(lines[2].meta).toEqual({ baseUrl: connection.baseUrl, waitMs: 2000 });
		expect(lines[1].meta).toEqual(
			expect.objectContaining({ baseUrl: connection.baseUrl, cuts: 1, throttled: 1 }),
		);
	});
});
