import { sleep } from 'n8n-workflow';

/** How an attempt ended, as the throttle sees it: any answer but 429 (the server took the request), 429, or none (network failure). */
export type AttemptOutcome = 'answered' | 'throttled' | 'unanswered';

/**
 * What every attempt of a node run passes through: `acquire` before it is sent (it waits for a rate
 * limit pause, a free slot and, when pacing, its turn), `release` once it is answered or failed.
 */
export interface SendThrottle {
	/** Resolves with the time the attempt may be sent. */
	acquire(): Promise<number>;
	release(sentAt: number, outcome: AttemptOutcome): void;
	/** Holds back every attempt of the run until `timestamp`, as a 429's Retry-After asks. */
	pauseUntil(timestamp: number): void;
}

/** The pause shared by every request of a run: when the API answers 429, nothing is sent before the time it asked for. */
class RunPause {
	until = 0;

	extend(timestamp: number): void {
		this.until = Math.max(this.until, timestamp);
	}

	async wait(): Promise<void> {
		for (let delay = this.until - Date.now(); delay > 0; delay = this.until - Date.now()) {
			await sleep(delay);
		}
	}
}

/** Fixed concurrency (the item scheduler bounds it): only the run-wide pause after a 429. */
export class FixedThrottle implements SendThrottle {
	private readonly pause = new RunPause();

	async acquire(): Promise<number> {
		await this.pause.wait();
		return Date.now();
	}

	release(): void {}

	pauseUntil(timestamp: number): void {
		this.pause.extend(timestamp);
	}
}

/** CUBIC's constants as the AWS SDKs' adaptive retry mode uses them (rate in requests per second). */
const CUBIC_SCALE = 0.4;
const CUBIC_BETA = 0.7;
const MIN_RATE = 0.5;
/** Successes counted for the rate the server accepted: since the previous cut, at least 1 s, at most 10 s. */
const MIN_MEASURE_MS = 1000;
const MAX_MEASURE_MS = 10_000;

export interface AdaptiveState {
	/** Requests per second the pacing allows; undefined until the first 429 (no pacing before). */
	ratePerSecond: number | undefined;
	maxInFlight: number;
	peakInFlight: number;
	/** How often the rate was cut. */
	cuts: number;
	/** 429 answers, those that cut the rate and those of attempts sent before a cut. */
	throttled: number;
}

/**
 * Automatic concurrency: finds the rate the server accepts. Up to `maxInFlight` requests are on the
 * wire at once, unpaced until the first 429. From then on, attempts are paced at a rate (no bursts,
 * also when a pause lifts): a 429 cuts it to 0.7 x the rate the server accepted since the previous
 * cut, and it regrows along a CUBIC curve (back to the accepted rate after a few seconds, then beyond,
 * slowly at first) while answers come back without 429. One cut per window of throttles: a 429 of an
 * attempt sent before the latest cut tells nothing new. Answers other than 429 (5xx, network failures)
 * leave the rate alone; retries take their turn like first attempts.
 */
export class AdaptiveThrottle implements SendThrottle {
	private readonly pause = new RunPause();
	private inFlight = 0;
	private readonly waitingForSlot: Array<() => void> = [];
	private rate: number | undefined;
	private nextSendAt = 0;
	private cubicPeak = 0;
	private cutAt = -Infinity;
	/** Times of answers other than 429 within the last MAX_MEASURE_MS, oldest first. */
	private accepted: number[] = [];
	private acceptedStart = 0;
	private peakInFlight = 0;
	private cuts = 0;
	private throttled = 0;

	constructor(
		private readonly maxInFlight: number,
		private readonly onCut: (state: AdaptiveState) => void = () => {},
	) {}

	async acquire(): Promise<number> {
		await this.takeSlot();
		for (;;) {
			await this.pause.wait();
			const now = Date.now();
			if (this.rate === undefined) return now;
			const turn = Math.max(now, this.nextSendAt, this.pause.until);
			this.nextSendAt = turn + 1000 / this.rate;
			if (turn <= now) return now;
			await sleep(turn - now);
			if (this.pause.until <= Date.now()) return Date.now();
		}
	}

	release(sentAt: number, outcome: AttemptOutcome): void {
		// A freed slot passes straight to the next waiting attempt, so no newcomer can take it in between.
		const next = this.waitingForSlot.shift();
		if (next) next();
		else this.inFlight--;
		const now = Date.now();
		if (outcome === 'answered') {
			this.recordAccepted(now);
			if (this.rate !== undefined) this.rate = Math.max(MIN_RATE, this.cubicRate(now));
		} else if (outcome === 'throttled') {
			this.throttled++;
			if (sentAt >= this.cutAt) this.cut(now);
		}
	}

	pauseUntil(timestamp: number): void {
		this.pause.extend(timestamp);
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

	private async takeSlot(): Promise<void> {
		if (this.inFlight >= this.maxInFlight)
			await new Promise<void>((resolve) => this.waitingForSlot.push(resolve));
		else this.inFlight++;
		this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
	}

	private recordAccepted(now: number): void {
		this.accepted.push(now);
		while (this.accepted[this.acceptedStart] < now - MAX_MEASURE_MS) this.acceptedStart++;
		if (this.acceptedStart > 1024) {
			this.accepted = this.accepted.slice(this.acceptedStart);
			this.acceptedStart = 0;
		}
	}

	/**
	 * Requests per second the server accepted since the previous cut (within 1 to 10 s back). Between
	 * two 429s a token bucket was empty at both ends, so what it accepted in between, pauses included,
	 * is its refill rate.
	 */
	private acceptedRate(now: number): number {
		const span = Math.min(MAX_MEASURE_MS, Math.max(MIN_MEASURE_MS, now - this.cutAt));
		let count = 0;
		for (let i = this.accepted.length - 1; i >= this.acceptedStart; i--) {
			if (this.accepted[i] < now - span) break;
			count++;
		}
		return (count * 1000) / span;
	}

	private cut(now: number): void {
		const measured = this.acceptedRate(now);
		this.cubicPeak = Math.max(
			MIN_RATE,
			this.rate === undefined ? measured : Math.min(measured, this.rate),
		);
		this.rate = Math.max(MIN_RATE, this.cubicPeak * CUBIC_BETA);
		this.cutAt = now;
		this.cuts++;
		this.onCut(this.state());
	}

	/** CUBIC: back to the peak after K seconds, concave before it, convex beyond it. */
	private cubicRate(now: number): number {
		const k = Math.cbrt((this.cubicPeak * (1 - CUBIC_BETA)) / CUBIC_SCALE);
		const seconds = (now - this.cutAt) / 1000;
		return CUBIC_SCALE * (seconds - k) ** 3 + this.cubicPeak;
	}
}
