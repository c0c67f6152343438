import { whenStopped } from './cancel';
import { recordKey, type InventoryRecord } from '../model/record';
import { RecordLocks, type RecordTicket } from './recordLocks';

/** Item indices, smallest first. */
class IndexHeap {
	private readonly heap: number[] = [];

	get size(): number {
		return this.heap.length;
	}

	peek(): number | undefined {
		return this.heap[0];
	}

	push(index: number): void {
		const { heap } = this;
		heap.push(index);
		for (let child = heap.length - 1; child > 0; ) {
			const parent = (child - 1) >> 1;
			if (heap[parent] <= heap[child]) break;
			[heap[parent], heap[child]] = [heap[child], heap[parent]];
			child = parent;
		}
	}

	pop(): number | undefined {
		const { heap } = this;
		const top = heap[0];
		const last = heap.pop();
		if (heap.length > 0 && last !== undefined) {
			heap[0] = last;
			for (let parent = 0; ; ) {
				const left = 2 * parent + 1;
				const right = left + 1;
				let smallest = parent;
				if (left < heap.length && heap[left] < heap[smallest]) smallest = left;
				if (right < heap.length && heap[right] < heap[smallest]) smallest = right;
				if (smallest === parent) break;
				[heap[parent], heap[smallest]] = [heap[smallest], heap[parent]];
				parent = smallest;
			}
		}
		return top;
	}
}

export interface RecordOrderedItems {
	/** Each item's record; items of one record run one after another. undefined: no record, runs alone. */
	records: ReadonlyArray<InventoryRecord | undefined>;
	/** At most this many items are running at once (an item waiting for a record held elsewhere does not count). */
	maxActive: number;
	/**
	 * Runs one item to its final outcome (retries included); resolves false when the item failed.
	 * `othersWaitForRecord`: whether another run waits for the record this item holds now (its sending should not
	 * keep that run waiting behind this run's other items).
	 */
	work: (index: number, othersWaitForRecord: () => boolean) => Promise<boolean>;
	/** After a failed item, no item after it in input order is started. */
	stopAfterFailure: boolean;
	/** Records held by other runs too (every execution's, in the process); by default this run's own. */
	locks?: RecordLocks;
	/**
	 * The execution's cancel signal: once it fires, nothing more starts, the records waited for are
	 * given up at once, and the run ends as soon as the items under way have ended (their waits end too).
	 */
	signal?: AbortSignal;
}

/**
 * Runs the items with up to `maxActive` at once, the items of one record strictly one after another in
 * input order: the next starts only after the previous one's final outcome. Among the items that may
 * start, the earliest in input order goes first. An item also waits for its record while another run
 * holds it (without taking one of this run's places meanwhile); every record this run holds or waits
 * for is given up when its items are done or will not start (stop after a failure, or the execution
 * stopped).
 */
export async function runInRecordOrder(items: RecordOrderedItems): Promise<void> {
	const { records, maxActive, work, stopAfterFailure } = items;
	const locks = items.locks ?? new RecordLocks();
	const nextOfRecord = new Array<number | undefined>(records.length);
	const lastOfRecord = new Map<string, number>();
	/** Items whose earlier items of the same record are done. */
	const ready = new IndexHeap();
	/** Tickets of the items that hold their record or wait for it, by item. */
	const tickets = new Map<number, RecordTicket>();
	/** Items started and not finished: they keep their records to the end, whatever fails meanwhile. */
	const running = new Set<number>();
	let firstFailure = Infinity;
	let stopped = false;

	/** Whether the item holds its record (or has none); else it now waits for it, outside the heap. */
	const holdsRecord = (index: number): boolean => {
		const record = records[index];
		if (record === undefined) return true;
		const held = tickets.get(index);
		if (held) return held.held;
		const ticket = locks.take(record, () => {
			ready.push(index);
			startWhatMay();
		});
		tickets.set(index, ticket);
		return ticket.held;
	};
	/** Gives up the records of the items that will not start after a failure. */
	const giveUpAfter = (failed: number) => {
		for (const [index, ticket] of tickets) {
			if (index > failed && !running.has(index)) {
				ticket.release();
				tickets.delete(index);
			}
		}
	};

	let resolveDone: () => void = () => {};
	const done = new Promise<void>((resolve) => (resolveDone = resolve));
	const startWhatMay = () => {
		while (
			!stopped &&
			running.size < maxActive &&
			ready.size > 0 &&
			(ready.peek() as number) < firstFailure
		) {
			const index = ready.pop() as number;
			// A record is taken only when its item would start, so a run holds no more records than it works on.
			if (!holdsRecord(index)) continue;
			running.add(index);
			const finished = (succeeded: boolean) => {
				running.delete(index);
				tickets.get(index)?.release();
				tickets.delete(index);
				if (!succeeded && stopAfterFailure && index < firstFailure) {
					firstFailure = index;
					giveUpAfter(index);
				}
				const next = nextOfRecord[index];
				if (next !== undefined) ready.push(next);
				startWhatMay();
			};
			work(index, () => tickets.get(index)?.othersWaitForRecord ?? false).then(finished, () =>
				finished(false),
			);
		}
		if (running.size === 0 && tickets.size === 0) resolveDone();
	};

	const firstOfRecords: number[] = [];
	records.forEach((record, index) => {
		const previous = record === undefined ? undefined : lastOfRecord.get(recordKey(record));
		if (previous === undefined) firstOfRecords.push(index);
		else nextOfRecord[previous] = index;
		if (record !== undefined) lastOfRecord.set(recordKey(record), index);
	});
	const cancel = whenStopped(items.signal);
	void cancel.stopped.then(() => {
		if (stopped) return;
		stopped = true;
		giveUpAfter(-1);
		startWhatMay();
	});
	try {
		if (!items.signal?.aborted) for (const index of firstOfRecords) ready.push(index);
		startWhatMay();
		await done;
	} finally {
		cancel.off();
		for (const ticket of tickets.values()) ticket.release();
	}
}
