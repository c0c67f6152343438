import { sleep } from 'n8n-workflow';

import { ExecutionStopped, throwIfStopped, waitUnlessStopped, whenStopped } from './cancel';
import { RateEstimate, type AttemptOutcome, type RateState } from './rate';

export type { AttemptOutcome } from './rate';

/**
 * What every attempt of a node run passes through: `acquire` before it is sent (it waits for a rate
 * limit pause, a free slot and, when pacing, its turn), `release` once it is answered or failed.
 */
export interface SendThrottle {
	/**
	 * Resolves when the attempt may be sent, with its place in the order of sending; rejects with
	 * ExecutionStopped, at once, when `signal` (the execution's cancel signal) fires first. `backFromRateLimit`:
	 * the attempt has just waited out a 429's Retry-After, and goes before the attempts that did not.
	 * `othersWaitForRecord`: asked when the run's turn comes; true while another run waits for the record this
	 * attempt's item holds, and then it goes before the run's other attempts (else that run would wait
	 * behind this run's whole queue).
	 */
	acquire(
		signal?: AbortSignal,
		backFromRateLimit?: boolean,
		othersWaitForRecord?: () => boolean,
	): Promise<number>;
	release(sendNumber: number, outcome: AttemptOutcome): void;
	/**
	 * A 429's Retry-After: holds back the attempts to the server until `timestamp` (automatic
	 * concurrency may hold them back less, see RateEstimate.holdOthersMs); the attempt it answered
	 * waits it out in full anyway.
	 */
	pauseUntil(timestamp: number): void;
}

/**
 * The pause a 429's Retry-After asks for: the server's word, so it holds back every request to that
 * server in the process (every execution, every node), not only the run that met the 429.
 */
export class ServerPause {
	until = 0;

	/** `onPause` hears of each pause that begins (not of one that only grows longer). */
	constructor(private readonly onPause: (waitMs: number) => void = () => {}) {}

	extend(timestamp: number): void {
		const now = Date.now();
		if (timestamp > now && this.until <= now) this.onPause(timestamp - now);
		this.until = Math.max(this.until, timestamp);
	}

	async wait(signal?: AbortSignal): Promise<void> {
		for (let delay = this.until - Date.now(); delay > 0; delay = this.until - Date.now()) {
			await waitUnlessStopped(delay, signal);
		}
	}
}

/** Fixed concurrency (the item scheduler bounds it per run): only the server's pause after a 429. */
export class FixedThrottle implements SendThrottle {
	private sent = 0;

	constructor(private readonly pause: ServerPause = new ServerPause()) {}

	async acquire(signal?: AbortSignal): Promise<number> {
		await this.pause.wait(signal);
		throwIfStopped(signal);
		return ++this.sent;
	}

	release(): void {}

	pauseUntil(timestamp: number): void {
		this.pause.extend(timestamp);
	}
}

/** The longest sleep before a waiting attempt's turn is worked out again (the rate may have risen). */
const MAX_TURN_WAIT_MS = 100;

/** An attempt waiting for its turn; `othersWaitForRecord`, see SendThrottle.acquire. */
interface WaitingAttempt {
	lane: Lane;
	turn: (sendNumber: number) => void;
	othersWaitForRecord?: () => boolean;
}

/** One run's attempts waiting for their turn, and its own bound (its Max Concurrency). */
class Lane {
	readonly waiting: WaitingAttempt[] = [];
	inFlight = 0;
	/** In the rotation of lanes that have an attempt waiting and room under their own bound. */
	inRotation = false;

	constructor(readonly maxInFlight: number) {}

	get eligible(): boolean {
		return this.waiting.length > 0 && this.inFlight < this.maxInFlight;
	}
}

/** A run's view of the shared AdaptiveThrottle: its attempts take turns with every other run's. */
export interface AdaptiveLane extends SendThrottle {
	/** The run is over: its bound no longer counts. */
	close(): void;
}

