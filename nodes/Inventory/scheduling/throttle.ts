import { sleep } from 'n8n-workflow';

import { ExecutionStopped, throwIfStopped, waitUnlessStopped, whenStopped } from './cancel';

/**
 * How an attempt ended, as the throttle sees it: any answer but 429 (the server took the request), 429,
 * none (network failure), or never sent (its execution was stopped when its turn came).
 */
export type AttemptOutcome = 'answered' | 'throttled' | 'unanswered' | 'unsent';

/**
 * What every attempt of a node run passes through: `acquire` before it is sent (it waits for a rate
 * limit pause, a free slot and, when pacing, its turn), `release` once it is answered or failed.
 */
export interface SendThrottle {
	/**
	 * Resolves when the attempt may be sent, with its place in the order of sending; rejects with
	 * ExecutionStopped, at once, when `signal` (the execution's cancel signal) fires first. `first`: the
	 * attempt has just waited out a 429's Retry-After, and goes before the attempts that did not.
	 * `awaited`: asked when the run's turn comes; true while another run waits for the record this
	 * attempt's item holds, and then it goes before the run's other attempts (else that run would wait
	 * behind this run's whole queue).
	 */
	acquire(signal?: AbortSignal, first?: boolean, awaited?: () => boolean): Promise<number>;
	release(sendNumber: number, outcome: AttemptOutcome): void;
	/**
	 * A 429's Retry-After: holds back the attempts to the server until `timestamp` (automatic
	 * concurrency may hold them back less, see AdaptiveThrottle.pauseAfter429); the attempt it answered
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

/**
 * CUBIC's constants as the AWS SDKs' adaptive retry mode uses them (rate in requests per second), with
 * the scale growing with the peak above 100 requests per second, so that a fast API is probed as
 * gently as one at 100/s: back to the peak about 4 s after a cut, 10 % above it 3 s later.
 */
const CUBIC_SCALE = 0.4;
const CUBIC_BETA = 0.7;
/** Requests in flight at the start; each answer before the first 429 adds half a request, up to the maximum. */
const INITIAL_IN_FLIGHT = 5;
/** Idle this long before the first 429: the slow start begins again (see acquire). */
const SLOW_START_RESTART_MS = 1000;
const GROWTH_PER_ANSWER = 0.5;
/**
 * An answer slower than the fastest one by half of it and 5 ms more waited in a queue (the server's, or
 * this process's own when it is busy): the slow start does not grow on it.
 */
const QUEUED_ANSWER_FACTOR = 1.5;
const QUEUED_ANSWER_SLACK_MS = 5;
const MIN_RATE = 0.5;
/** The longest sleep before a waiting attempt's turn is worked out again (the rate may have risen). */
const MAX_TURN_WAIT_MS = 100;
const MEASURE_MS = 1000;
/** A Retry-After of this much or less may be the server's rounding up to whole seconds. */
const ROUNDED_RETRY_AFTER_MS = 1000;
/** Two cuts this close: the server is saturated, its Retry-After is honoured in full for everyone. */
const SATURATED_WITHIN_MS = 2000;
/** The pacing kept the server busy when at least this share of its turns left another attempt waiting. */
const BUSY_SHARE = 0.9;
/**
 * Requests per second a resumed rate grows by with each answer until the first 429 (as a slow start
 * does: about 2.7 times the rate each second, whatever the rate), up to RESUME_CEILING times the rate
 * resumed: a server that takes more now (a higher limit, the other load gone) overturns the
 * remembered rate within about a second, instead of CUBIC's slow probe beyond its old peak, while a
 * server that takes the same meets a short overshoot only (the second of two runs back to back). That
 * overshoot's 429s grow with how far above the server's rate the probe is when its bucket runs dry,
 * and the rate a run ends on is often a probe above it: the ceiling is counted from CUBIC's peak
 * when that is lower, and 1.75, not 2, keeps them under 1 % of a run while a limit raised by half is
 * still found within about a second from a rate a little below the old limit (1.5 could not; beyond
 * the ceiling, CUBIC's probe goes on). Figures: docs/performance.md.
 */
const RESUME_GROWTH_PER_ANSWER = 1;
const RESUME_CEILING = 1.75;
export interface AdaptiveState {
	/** Requests per second the pacing allows; undefined until the first 429 (no pacing before). */
	ratePerSecond: number | undefined;
	/** The largest Max Concurrency of the runs that use the throttle (the last ones, when none does). */
	maxInFlight: number;
	peakInFlight: number;
	/** How often the rate was cut. */
	cuts: number;
	/** 429 answers, those that cut the rate and those of attempts sent before a cut. */
	throttled: number;
}

/** An attempt waiting for its turn; `awaited`, see SendThrottle.acquire. */
interface WaitingAttempt {
	turn: (sendNumber: number) => void;
	awaited?: () => boolean;
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
 * Automatic concurrency: finds the rate the server accepts. Until the first 429, attempts go unpaced
 * with a slow start (5 in flight, growing to `maxInFlight` while answers come without queueing). From
 * then on they are paced at a rate (no bursts, also when a pause lifts): a 429 cuts it to 0.7 x
 * CUBIC's peak (see `cut`), and it regrows along a CUBIC curve (back to the peak after a few seconds,
 * then beyond, slowly at first) while answers come back without 429. One cut per window of throttles:
 * a 429 of an attempt sent before the latest cut tells nothing new. Answers other than 429 (5xx,
 * network failures) leave the rate alone; retries take their turn like first attempts, but for a
 * retry after a 429's Retry-After, which goes first (see firstTurns).
 *
 * One throttle serves every run to its server in the process (see ServerController): each run opens a
 * lane, bounded by its own Max Concurrency, and the lanes with an attempt waiting get turns in rotation,
 * so a run of one item is not queued behind a large import. What was learned stays for the next run;
 * the CUBIC clock stands still while nothing is sent, so a later run resumes where the last one stopped.
 */
export class AdaptiveThrottle {
	private readonly lanes = new Set<Lane>();
	/**
	 * Attempts back from waiting out a 429's Retry-After, oldest first: each goes at the next turn, before
	 * the lanes in rotation. The others may have gone on meanwhile (see pauseAfter429): without it, they
	 * could take the server's room every time the attempt came back, until its retries ran out.
	 */
	private readonly firstTurns: Array<{ lane: Lane; turn: (sendNumber: number) => void }> = [];
	/** Lanes with an attempt waiting and room under their bound, in the order they get turns. */
	private rotation: Lane[] = [];
	private rotationStart = 0;
	private inFlight = 0;
	private givingTurns = false;
	private lastSentAt = -Infinity;
	private rate: number | undefined;
	private cubicPeak = 0;
	private cutAt: number | undefined;
	/** Since when nothing has been in flight or waiting (undefined while something is). */
	private idleSince: number | undefined;
	/** Attempts sent so far, and how many had been sent at the latest cut. */
	private sent = 0;
	private sentAtCut = 0;
	/** Times of the attempts the server took (not 429) within the last MEASURE_MS, oldest first (until the first cut). */
	private taken: number[] = [];
	private takenStart = 0;
	private takenSinceCut = 0;
	/** Of those, the answers to attempts sent before the latest cut. */
	private takenSinceCutSentBefore = 0;
	/** Turns given since the latest cut (`sent - sentAtCut`) that left another attempt waiting (see `cut`). */
	private busyTurnsSinceCut = 0;
	private peakInFlight = 0;
	private inFlightLimit = INITIAL_IN_FLIGHT;
	/** When each attempt in flight got its turn, by send number (the slow start's latency, see release). */
	private readonly turnAt = new Map<number, number>();
	/** The shortest time from a turn to its answer so far: the round trip with nothing queued. */
	private fastestAnswerMs = Infinity;
	private maxInFlight = INITIAL_IN_FLIGHT;
	private cuts = 0;
	private throttled = 0;
	/** A rate found earlier was resumed after a quiet spell, and no 429 came since: the rate grows fast. */
	private resumed = false;
	private resumedAt = 0;
	/** How far a resumed rate grows before its first 429 (see RESUME_CEILING). */
	private resumeCeiling = 0;
	/** The latest cut came soon after the one before it (see `cut`). */
	private saturated = false;
	/** When the latest cut came (the clock's time: `cutAt` stands still while idle). */
	private lastCutAt = -Infinity;
	/** The latest cut's peak was measured with a token bucket's burst in it (the first cut, a resumed rate's). */
	private lastCutWithBurst = false;
	/**
	 * The latest cut came soon after one measured with the burst, and measured mostly answers to
	 * attempts sent before that one: it corrected it without a measure of its own (see `cut`).
	 */
	private lastCutCorrected = false;

