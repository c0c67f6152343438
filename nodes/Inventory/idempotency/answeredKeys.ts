import type { IExecuteFunctions } from 'n8n-workflow';

import { waitUnlessStopped } from '../scheduling/cancel';
import type { RunIdentity } from './keys';
import type { KeySource } from './keySource';

/** The output field that says whether a row was recorded now or replayed. camelCase: the API's fields are snake_case. */
export const REPEAT_CHECK_FIELD = 'repeatCheck';

/** How many answered keys n8n's deduplication store keeps per node (n8n's Remove Duplicates default). */
export const ANSWERED_KEYS_KEPT = 10_000;

/** Answered keys go to the store in batches of this size while a run is sending, the rest at its end. */
const RECORD_EVERY = 50;

const STORE_OPTIONS = { mode: 'entries' as const, maxEntries: ANSWERED_KEYS_KEPT };

/** How often keys lost to another process's write are checked again (store()). */
const CHECKS_AFTER_A_LOSS = 4;

/** The pause before the nth check after a loss: random, up to 50 ms times n. */
const pauseBeforeCheck = (check: number): number => Math.round(Math.random() * 50 * check);

export interface RepeatCheck {
	/** `recorded`: this execution recorded it; `replayed`: recorded before, the API replayed it. */
	outcome: 'recorded' | 'replayed' | 'unknown';
	idempotencyKey: string;
	/** Why the node cannot tell, or which row of this run it repeats. */
	note?: string;
}

/** How many answered rows were recorded now, replayed, or cannot be told, as messages say it. */
export function repeatCountsInWords(counts: Record<RepeatCheck['outcome'], number>): string {
	return [
		counts.recorded && `${counts.recorded} recorded now`,
		counts.replayed && `${counts.replayed} recorded before and replayed`,
		counts.unknown && `${counts.unknown} not known whether new or replayed`,
	]
		.filter(Boolean)
		.join(', ');
}

/** The note of a replayed row: a tool's model reads why nothing new was booked. */
function replayNote(keyedBy: KeySource['basis'], earlierItem?: number): string {
	if (keyedBy === 'call')
		return 'A call with the same arguments was booked before: this is that booking, and nothing new was booked. Calls with the same arguments are one action.';
	return earlierItem === undefined
		? 'This key had been answered before (an earlier execution or try); the API replayed that result and booked nothing new.'
		: `Item ${earlierItem} of this run has the same key; the API replayed its result.`;
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
		/** What the keys stand for: a tool call's replay is said to its model. */
		private readonly keyedBy: KeySource['basis'],
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
				note: replayNote(this.keyedBy, earlierItem),
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
		const counts = this.counts();
		if (
			counts.replayed + counts.unknown === 0 ||
			typeof this.context.addExecutionHints !== 'function'
		)
			return;
		const message = [
			`Of the rows sent: ${repeatCountsInWords(counts)}.`,
			counts.replayed > 0 && 'Nothing was booked again for a row recorded before.',
			counts.unknown > 0 && `Each row not known says why in ${REPEAT_CHECK_FIELD}.note.`,
		].filter(Boolean);
		this.context.addExecutionHints({ message: message.join(' '), location: 'outputPane' });
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
						note: replayNote(this.keyedBy),
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
	 * the keys recorded now are checked once more, and recorded again if they were lost. A loss means
	 * another process is writing the list at the same moment, and its next write may drop them again:
	 * then they are checked again after a pause of random length, which lets the two writers' turns
	 * drift apart, until a check finds them all (at most CHECKS_AFTER_A_LOSS times).
	 */
	private async store(batch: Array<{ key: string }>): Promise<Set<string>> {
		const { helpers } = this.context;
		if (this.storeWasFull === undefined) {
			const count = await withOneRetry(
				async () => await helpers.getProcessedDataCount('node', STORE_OPTIONS),
			);
			this.storeWasFull = count >= ANSWERED_KEYS_KEPT;
		}
		const keys = batch.map(({ key }) => key);
		const before = await this.recordKeys(keys);
		const recordedNow = keys.filter((key) => !before.has(key));
		if (recordedNow.length === 0) return before;
		const signal = this.context.getExecutionCancelSignal?.();
		for (let check = 0; check <= CHECKS_AFTER_A_LOSS; check++) {
			if (check > 0) await waitUnlessStopped(pauseBeforeCheck(check), signal);
			const found = await this.recordKeys(recordedNow);
			if (recordedNow.every((key) => found.has(key))) break;
		}
		return before;
	}

	/** Records the keys in the store; resolves to those it held already. */
	private async recordKeys(keys: string[]): Promise<Set<string>> {
		const { processed } = await withOneRetry(
			async () => await this.context.helpers.checkProcessedAndRecord(keys, 'node', STORE_OPTIONS),
		);
		return new Set(processed.map(String));
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
