import type { IExecuteFunctions } from 'n8n-workflow';

import type { RunIdentity } from './keys';

/** The output field that says whether a row was recorded now or replayed. camelCase: the API's fields are snake_case. */
export const REPEAT_CHECK_FIELD = 'repeatCheck';

/** How many answered keys n8n's deduplication store keeps per node (n8n's Remove Duplicates default). */
export const ANSWERED_KEYS_KEPT = 10_000;

/** Answered keys go to the store in batches of this size while a run is sending, the rest at its end. */
const RECORD_EVERY = 50;

export interface RepeatCheck {
	/** `recorded`: this execution recorded it; `replayed`: recorded before, the API replayed it. */
	outcome: 'recorded' | 'replayed' | 'unknown';
	idempotencyKey: string;
	/** Why the node cannot tell, or which row of this run it repeats. */
	note?: string;
}

const API_DOES_NOT_SAY = 'the API does not say whether it replayed a request.';

/** Store calls of one node in this process go one after another: n8n's store reads and writes a whole list. */
const storeQueues = new Map<string, Promise<unknown>>();

function oneAtATime<T>(queue: string, task: () => Promise<T>): Promise<T> {
	const next = (storeQueues.get(queue) ?? Promise.resolve()).then(task, task);
	const tail = next.then(
		() => undefined,
		() => undefined,
	);
	storeQueues.set(queue, tail);
	void tail.then(() => {
		if (storeQueues.get(queue) === tail) storeQueues.delete(queue);
	});
	return next;
}

/**
 * Remembers, in n8n's deduplication store (n8n's database, shared by executions and queue workers,
 * scope "node"), the Idempotency-Keys the API answered with success. A key found there had been
 * answered before: the API replayed it. A key not found was recorded by this execution, unless the
 * node cannot tell (no store, the store failed, it has forgotten older keys, or an earlier try was
 * killed before it could record its answers): then the outcome is "unknown", with the reason.
 */
export class AnsweredKeys {
	private readonly outcomes = new Map<number, Omit<RepeatCheck, 'idempotencyKey'>>();
	private readonly firstItemOfKey = new Map<string, number>();
	private pending: Array<{ itemIndex: number; key: string }> = [];
	private recording: Promise<void> = Promise.resolve();
	/** Whether the store had reached its size when this run first read it (then it forgets keys). */
	private storeWasFull: boolean | undefined;
	/** Why nothing can be told (no store), or why a key not found may still have been answered before. */
	private readonly noStoreNote: string | undefined;
	private readonly killedTryNote: string | undefined;

	constructor(
		private readonly context: IExecuteFunctions,
		identity: RunIdentity,
	) {
		const { helpers } = context;
		if (
			typeof helpers.checkProcessedAndRecord !== 'function' ||
			typeof helpers.getProcessedDataCount !== 'function'
		)
			this.noStoreNote = `This n8n has no deduplication store to remember answered keys, and ${API_DOES_NOT_SAY}`;
		if (identity.retriesKilledExecution)
			this.killedTryNote = `This execution retries one that was stopped while this node ran, before it could record its answers, and ${API_DOES_NOT_SAY}`;
		this.queue = `${identity.workflowId}\n${identity.nodeId}`;
	}

	private readonly queue: string;

	/** One item's request was answered with success. */
	answered(itemIndex: number, key: string): void {
		const earlierItem = this.firstItemOfKey.get(key);
		if (earlierItem !== undefined) {
			this.outcomes.set(itemIndex, {
				outcome: 'replayed',
				note: `Item ${earlierItem} of this run has the same key; the API replayed its result.`,
			});
			return;
		}
		this.firstItemOfKey.set(key, itemIndex);
		this.pending.push({ itemIndex, key });
		if (this.pending.length >= RECORD_EVERY) this.record();
	}

	/** Records what is pending and waits until every answer is recorded; notes replays in n8n's output panel. */
	async settle(): Promise<void> {
		this.record();
		await this.recording;
		const { recorded, replayed, unknown } = this.counts();
		if (replayed + unknown === 0 || typeof this.context.addExecutionHints !== 'function') return;
		const parts = [
			replayed &&
				`${replayed} ${replayed === 1 ? 'row was' : 'rows were'} recorded before and replayed: nothing was booked again for ${replayed === 1 ? 'it' : 'them'}`,
			recorded && `${recorded} recorded now`,
			unknown && `${unknown} not known whether new or replayed (see repeatCheck.note)`,
		].filter(Boolean);
		this.context.addExecutionHints({ message: `${parts.join('; ')}.`, location: 'outputPane' });
	}