	/**
	 * `someoneWaits`: whether any run waits for a record another holds (else no attempt is awaited, and
	 * the lanes' queues need not be looked over at each turn).
	 */
	constructor(
		private readonly pause: ServerPause = new ServerPause(),
		private readonly onCut: (state: AdaptiveState) => void = () => {},
		private readonly someoneWaits: () => boolean = () => true,
	) {}

	/** A run's lane: its attempts are sent at most `maxInFlight` at once, in turns with the other runs'. */
	openLane(maxInFlight: number): AdaptiveLane {
		const lane = new Lane(maxInFlight);
		this.lanes.add(lane);
		this.maxInFlight = this.largestLaneBound();
		return {
			acquire: async (signal, first, awaited) => await this.acquire(lane, signal, first, awaited),
			release: (sendNumber, outcome) => this.release(lane, sendNumber, outcome),
			pauseUntil: (timestamp) => this.pauseAfter429(timestamp),
			close: () => {
				if (this.lanes.delete(lane) && this.lanes.size > 0)
					this.maxInFlight = this.largestLaneBound();
			},
		};
	}

	/**
	 * A 429's Retry-After, for every run to the server. The server's word, in full, unless it is a
	 * second or less while the rate the server took (CUBIC's peak) has a request's room in less: that is
	 * whole seconds' rounding (a token bucket refills in milliseconds), and the pacing, just cut below
	 * that rate, keeps the attempts apart; then the others wait one request's room, not the whole second.
	 * Not while the server is saturated (cuts close together). The attempt that met the 429 waits the
	 * Retry-After out in full (sendInventoryRequest), then goes first (see firstTurns).
	 */
	private pauseAfter429(timestamp: number): void {
		const now = Date.now();
		const roomMs = this.cubicPeak > 0 ? 1000 / this.cubicPeak : Infinity;
		const rounded =
			this.rate !== undefined &&
			!this.saturated &&
			timestamp - now <= ROUNDED_RETRY_AFTER_MS &&
			roomMs < timestamp - now;
		this.pause.extend(rounded ? now + roomMs : timestamp);
	}

