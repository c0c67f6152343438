/**
 * Deterministic fault injection. Each decision is drawn from a PRNG seeded by
 * (config seed, fault kind, Idempotency-Key, attempt number of that key), so a run is reproducible
 * even when requests arrive concurrently. No key gets more than maxFaultsPerKey injected faults.
 */
import {
	FAULT_KINDS,
	OPERATIONS,
	type FaultConfig,
	type FaultKind,
	type Operation,
} from '../types';

export const DEFAULT_MAX_FAULTS_PER_KEY = 3;
export const DEFAULT_SLOW_RESPONSE_DELAY_MS = 5000;
export const DEFAULT_HOLD_IN_FLIGHT_MS = 5000;
export const DEFAULT_SERVER_ERROR_STATUS = 503;

function fnv1a(s: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < s.length; i++) {
		h ^= s.charCodeAt(i);
		h = Math.imul(h, 0x01000193);
	}
	return h >>> 0;
}

/** mulberry32: a small seedable PRNG; returns a function yielding numbers in [0, 1). */
export function mulberry32(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

function unit(seed: number, kind: FaultKind, key: string, attempt: number): number {
	return mulberry32(fnv1a(`${seed}|${kind}|${key}|${attempt}`))();
}

/** Throws an Error with a readable message when the config is malformed. */
export function validateFaultConfig(input: unknown): FaultConfig | null {
	if (input === null || input === undefined) return null;
	if (typeof input !== 'object' || Array.isArray(input))
		throw new Error('fault config must be an object or null');
	const c = input as Record<string, unknown>;
	const known = [
		'seed',
		'operations',
		'latencyMs',
		'rateLimit',
		'serverErrorRate',
		'serverErrorStatus',
		'resetBeforeApplyRate',
		'dropAfterApplyRate',
		'slowResponseRate',
		'slowResponseDelayMs',
		'holdInFlightRate',
		'holdInFlightMs',
		'maxFaultsPerKey',
		'processingDelayMs',
	];
	for (const k of Object.keys(c))
		if (!known.includes(k))
			throw new Error(`unknown fault option ${k} (known: ${known.join(', ')})`);
	const nonNegInt = (k: string) => {
		if (c[k] !== undefined && (!Number.isInteger(c[k]) || (c[k] as number) < 0))
			throw new Error(`${k} must be a non-negative integer`);
	};
	const rate = (k: string) => {
		if (
			c[k] !== undefined &&
			(typeof c[k] !== 'number' || (c[k] as number) < 0 || (c[k] as number) > 1)
		) {
			throw new Error(`${k} must be a number between 0 and 1`);
		}
	};
	[
		'seed',
		'latencyMs',
		'slowResponseDelayMs',
		'holdInFlightMs',
		'maxFaultsPerKey',
		'processingDelayMs',
	].forEach(nonNegInt);
	[
		'serverErrorRate',
		'resetBeforeApplyRate',
		'dropAfterApplyRate',
		'slowResponseRate',
		'holdInFlightRate',
	].forEach(rate);
	if (c.serverErrorStatus !== undefined) {
		if (
			!Number.isInteger(c.serverErrorStatus) ||
			(c.serverErrorStatus as number) < 500 ||
			(c.serverErrorStatus as number) > 599
		) {
			throw new Error('serverErrorStatus must be an integer 500..599');
		}
	}
	if (c.operations !== undefined) {
		if (
			!Array.isArray(c.operations) ||
			c.operations.some((o) => !OPERATIONS.includes(o as Operation))
		) {
			throw new Error(`operations must be an array of ${OPERATIONS.join(', ')}`);
		}
	}
	if (c.rateLimit !== undefined && c.rateLimit !== null) {
		const r = c.rateLimit as Record<string, unknown>;
		if (typeof r !== 'object' || !Number.isInteger(r.requests) || (r.requests as number) < 0) {
			throw new Error('rateLimit.requests must be a non-negative integer');
		}
		if (!Number.isInteger(r.windowMs) || (r.windowMs as number) <= 0)
			throw new Error('rateLimit.windowMs must be a positive integer');
		if (
			r.retryAfterSeconds !== undefined &&
			(!Number.isInteger(r.retryAfterSeconds) || (r.retryAfterSeconds as number) < 0)
		) {
			throw new Error('rateLimit.retryAfterSeconds must be a non-negative integer');
		}
	}
	return JSON.parse(JSON.stringify(c)) as FaultConfig;
}

const RATE_OPTION = {
	serverError: 'serverErrorRate',
	resetBeforeApply: 'resetBeforeApplyRate',
	dropAfterApply: 'dropAfterApplyRate',
	slowResponse: 'slowResponseRate',
	holdInFlight: 'holdInFlightRate',
} as const;

export function zeroFaultCounters(): Record<FaultKind, number> {
	return Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
}

/** The fault decisions for one request. */
export class FaultPlan {
	constructor(
		private readonly engine: FaultEngine,
		private readonly config: FaultConfig,
		private readonly key: string,
		private readonly attempt: number,
	) {}

	get latencyMs(): number {
		return this.config.latencyMs ?? 0;
	}

	get processingDelayMs(): number {
		return this.config.processingDelayMs ?? 0;
	}

	/** Seconds for Retry-After when this request is over the rate limit, else null. */
	rateLimited(nowMs: number): number | null {
		const r = this.config.rateLimit;
		if (!r) return null;
		const retryAfter = this.engine.countInWindow(nowMs, r.windowMs, r.requests);
		if (retryAfter === null || !this.engine.capAllows(this.key, this.config)) return null;
		this.engine.recordFault(this.key, 'rateLimited');
		return r.retryAfterSeconds ?? retryAfter;
	}

	/** Decides a rate-based fault; records it when it fires. */
	fires(kind: keyof typeof RATE_OPTION): boolean {
		const rate = this.config[RATE_OPTION[kind]] ?? 0;
		if (rate <= 0 || !this.engine.capAllows(this.key, this.config)) return false;
		if (unit(this.config.seed ?? 1, kind, this.key, this.attempt) >= rate) return false;
		this.engine.recordFault(this.key, kind);
		return true;
	}

	recordLatency(): void {
		this.engine.recordLatency();
	}

	get serverErrorStatus(): number {
		return this.config.serverErrorStatus ?? DEFAULT_SERVER_ERROR_STATUS;
	}

	get slowResponseDelayMs(): number {
		return this.config.slowResponseDelayMs ?? DEFAULT_SLOW_RESPONSE_DELAY_MS;
	}

	get holdInFlightMs(): number {
		return this.config.holdInFlightMs ?? DEFAULT_HOLD_IN_FLIGHT_MS;
	}
}

export class FaultEngine {
	private config: FaultConfig | null = null;
	counters = zeroFaultCounters();
	private readonly faultsByKey = new Map<string, number>();
	private readonly attempts = new Map<string, number>();
	private window: { start: number; count: number } | null = null;

	set(config: FaultConfig | null): void {
		this.config = validateFaultConfig(config);
		this.window = null;
	}

	get(): FaultConfig | null {
		return this.config ? (JSON.parse(JSON.stringify(this.config)) as FaultConfig) : null;
	}

	/** Forgets counters, per-key fault counts and the rate-limit window (the config stays). */
	resetCounters(): void {
		this.counters = zeroFaultCounters();
		this.faultsByKey.clear();
		this.attempts.clear();
		this.window = null;
	}

	/** A plan for a request of `operation`, or null when no fault applies to it. */
	plan(operation: Operation, key: string): FaultPlan | null {
		const c = this.config;
		if (!c) return null;
		if (c.operations && !c.operations.includes(operation)) return null;
		const attempt = (this.attempts.get(key) ?? 0) + 1;
		this.attempts.set(key, attempt);
		return new FaultPlan(this, c, key, attempt);
	}

	capAllows(key: string, c: FaultConfig): boolean {
		return (this.faultsByKey.get(key) ?? 0) < (c.maxFaultsPerKey ?? DEFAULT_MAX_FAULTS_PER_KEY);
	}

	recordFault(key: string, kind: FaultKind): void {
		this.faultsByKey.set(key, (this.faultsByKey.get(key) ?? 0) + 1);
		this.counters[kind]++;
	}

	recordLatency(): void {
		this.counters.latency++;
	}

	/** Counts a request in the fixed window; returns Retry-After seconds when over the limit, else null. */
	countInWindow(nowMs: number, windowMs: number, limit: number): number | null {
		if (!this.window || nowMs - this.window.start >= windowMs)
			this.window = { start: nowMs, count: 0 };
		this.window.count++;
		if (this.window.count <= limit) return null;
		return Math.max(1, Math.ceil((this.window.start + windowMs - nowMs) / 1000));
	}
}
