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

export interface RecordOrderedRun {
	/** Each item's record (e.g. `Asset 12`); items of one record run one after another. undefined: no record, runs alone. */
	records: ReadonlyArray<string | undefined>;
	/** At most this many items are running at once. */
	maxActive: number;
	/** Runs one item to its final outcome (retries included); resolves false when the item failed. */
	work: (index: number) => Promise<boolean>;
	/** After a failed item, no item after it in input order is started. */
	stopAfterFailure: boolean;
}

/**
 * Runs the items with up to `maxActive` at once, the items of one record strictly one after another in
 * input order: the next starts only after the previous one's final outcome. Among the items that may
 * start, the earliest in input order goes first.
 */
export async function runInRecordOrder(run: RecordOrderedRun): Promise<void> {
	const { records, maxActive, work, stopAfterFailure } = run;
	const nextOfRecord = new Array<number | undefined>(records.length);
	const lastOfRecord = new Map<string, number>();
	const ready = new IndexHeap();
	records.forEach((record, index) => {
		const previous = record === undefined ? undefined : lastOfRecord.get(record);
		if (previous === undefined) ready.push(index);
		else nextOfRecord[previous] = index;
		if (record !== undefined) lastOfRecord.set(record, index);
	});

	let active = 0;
	let firstFailure = Infinity;
	await new Promise<void>((resolve) => {
		const startWhatMay = () => {
			while (active < maxActive && ready.size > 0 && (ready.peek() as number) < firstFailure) {
				const index = ready.pop() as number;
				active++;
				const finished = (succeeded: boolean) => {
					active--;
					if (!succeeded && stopAfterFailure) firstFailure = Math.min(firstFailure, index);
					const next = nextOfRecord[index];
					if (next !== undefined) ready.push(next);
					startWhatMay();
				};
				work(index).then(finished, () => finished(false));
			}
			if (active === 0) resolve();
		};
		startWhatMay();
	});
}
