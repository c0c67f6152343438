/**
 * The record-order scheduler as a unit: runs that share the process's record locks (as executions to one
 * server do). Each item's work is a promise the test settles, so what started when is exact.
 */
import type * as RecordOrderModule from '../../nodes/Inventory/scheduling/recordOrder';
import type * as RecordLocksModule from '../../nodes/Inventory/scheduling/recordLocks';
import { fromDist } from '../harness/engine';

const { runInRecordOrder } = fromDist(
	'./nodes/Inventory/scheduling/recordOrder.js',
) as typeof RecordOrderModule;
const { RecordLocks } = fromDist(
	'./nodes/Inventory/scheduling/recordLocks.js',
) as typeof RecordLocksModule;

type Locks = InstanceType<typeof RecordLocks>;

/** The tests name records by letter (`X`); the scheduler takes them as the node's records. */
const ASSETS: Record<string, number> = { X: 1001, Y: 1002, Z: 1003 };
const recordNamed = (name: string) => ({ kind: 'asset' as const, id: ASSETS[name] });

/** A run whose items' work the test finishes by hand; `started` lists `<run>:<item>` in start order. */
function controlledRun(
	name: string,
	records: Array<string | undefined>,
	options: {
		locks: Locks;
		started: string[];
		maxActive?: number;
		stopAfterFailure?: boolean;
		signal?: AbortSignal;
	},
) {
	const finishers = new Map<number, (succeeded: boolean) => void>();
	const awaitedOf = new Map<number, () => boolean>();
	let finished = false;
	const done = runInRecordOrder({
		records: records.map((name) => (name === undefined ? undefined : recordNamed(name))),
		maxActive: options.maxActive ?? 10,
		stopAfterFailure: options.stopAfterFailure ?? true,
		locks: options.locks,
		signal: options.signal,
		work: async (index, awaited) =>
			await new Promise<boolean>((resolve) => {
				options.started.push(`${name}:${index}`);
				finishers.set(index, resolve);
				awaitedOf.set(index, awaited);
			}),
	}).then(() => (finished = true));
	return {
		done,
		get finished() {
			return finished;
		},
		/** Whether another run waits for the record the item holds, as its work is told while it runs. */
		awaited: (index: number) => awaitedOf.get(index)?.() ?? false,
		finish: async (index: number, succeeded = true) => {
			const finish = finishers.get(index);
			if (!finish) throw new Error(`${name}:${index} has not started`);
			finish(succeeded);
			await settle();
		},
	};
}

/** Each record is free: whoever asks for it next holds it at once. */
function expectFree(locks: Locks, records: string[]): void {
	expect(locks.someoneWaits).toBe(false);
	for (const record of records) {
		const ticket = locks.take(recordNamed(record), () => {});
		expect([record, ticket.held]).toEqual([record, true]);
		ticket.release();
	}
}

/** Lets every promise reaction already queued run (no timers involved). */
async function settle(): Promise<void> {
	for (let i = 0; i < 10; i++) await Promise.resolve();
}

test("another run's change of a record waits for the record, in the order the runs asked, and not for the other records", async () => {
	const locks = new RecordLocks();
	const started: string[] = [];
	const a = controlledRun('a', ['X', 'Y'], { locks, started });
	await settle();
	const b = controlledRun('b', ['X', 'Z'], { locks, started });
	await settle();
	const c = controlledRun('c', ['X'], { locks, started });
	await settle();
	expect(started).toEqual(['a:0', 'a:1', 'b:1']);

	await a.finish(0);
	expect(started).toEqual(['a:0', 'a:1', 'b:1', 'b:0']);
	await b.finish(0);
	expect(started).toEqual(['a:0', 'a:1', 'b:1', 'b:0', 'c:0']);
	await Promise.all([a.finish(1), b.finish(1), c.finish(0)]);
	await Promise.all([a.done, b.done, c.done]);
	expectFree(locks, ['X', 'Y', 'Z']);
});

test('an item waiting for a record held elsewhere takes none of its run’s places: the next item starts', async () => {
	const locks = new RecordLocks();
	const started: string[] = [];
	const holder = controlledRun('holder', ['X'], { locks, started });
	await settle();
	const run = controlledRun('run', ['X', 'Y', 'Z'], { locks, started, maxActive: 1 });
	await settle();
	expect(started).toEqual(['holder:0', 'run:1']);

	await run.finish(1);
	expect(started).toEqual(['holder:0', 'run:1', 'run:2']);
	// The record comes free while the run's only place is taken: its item starts when the place frees.
	await holder.finish(0);
	expect(started).toEqual(['holder:0', 'run:1', 'run:2']);
	await run.finish(2);
	expect(started).toEqual(['holder:0', 'run:1', 'run:2', 'run:0']);
	await run.finish(0);
	await run.done;
	expectFree(locks, ['X', 'Y', 'Z']);
});