	/** The repeat check of an answered item. */
	check(itemIndex: number, key: string): RepeatCheck {
		const known = this.outcomes.get(itemIndex) ?? {
			outcome: 'unknown',
			note: `The answer was not recorded, and ${API_DOES_NOT_SAY}`,
		};
		return {
			outcome: known.outcome,
			idempotencyKey: key,
			...(known.note ? { note: known.note } : {}),
		};
	}

	/** How many answered items were recorded now, replayed, or cannot be told. */
	counts(): Record<RepeatCheck['outcome'], number> {
		const counts = { recorded: 0, replayed: 0, unknown: 0 };
		for (const { outcome } of this.outcomes.values()) counts[outcome]++;
		return counts;
	}

	private record(): void {
		const batch = this.pending;
		this.pending = [];
		if (batch.length === 0) return;
		this.recording = this.recording.then(
			async () => await oneAtATime(this.queue, async () => await this.recordBatch(batch)),
		);
	}

	private async recordBatch(batch: Array<{ itemIndex: number; key: string }>): Promise<void> {
		if (this.noStoreNote !== undefined) {
			for (const { itemIndex } of batch)
				this.outcomes.set(itemIndex, { outcome: 'unknown', note: this.noStoreNote });
			return;
		}
		try {
			const replayed = await this.store(batch);
			for (const { itemIndex, key } of batch) {
				if (replayed.has(key))
					this.outcomes.set(itemIndex, {
						outcome: 'replayed',
						note: 'This key had been answered before (an earlier execution or try); the API replayed that result and booked nothing new.',
					});
				else if (this.storeWasFull)
					this.outcomes.set(itemIndex, {
						outcome: 'unknown',
						note: `n8n remembers the last ${ANSWERED_KEYS_KEPT.toLocaleString('en-US')} keys this node got answers for and has forgotten older ones, and ${API_DOES_NOT_SAY}`,
					});
				else if (this.killedTryNote)
					this.outcomes.set(itemIndex, { outcome: 'unknown', note: this.killedTryNote });
				else this.outcomes.set(itemIndex, { outcome: 'recorded' });
			}
		} catch (error) {
			const why = error instanceof Error ? error.message : String(error);
			for (const { itemIndex } of batch)
				this.outcomes.set(itemIndex, {
					outcome: 'unknown',
					note: `n8n's deduplication store could not be used (${why}), and ${API_DOES_NOT_SAY}`,
				});
		}
	}

	/**
	 * Records the keys; resolves to those the store held already. n8n's store keeps one list per node
	 * and reads and writes it whole, with no lock: two n8n processes (queue workers) recording at the
	 * same moment can both insert it (one fails: tried again) or one can overwrite the other's keys, so
	 * the keys recorded now are checked once more (and recorded again if they were lost).
	 */
	private async store(batch: Array<{ key: string }>): Promise<Set<string>> {
		const { helpers } = this.context;
		const options = { mode: 'entries' as const, maxEntries: ANSWERED_KEYS_KEPT };
		if (this.storeWasFull === undefined) {
			const count = await withOneRetry(
				async () => await helpers.getProcessedDataCount('node', options),
			);
			this.storeWasFull = count >= ANSWERED_KEYS_KEPT;
		}
		const keys = batch.map(({ key }) => key);
		const { processed } = await withOneRetry(
			async () => await helpers.checkProcessedAndRecord(keys, 'node', options),
		);
		const before = new Set(processed.map(String));
		const recordedNow = keys.filter((key) => !before.has(key));
		if (recordedNow.length > 0)
			await withOneRetry(
				async () => await helpers.checkProcessedAndRecord(recordedNow, 'node', options),
			);
		return before;
	}
}

/** A store call, tried once more when the first fails (e.g. two processes inserting the list at once). */
async function withOneRetry<T>(call: () => Promise<T>): Promise<T> {
	try {
		return await call();
	} catch {
		return await call();
	}
}