	/** No run has a lane open and nothing is in flight: the throttle may be forgotten. */
	get idle(): boolean {
		return this.lanes.size === 0 && this.inFlight === 0;
	}

	private largestLaneBound(): number {
		let largest = 0;
		for (const lane of this.lanes) largest = Math.max(largest, lane.maxInFlight);
		return largest;
	}

	private async acquire(
		lane: Lane,
		signal?: AbortSignal,
		first = false,
		awaited?: () => boolean,
	): Promise<number> {
		throwIfStopped(signal);
		if (this.idleSince !== undefined) {
			// Nothing was sent meanwhile: the curve resumes where it stood, it did not grow unproven.
			const now = Date.now();
			const idleSince = this.idleSince;
			if (this.cutAt !== undefined) this.cutAt += now - idleSince;
			this.idleSince = undefined;
			// What the server took before the quiet spell says little about the load it takes now.
			if (this.rate !== undefined) {
				this.resumed = true;
				this.resumedAt = now;
				// Counted from the rate the server was measured to take, not from a probe above it that no
				// 429 has judged yet (the rate a run ends on often is one).
				this.resumeCeiling = RESUME_CEILING * Math.min(this.rate, this.cubicPeak);
			} else if (now - idleSince >= SLOW_START_RESTART_MS) {
				// No 429 yet, and the server's allowance has refilled meanwhile: sent at once, the requests
				// in flight before would all meet its end together. The slow start begins again (as TCP's
				// does after an idle spell); it grows back within a few round trips.
				this.inFlightLimit = INITIAL_IN_FLIGHT;
			}
		}
		const { stopped, off } = whenStopped(signal);
		return await new Promise<number>((resolve, reject) => {
			const turn = (sendNumber: number) => {
				off();
				resolve(sendNumber);
			};
			const firstTurn = { lane, turn };
			const attempt: WaitingAttempt = { turn, awaited };
			if (first) this.firstTurns.push(firstTurn);
			else lane.waiting.push(attempt);
			// Stopped while waiting: the turn goes to the next attempt, nothing of this one stays queued.
			void stopped.then(() => {
				if (first) {
					const position = this.firstTurns.indexOf(firstTurn);
					if (position < 0) return;
					this.firstTurns.splice(position, 1);
				} else {
					const position = lane.waiting.indexOf(attempt);
					if (position < 0) return;
					lane.waiting.splice(position, 1);
					if (!lane.eligible) this.leaveRotation(lane);
				}
				if (this.quiet) this.idleSince = Date.now();
				reject(new ExecutionStopped());
			});
			if (!first) this.enterRotation(lane);
			void this.giveTurns();
		});
	}