test("an item under way is told whether another run waits for its record (then its sending goes before its run's other items)", async () => {
	const locks = new RecordLocks();
	const started: string[] = [];
	const a = controlledRun('a', ['X', 'Y', undefined], { locks, started });
	/** Whether each of a's items is awaited, and whether anyone waits at all. */
	const awaitedNow = () => [a.awaited(0), a.awaited(1), a.awaited(2), locks.someoneWaits];
	await settle();
	expect(awaitedNow()).toEqual([false, false, false, false]);
	const b = controlledRun('b', ['X'], { locks, started });
	await settle();
	expect(awaitedNow()).toEqual([true, false, false, true]);
	await a.finish(0);
	expect(started).toEqual(['a:0', 'a:1', 'a:2', 'b:0']);
	expect([b.awaited(0), locks.someoneWaits]).toEqual([false, false]);
	await Promise.all([a.finish(1), a.finish(2), b.finish(0)]);
	await Promise.all([a.done, b.done]);
});

test('within a run, the items of a record keep input order, and another run waiting for the record comes in between', async () => {
	const locks = new RecordLocks();
	const started: string[] = [];
	const a = controlledRun('a', ['X', 'X'], { locks, started });
	await settle();
	const b = controlledRun('b', ['X'], { locks, started });
	await settle();
	expect(started).toEqual(['a:0']);
	await a.finish(0);
	expect(started).toEqual(['a:0', 'b:0']);
	await b.finish(0);
	expect(started).toEqual(['a:0', 'b:0', 'a:1']);
	await a.finish(1);
	await Promise.all([a.done, b.done]);
});

test('a run that stops after a failure gives up the records its later items waited for, and ends without them', async () => {
	const locks = new RecordLocks();
	const started: string[] = [];
	const holder = controlledRun('holder', ['Y'], { locks, started });
	await settle();
	const failing = controlledRun('failing', ['P', 'Y'], { locks, started });
	await settle();
	const next = controlledRun('next', ['Y'], { locks, started });
	await settle();
	expect(started).toEqual(['holder:0', 'failing:0']);

	await failing.finish(0, false);
	await failing.done;
	expect(failing.finished).toBe(true);
	await holder.finish(0);
	// The failed run's item 1 never starts; the run behind it in the record's queue gets the record.
	expect(started).toEqual(['holder:0', 'failing:0', 'next:0']);
	await next.finish(0);
	await Promise.all([holder.done, next.done]);
	expectFree(locks, ['P', 'Y']);
});

test('with Continue On Fail (no stop), a failed item lets the rest of the run go on', async () => {
	const locks = new RecordLocks();
	const started: string[] = [];
	const run = controlledRun('run', ['X', 'X', 'Y'], {
		locks,
		started,
		stopAfterFailure: false,
	});
	await settle();
	await run.finish(0, false);
	expect(started).toEqual(['run:0', 'run:2', 'run:1']);
	await run.finish(1);
	await run.finish(2);
	await run.done;
	expectFree(locks, ['X', 'Y']);
});

test('a failure does not take the record from a later item already under way: the next run waits for it to finish', async () => {
	const locks = new RecordLocks();
	const started: string[] = [];
	const failing = controlledRun('failing', ['P', 'Y'], { locks, started });
	await settle();
	const next = controlledRun('next', ['Y'], { locks, started });
	await settle();
	expect(started).toEqual(['failing:0', 'failing:1']);

	await failing.finish(0, false);
	expect(started).toEqual(['failing:0', 'failing:1']);
	await failing.finish(1);
	expect(started).toEqual(['failing:0', 'failing:1', 'next:0']);
	await next.finish(0);
	await Promise.all([failing.done, next.done]);
	expectFree(locks, ['P', 'Y']);
});

describe('a stopped execution', () => {
	test('gives up at once the records its items waited for, starts nothing more, and ends when its items under way have ended', async () => {
		const locks = new RecordLocks();
		const started: string[] = [];
		const holder = controlledRun('holder', ['X'], { locks, started });
		await settle();
		const stop = new AbortController();
		const stopped = controlledRun('stopped', ['X', 'Y', 'Z', 'W'], {
			locks,
			started,
			maxActive: 2,
			signal: stop.signal,
		});
		await settle();
		const next = controlledRun('next', ['X', 'W'], { locks, started });
		await settle();
		// X is held by another run; Y and Z fill the run's two places; W waits for a place.
		expect(started).toEqual(['holder:0', 'stopped:1', 'stopped:2', 'next:1']);

		stop.abort();
		await settle();
		// Its turn for X is given up at once: the next run gets X as soon as the holder is done.
		await holder.finish(0);
		expect(started).toEqual(['holder:0', 'stopped:1', 'stopped:2', 'next:1', 'next:0']);
		// Its items under way end (their waits end with the stop); nothing else of it starts.
		await stopped.finish(1, false);
		expect(stopped.finished).toBe(false);
		await stopped.finish(2, false);
		expect(stopped.finished).toBe(true);
		expect(started).toEqual(['holder:0', 'stopped:1', 'stopped:2', 'next:1', 'next:0']);
		await next.finish(0);
		await next.finish(1);
		await Promise.all([holder.done, next.done]);
		expectFree(locks, ['W', 'X', 'Y', 'Z']);
	});

	test('stopped before it began: starts nothing and takes no record', async () => {
		const locks = new RecordLocks();
		const started: string[] = [];
		const stop = new AbortController();
		stop.abort();
		const run = controlledRun('run', ['X', undefined], { locks, started, signal: stop.signal });
		await run.done;
		expect(started).toEqual([]);
		expectFree(locks, ['X']);
	});
});
