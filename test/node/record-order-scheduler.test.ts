/**
 * The record-order scheduler as a unit: runs that share the process's record locks (as executions to one
 * server do). Each item's work is a promise the test settles, so what started when is exact.
 */
import type * as RecordOrderModule from '../../nodes/Inventory/helpers/recordOrder';
import { fromDist } from '../harness/engine';

const { RecordLocks, runInRecordOrder } = fromDist(
	'./nodes/Inventory/helpers/recordOrder.js',
) as typeof RecordOrderModule;

type Locks = InstanceType<typeof RecordLocks>;

/** A run whose items' work the test finishes by hand; `started` lists `<run>:<item>` in start order. */
function controlledRun(
	name: string,
	records: Array<string | undefined>,
	options: { locks: Locks; started: string[]; maxActive?: number; stopAfterFailure?: boolean },
) {
	const finishers = new Map<number, (succeeded: boolean) => void>();
	let finished = false;
	const done = runInRecordOrder({
		records,
		maxActive: options.maxActive ?? 10,
		stopAfterFailure: options.stopAfterFailure ?? true,
		locks: options.locks,
		work: async (index) =>
			await new Promise<boolean>((resolve) => {
				options.started.push(`${name}:${index}`);
				finishers.set(index, resolve);
			}),
	}).then(() => (finished = true));
	return {
		done,
		get finished() {
			return finished;
		},
		finish: async (index: number, succeeded = true) => {
			const finish = finishers.get(index);
			if (!finish) throw new Error(`${name}:${index} has not started`);
			finish(succeeded);
			await settle();
		},
	};
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
	expect(locks.size).toBe(0);
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
	expect(locks.size).toBe(0);
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
	expect(locks.size).toBe(0);
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
	expect(locks.size).toBe(0);
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
	expect(locks.size).toBe(0);
});