	private enterRotation(lane: Lane): void {
		if (lane.inRotation || !lane.eligible) return;
		lane.inRotation = true;
		this.rotation.push(lane);
	}

	/** Takes a lane out of the rotation (its last waiting attempt was stopped), so no turn is waited for in vain. */
	private leaveRotation(lane: Lane): void {
		if (!lane.inRotation) return;
		const position = this.rotation.indexOf(lane, this.rotationStart);
		if (position >= 0) this.rotation.splice(position, 1);
		lane.inRotation = false;
	}

	private nextInRotation(): Lane | undefined {
		const lane = this.rotation[this.rotationStart++];
		if (this.rotationStart > 1024 && this.rotationStart * 2 > this.rotation.length) {
			this.rotation = this.rotation.slice(this.rotationStart);
			this.rotationStart = 0;
		}
		if (lane) lane.inRotation = false;
		return lane;
	}

	/** Nothing in flight and no attempt waiting. */
	private get quiet(): boolean {
		if (this.inFlight > 0 || this.firstTurns.length > 0) return false;
		for (const lane of this.lanes) if (lane.waiting.length > 0) return false;
		return true;
	}

	/**
	 * Who goes now: an attempt back from a Retry-After (its run has room), else the next lane's: its
	 * oldest attempt whose record another run waits for, else its oldest.
	 */
	private nextTurn(): { lane?: Lane; turn?: (sendNumber: number) => void } {
		const first = this.firstTurnWithRoom();
		if (first >= 0) return this.firstTurns.splice(first, 1)[0];
		const lane = this.nextInRotation();
		if (!lane) return {};
		const awaited = this.someoneWaits()
			? lane.waiting.findIndex((attempt) => attempt.awaited?.() === true)
			: -1;
		return { lane, turn: lane.waiting.splice(Math.max(0, awaited), 1)[0]?.turn };
	}

	/** The earliest attempt back from a Retry-After whose run has room under its bound, or -1. */
	private firstTurnWithRoom(): number {
		return this.firstTurns.findIndex(({ lane }) => lane.inFlight < lane.maxInFlight);
	}

