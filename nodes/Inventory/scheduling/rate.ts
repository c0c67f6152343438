/**
 * How an attempt ended, as the rate sees it: an answer below 500 but 429 (the server took the
 * request), 429, 5xx (it reached the server, which says nothing of its speed), none (network
 * failure), or never sent (its execution was stopped when its turn came).
 */
export type AttemptOutcome = 'answered' | 'throttled' | 'failed' | 'unanswered' | 'unsent';

export interface RateState {
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

/**
 * Requests in flight before the first 429, at the start and after a second without traffic: TCP's
 * initial window (RFC 6928).
 */
const INITIAL_WINDOW = 10;
/** Idle this long: the server's allowance has refilled, what was learned is probed again. */
const QUIET_MS = 1000;
/**
 * An answer slower than the fastest by a fifth of it and 5 ms more waited in a queue: the server's, or
 * this process's own while its CPU is busy, where more in flight may still go faster. One such answer
 * now and then adds nothing; once QUEUED_RUN answers in a row queued (HyStart++'s sample of a round,
 * RFC 9406), the slow start goes on more slowly, as its conservative slow start: by a quarter request
 * an answer that queued.
 */
const QUEUED_FACTOR = 1.2;
const QUEUED_SLACK_MS = 5;
const QUEUED_RUN = 8;
const QUEUED_GROWTH = 0.25;
/**
 * The slow start grows by one request per answer (doubling per round trip) when the fastest answer
 * took this long or more, in proportion on faster ones, and by half a request from 75 ms down. A
 * server's allowance refills per second, not per round trip: at half a request an answer, a server
 * 150 ms away took round trips of 150 ms to reach what a near one reached in round trips of 65 ms.
 */
const DOUBLING_ROUND_TRIP_MS = 150;
const LEAST_GROWTH = 0.5;
/** CUBIC as the AWS SDKs' adaptive retry mode has it, its scale growing with peaks above 100/s. */
const BETA = 0.7;
const CUBIC_SCALE = 0.4;
/**
 * Beyond the peak the rate grows by at least this share of the peak each second. CUBIC's curve leaves
 * the peak flat and steepens later: against a token bucket, whose limit shows only once its burst is
 * drained, the rate stood half as high again by then, and the requests in flight met a wave of 429s.
 */
const PROBE_GROWTH = 0.1;
const MIN_RATE = 0.5;
const MEASURE_MS = 1000;
/** Fewer answers than this since the latest cut tell too little: the last second is measured. */
const MIN_SAMPLE = 5;
/** A rate resumed after a quiet spell grows one request/s per answer, up to this times its peak. */
const PROBE_CEILING = 1.75;
/** A Retry-After of this much or less is the least whole second the header can say. */
const LEAST_RETRY_AFTER_MS = 1000;

/**
 * The sending rate of one server and credential, learned from the answers: a pure unit, told the time
 * by its caller (no clock, no I/O). Until the first 429 there is no rate, only a window of requests
 * in flight (a slow start). A 429 to an attempt sent after the latest cut is a cut: the rate becomes
 * 0.7 x the peak, what the server took since the cut before (at the first cut, over the last second),
 * never more than the rate paced at, and regrows along CUBIC's curve, beyond the peak by at least a
 * tenth of it a second. After a quiet spell the rate probes upward quickly until its next 429. Time is
 * counted on a busy clock that stands still while nothing is sent.
 */
export class RateEstimate {
	rate: number | undefined;
	/**
	 * How long each answer the slow start grew on as not queued took. A faster answer later shows the
	 * slower of them waited in a queue after all (a process's first requests, slowed by its start, not
	 * by the server's load or n8n's): they stop counting.
	 */
	private unqueuedGrowthMs: number[] = [];
	/** Answers the slow start grew on that queued. */
	private queuedGrowthCount = 0;
	/** Answers in a row that queued, the latest among them. */
	private queuedInARow = 0;
	private peak = 0;
	/** The busy clock: the time told, minus every quiet spell so far. */
	private quietTotal = 0;
	private cutAt = 0;
	/** Set after a quiet spell until the next cut: the rate grows fast up to this ceiling. */
	private probeCeiling: number | undefined;
	private sent = 0;
	private sentAtCut = 0;
	/** Busy times of the answers taken (not 429) in the last MEASURE_MS of this traffic, oldest first. */
	private readonly taken: number[] = [];
	private takenSinceCut = 0;
	private fastestMs = Infinity;
	/** How long the latest answer took, from its turn. */
	private lastAnswerMs = 0;
	cuts = 0;
	throttled = 0;

	private busy(now: number): number {
		return now - this.quietTotal;
	}

	/** Requests allowed in flight under `maxInFlight`: the slow start's window until the first 429. */
	slots(maxInFlight: number): number {
		return this.rate === undefined ? Math.floor(Math.min(this.window(), maxInFlight)) : maxInFlight;
	}

	/** The slow start's window: the initial one and what the answers added to it. */
	private window(): number {
		const perAnswer = Math.min(1, Math.max(LEAST_GROWTH, this.fastestMs / DOUBLING_ROUND_TRIP_MS));
		return (
			INITIAL_WINDOW +
			this.unqueuedGrowthMs.length * perAnswer +
			this.queuedGrowthCount * QUEUED_GROWTH
		);
	}