/**
 * Automatic concurrency's scheduling: who sends next, and when. The rate (RateEstimate) says how many
 * may be in flight and how far apart the turns are; this class gives the turns. One throttle serves
 * every run to its server in the process (see ServerController): each run opens a lane, bounded by
 * its own Max Concurrency, and the lanes with an attempt waiting get turns in rotation, so a run of
 * one item is not queued behind a large import. An attempt back from a 429's Retry-After goes before
 * them all (see firstTurns). Every wait ends when the attempt's execution is stopped.
 */
export class AdaptiveThrottle {
	private readonly rate = new RateEstimate();
	private readonly lanes = new Set<Lane>();
	/**
	 * Attempts back from waiting out a 429's Retry-After, oldest first: each goes at the next turn, before
	 * the lanes in rotation. The others may have gone on meanwhile (see RateEstimate.holdOthersMs):
	 * without it, they could take the server's room every time the attempt came back.
	 */
	private readonly firstTurns: WaitingAttempt[] = [];
	/** Lanes with an attempt waiting and room under their bound, in the order they get turns. */
	private rotation: Lane[] = [];
	private inFlight = 0;
	private peakInFlight = 0;
	private maxInFlight = 5;
	private givingTurns = false;
	private lastSentAt = -Infinity;
	/** Since when nothing has been in flight or waiting (undefined while something is). */
	private quietSince: number | undefined;
	/** When each attempt in flight got its turn, by send number. */
	private readonly turnAt = new Map<number, number>();

	/**
	 * `someoneWaits`: whether any run waits for a record another holds (else no attempt's record is waited for, and
	 * the lanes' queues need not be looked over at each turn).
	 */
	constructor(
		private readonly pause: ServerPause = new ServerPause(),
		private readonly onCut: (state: RateState) => void = () => {},
		private readonly someoneWaits: () => boolean = () => true,
	) {}

	/** A run's lane: its attempts are sent at most `maxInFlight` at once, in turns with the other runs'. */
	openLane(maxInFlight: number): AdaptiveLane {
		const lane = new Lane(maxInFlight);
		this.lanes.add(lane);
		this.maxInFlight = this.largestLaneBound();
		return {
			acquire: async (signal, backFromRateLimit, othersWaitForRecord) =>
				await this.acquire(lane, signal, backFromRateLimit, othersWaitForRecord),
			release: (sendNumber, outcome) => this.release(lane, sendNumber, outcome),
			pauseUntil: (timestamp) =>
				this.pause.extend(Date.now() + this.rate.holdOthersMs(timestamp - Date.now())),
			close: () => {
				if (this.lanes.delete(lane) && this.lanes.size > 0)
					this.maxInFlight = this.largestLaneBound();
			},
		};
	}

	/** No run has a lane open and nothing is in flight: the throttle may be forgotten. */
	get idle(): boolean {
		return this.lanes.size === 0 && this.inFlight === 0;
	}

	state(): RateState {
		return this.rate.state(this.maxInFlight, this.peakInFlight);
	}

	private largestLaneBound(): number {
		let largest = 0;
		for (const lane of this.lanes) largest = Math.max(largest, lane.maxInFlight);
		return largest;
	}

	private async acquire(
		lane: Lane,
		signal?: AbortSignal,
		backFromRateLimit = false,
		othersWaitForRecord?: () => boolean,
	): Promise<number> {
		throwIfStopped(signal);
		if (this.quietSince !== undefined) {
			this.rate.resume(Math.max(0, Date.now() - this.quietSince));
			this.quietSince = undefined;
		}
		const { stopped, off } = whenStopped(signal);
		return await new Promise<number>((resolve, reject) => {
			const turn = (sendNumber: number) => {
				off();
				resolve(sendNumber);
			};
			const queue = backFromRateLimit ? this.firstTurns : lane.waiting;
			const attempt: WaitingAttempt = { lane, turn, othersWaitForRecord };
			queue.push(attempt);
			// Stopped while waiting: the turn goes to the next attempt, nothing of this one stays queued.
			void stopped.then(() => {
				const position = queue.indexOf(attempt);
				if (position < 0) return;
				queue.splice(position, 1);
				if (!lane.eligible) this.leaveRotation(lane);
				this.noteQuiet();
				reject(new ExecutionStopped());
			});
			this.enterRotation(lane);
			void this.giveTurns();
		});
	}