	private get waitingLanes(): number {
		return this.rotation.length - this.rotationStart;
	}

	/** Some attempt waits for a turn it may take: a lane in rotation, or one back from a Retry-After. */
	private get turnWaited(): boolean {
		return this.waitingLanes > 0 || this.firstTurnWithRoom() >= 0;
	}

	/**
	 * Lets the waiting attempts go, one at a time, each at its turn: when a slot is free, no pause holds
	 * them and, once paced, 1/rate after the previous one; the turn goes to the next lane in rotation.
	 * The turn is worked out when it comes (not booked ahead), so a rate that rose meanwhile applies at once.
	 */
	private async giveTurns(): Promise<void> {
		if (this.givingTurns) return;
		this.givingTurns = true;
		try {
			while (this.turnWaited && this.inFlight < this.slots) {
				const now = Date.now();
				const paced = this.rate === undefined ? now : this.lastSentAt + 1000 / this.rate;
				const turn = Math.max(paced, this.pause.until);
				if (turn > now) {
					await sleep(Math.min(turn - now, MAX_TURN_WAIT_MS));
					continue;
				}
				const { lane, turn: sendTurn } = this.nextTurn();
				if (!lane || !sendTurn) continue;
				this.lastSentAt = now;
				this.inFlight++;
				lane.inFlight++;
				this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
				this.enterRotation(lane);
				if (this.turnWaited) this.busyTurnsSinceCut++;
				this.turnAt.set(++this.sent, now);
				sendTurn(this.sent);
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
		const turnAt = this.turnAt.get(sendNumber);
		this.turnAt.delete(sendNumber);
		const answerMs = turnAt === undefined ? Infinity : now - turnAt;
		if (outcome === 'unsent') {
			// The server saw nothing of it: the slot is free again, the rate learns nothing.
		} else if (outcome === 'throttled') {
			this.throttled++;
			if (sendNumber > this.sentAtCut) this.cut(now);
		} else {
			// Not refused: the server took it (an attempt that got no answer most likely reached it too).
			this.takenSinceCut++;
			if (sendNumber <= this.sentAtCut) this.takenSinceCutSentBefore++;
			if (this.rate === undefined || this.resumed) this.recordTaken(now);
		}
		if (outcome === 'answered') {
			this.fastestAnswerMs = Math.min(this.fastestAnswerMs, answerMs);
			// More in flight helps only while answers come as fast as ever: once they wait in a queue (the
			// server's, or this process's own when it is busy), more would only be more 429s at the first cut.
			if (this.rate === undefined) {
				if (answerMs <= QUEUED_ANSWER_FACTOR * this.fastestAnswerMs + QUEUED_ANSWER_SLACK_MS)
					this.inFlightLimit = Math.min(this.maxInFlight, this.inFlightLimit + GROWTH_PER_ANSWER);
			} else if (this.resumed)
				this.rate = Math.max(
					Math.min(this.rate + RESUME_GROWTH_PER_ANSWER, this.resumeCeiling),
					this.cubicRate(now),
				);
			else this.rate = Math.max(MIN_RATE, this.cubicRate(now));
		}
		if (this.quiet) this.idleSince = now;
		void this.giveTurns();
	}

	state(): AdaptiveState {
		return {
			ratePerSecond: this.rate,
			maxInFlight: this.maxInFlight,
			peakInFlight: this.peakInFlight,
			cuts: this.cuts,
			throttled: this.throttled,
		};
	}

	/** Requests allowed in flight now (the slow start grows the limit by fractions). */
	private get slots(): number {
		return Math.floor(Math.min(this.inFlightLimit, this.maxInFlight));
	}

	private recordTaken(now: number): void {
		this.taken.push(now);
		while (this.taken[this.takenStart] < now - MEASURE_MS) this.takenStart++;
		if (this.takenStart > 1024) {
			this.taken = this.taken.slice(this.takenStart);
			this.takenStart = 0;
		}
	}

	/** Requests per second the server took (not refused with 429) in the last second: the first 429's measure, before any pacing. */
	private takenRate(now: number): number {
		let count = 0;
		for (let i = this.taken.length - 1; i >= this.takenStart; i--) {
			if (this.taken[i] < now - MEASURE_MS) break;
			count++;
		}
		return (count * 1000) / MEASURE_MS;
	}

	private cut(now: number): void {
		// CUBIC's peak: before any pacing, what the server took in the last second (a token bucket's
		// burst and a second of its refill). Later, what the server took since the previous cut, pauses
		// included: both 429s met an empty bucket, so what it took in between is its refill, provided the
		// pacing kept it busy (an attempt was waiting at nearly every turn; the rate at which the 429 came
		// bounds it). Less busy, the node sent less than the server would take: halfway between the two.
		const takenRateSinceCut =
			this.cutAt === undefined || now <= this.cutAt
				? Infinity
				: (this.takenSinceCut * 1000) / (now - this.cutAt);
		const turnsSinceCut = this.sent - this.sentAtCut;
		const busy = turnsSinceCut > 0 && this.busyTurnsSinceCut >= BUSY_SHARE * turnsSinceCut;
		// A resumed rate that grew until this 429 is measured as the first cut is: by what the server took.
		const measuredWithBurst = this.rate === undefined || this.resumed;
		this.cubicPeak = Math.max(
			MIN_RATE,
			this.rate === undefined
				? this.takenRate(now)
				: this.resumed
					? (this.takenRate(now) * MEASURE_MS) /
						Math.max(1, Math.min(MEASURE_MS, now - this.resumedAt))
					: busy
						? Math.min(this.rate, takenRateSinceCut)
						: (this.rate + Math.min(this.rate, takenRateSinceCut)) / 2,
		);
		this.resumed = false;
		// Most of what the server took since the previous cut was sent before it: the pacing since was
		// not measured yet (the cut came within about a round trip).
		const unmeasured = this.takenSinceCutSentBefore * 2 > this.takenSinceCut;
		this.takenSinceCut = 0;
		this.takenSinceCutSentBefore = 0;
		this.busyTurnsSinceCut = 0;
		this.rate = Math.max(MIN_RATE, this.cubicPeak * CUBIC_BETA);
		// Cut again soon after a cut measured while paced: the server is saturated (other clients share
		// its limit), and its whole Retry-After is honoured until a calmer cut. Soon after a cut measured
		// with the bucket's burst in it, the second cut is only the correction that burst called for. When
		// that correction came within about a round trip, what it measured was mostly answers to requests
		// sent before the first cut, so its peak can still be well above the server's rate, and the next
		// cut soon after it is one more correction, no sign of other clients either. (Processes sharing a
		// limit correct theirs after half a second or more, measured on their own paced requests.)
		const soon = now - this.lastCutAt < SATURATED_WITHIN_MS;
		this.saturated = soon && !this.lastCutWithBurst && !this.lastCutCorrected;
		this.lastCutCorrected = soon && this.lastCutWithBurst && unmeasured;
		this.lastCutWithBurst = measuredWithBurst;
		this.lastCutAt = now;
		this.cutAt = now;
		this.sentAtCut = this.sent;
		this.inFlightLimit = Infinity;
		this.cuts++;
		this.onCut(this.state());
	}

	/** CUBIC: back to the peak after K seconds, concave before it, convex beyond it. */
	private cubicRate(now: number): number {
		const scale = Math.max(CUBIC_SCALE, (CUBIC_SCALE * this.cubicPeak) / 100);
		const k = Math.cbrt((this.cubicPeak * (1 - CUBIC_BETA)) / scale);
		const seconds = (now - (this.cutAt ?? now)) / 1000;
		return scale * (seconds - k) ** 3 + this.cubicPeak;
	}
}