	/** Milliseconds between two turns: none before the first 429. */
	get intervalMs(): number {
		return this.rate === undefined ? 0 : 1000 / this.rate;
	}

	/** An attempt is sent: its send number, by which its answer is told apart from earlier ones. */
	send(): number {
		return ++this.sent;
	}

	/**
	 * Traffic begins again after `quietMs` without any: the curve stood still meanwhile. A break longer
	 * than an answer takes (not the moment between an item's answer and the next item's turn) ends the
	 * traffic before it: what the server took then says nothing of what it takes now (its allowance
	 * refilled, or its load changed), so the last second is measured over the new traffic only.
	 */
	resume(quietMs: number): void {
		this.quietTotal += quietMs;
		if (quietMs > this.lastAnswerMs) this.taken.length = 0;
		if (quietMs < QUIET_MS) return;
		if (this.rate === undefined) {
			this.unqueuedGrowthMs = [];
			this.queuedGrowthCount = 0;
			this.queuedInARow = 0;
		}
		// Counted from the rate measured, not from a probe above it that no 429 has judged yet.
		else this.probeCeiling = PROBE_CEILING * Math.min(this.rate, this.peak);
	}

	/** The answer to attempt `sendNumber`, `answerMs` after its turn; `maxInFlight` bounds the window. */
	answered(
		now: number,
		sendNumber: number,
		outcome: AttemptOutcome,
		answerMs: number,
		maxInFlight: number,
	): void {
		const t = this.busy(now);
		if (outcome === 'unsent') return;
		this.lastAnswerMs = answerMs;
		if (outcome === 'throttled') {
			this.throttled++;
			if (sendNumber > this.sentAtCut) this.cut(t);
			return;
		}
		this.taken.push(t);
		while (this.taken[0] <= t - MEASURE_MS) this.taken.shift();
		this.takenSinceCut++;
		if (outcome !== 'answered') return;
		if (this.rate === undefined) {
			const faster = answerMs < this.fastestMs;
			this.fastestMs = Math.min(this.fastestMs, answerMs);
			const queuedAfter = QUEUED_FACTOR * this.fastestMs + QUEUED_SLACK_MS;
			// Only a faster answer lowers the bound, and shows the answers above it to have queued.
			if (faster) this.unqueuedGrowthMs = this.unqueuedGrowthMs.filter((ms) => ms <= queuedAfter);
			const queued = answerMs > queuedAfter;
			this.queuedInARow = queued ? this.queuedInARow + 1 : 0;
			if (this.window() >= maxInFlight) return;
			if (!queued) this.unqueuedGrowthMs.push(answerMs);
			else if (this.queuedInARow >= QUEUED_RUN) this.queuedGrowthCount++;
			return;
		}
		const regrown = this.regrownRate(t);
		this.rate =
			this.probeCeiling === undefined
				? Math.max(MIN_RATE, regrown)
				: Math.max(regrown, Math.min(this.rate + 1, this.probeCeiling));
	}

	/**
	 * How long a 429's Retry-After holds back the attempts the 429 did not answer: in full, unless it is
	 * the least whole second while a rate paces the attempts; then one turn's interval.
	 */
	holdOthersMs(retryAfterMs: number): number {
		return this.rate === undefined || retryAfterMs > LEAST_RETRY_AFTER_MS
			? retryAfterMs
			: Math.min(retryAfterMs, this.intervalMs);
	}

	state(maxInFlight: number, peakInFlight: number): RateState {
		const { rate: ratePerSecond, cuts, throttled } = this;
		return { ratePerSecond, maxInFlight, peakInFlight, cuts, throttled };
	}

	/**
	 * What the server took per second since the latest cut (both 429s found its allowance used up, so
	 * what it took in between is what it refills), or over the last MEASURE_MS before a first cut or
	 * when too few answers came since the cut to tell.
	 */
	private measured(t: number): number {
		if (this.cuts > 0 && this.takenSinceCut >= MIN_SAMPLE)
			return (this.takenSinceCut * 1000) / (t - this.cutAt);
		return (this.taken.filter((at) => at > t - MEASURE_MS).length * 1000) / MEASURE_MS;
	}

	private cut(t: number): void {
		const measured = this.measured(t);
		// A rate paced and not probing bounds what the server could have taken from it.
		const paced = this.probeCeiling === undefined ? this.rate : undefined;
		this.peak = Math.max(MIN_RATE, paced === undefined ? measured : Math.min(paced, measured));
		this.rate = Math.max(MIN_RATE, BETA * this.peak);
		this.probeCeiling = undefined;
		this.cutAt = t;
		this.sentAtCut = this.sent;
		this.takenSinceCut = 0;
		this.cuts++;
	}

	/**
	 * CUBIC: back to the peak after K seconds, concave before it, convex beyond it, and there at least
	 * PROBE_GROWTH of the peak more each second.
	 */
	private regrownRate(t: number): number {
		const scale = Math.max(CUBIC_SCALE, (CUBIC_SCALE * this.peak) / 100);
		const sinceK = (t - this.cutAt) / 1000 - Math.cbrt((this.peak * (1 - BETA)) / scale);
		const cubic = scale * sinceK ** 3;
		return this.peak + (sinceK < 0 ? cubic : Math.max(cubic, PROBE_GROWTH * this.peak * sinceK));
	}
}