	private enterRotation(lane: Lane): void {
		if (lane.inRotation || !lane.eligible) return;
		lane.inRotation = true;
		this.rotation.push(lane);
	}

	/** Takes a lane out of the rotation (its last waiting attempt was stopped): no turn is waited for in vain. */
	private leaveRotation(lane: Lane): void {
		if (!lane.inRotation) return;
		this.rotation.splice(this.rotation.indexOf(lane), 1);
		lane.inRotation = false;
	}

	private noteQuiet(): void {
		if (this.inFlight > 0 || this.firstTurns.length > 0) return;
		for (const lane of this.lanes) if (lane.waiting.length > 0) return;
		this.quietSince = Date.now();
	}

	/** The earliest attempt back from a Retry-After whose run has room under its bound, or -1. */
	private firstTurnWithRoom(): number {
		return this.firstTurns.findIndex(({ lane }) => lane.inFlight < lane.maxInFlight);
	}

	/**
	 * Who goes now: an attempt back from a Retry-After (its run has room), else the next lane's: its
	 * oldest attempt whose record another run waits for, else its oldest.
	 */
	private nextTurn(): Partial<WaitingAttempt> {
		const backIndex = this.firstTurnWithRoom();
		if (backIndex >= 0) return this.firstTurns.splice(backIndex, 1)[0];
		const lane = this.rotation.shift();
		if (!lane) return {};
		lane.inRotation = false;
		const recordWaitedFor = this.someoneWaits()
			? lane.waiting.findIndex((attempt) => attempt.othersWaitForRecord?.() === true)
			: -1;
		return { lane, turn: lane.waiting.splice(Math.max(0, recordWaitedFor), 1)[0]?.turn };
	}

	/**
	 * Lets the waiting attempts go, one at a time, each at its turn: when a slot is free, no pause holds
	 * them and the rate's interval has passed since the previous one. The turn is worked out when it
	 * comes (not booked ahead), so a rate that rose meanwhile applies at once.
	 */
	private async giveTurns(): Promise<void> {
		if (this.givingTurns) return;
		this.givingTurns = true;
		try {
			while (
				(this.rotation.length > 0 || this.firstTurnWithRoom() >= 0) &&
				this.inFlight < this.rate.slots(this.maxInFlight)
			) {
				const now = Date.now();
				// (A clock set back does not hold the turns back until it catches up.)
				const paced = Math.min(this.lastSentAt, now) + this.rate.intervalMs;
				const turnAt = Math.max(paced, this.pause.until);
				if (turnAt > now) {
					await sleep(Math.min(turnAt - now, MAX_TURN_WAIT_MS));
					continue;
				}
				const { lane, turn } = this.nextTurn();
				if (!lane || !turn) continue;
				this.lastSentAt = now;
				this.inFlight++;
				lane.inFlight++;
				this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
				this.enterRotation(lane);
				const sendNumber = this.rate.send();
				this.turnAt.set(sendNumber, now);
				turn(sendNumber);
			}
		} finally {
			this.givingTurns = false;
		}
	}

	private release(lane: Lane, sendNumber: number, outcome: AttemptOutcome): void {
		this.inFlight--;
		lane.inFlight--;
		this.enterRotation(lane);
		const now = Date.now();
		const answerMs = now - (this.turnAt.get(sendNumber) ?? -Infinity);
		this.turnAt.delete(sendNumber);
		const cuts = this.rate.cuts;
		this.rate.answered(now, sendNumber, outcome, answerMs, this.maxInFlight);
		if (this.rate.cuts > cuts) this.onCut(this.state());
		this.noteQuiet();
		void this.giveTurns();
	}
}
