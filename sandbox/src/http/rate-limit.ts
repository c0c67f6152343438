/**
 * The sandbox's own rate limit (not a fault): a token bucket per organization, as a gateway in front
 * of the real service would keep. Buckets start full and refill on the monotonic clock, so the
 * sandbox clock (the `now` option) does not affect them.
 */
import { performance } from 'node:perf_hooks';

import type { ActiveRateLimit, RateLimitBucketView, RateLimitConfig } from '../types';

interface Bucket {
	tokens: number;
	refilledAtMs: number;
}

function isPositiveFinite(value: unknown): value is number {
	return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

/** The limit with its burst resolved, or null (off); throws an Error with a readable message when malformed. */
export function validateRateLimit(input: unknown): ActiveRateLimit | null {
	if (input === null || input === undefined) return null;
	if (typeof input !== 'object' || Array.isArray(input))
		throw new Error('the rate limit must be an object {"ratePerSecond": number, "burst"?: number}');
	const { ratePerSecond, burst, ...unknownOptions } = input as Record<string, unknown>;
	const unknownNames = Object.keys(unknownOptions);
	if (unknownNames.length > 0)
		throw new Error(
			`unknown rate limit option ${unknownNames.join(', ')} (known: ratePerSecond, burst)`,
		);
	if (!isPositiveFinite(ratePerSecond))
		throw new Error('ratePerSecond must be a positive finite number');
	// A bucket smaller than one token would refuse every request forever.
	if (burst !== undefined && !(isPositiveFinite(burst) && burst >= 1))
		throw new Error('burst must be a finite number of at least 1');
	return { ratePerSecond, burst: burst ?? Math.max(1, ratePerSecond) };
}

export class RateLimiter {
	private limit: ActiveRateLimit | null = null;
	private readonly buckets = new Map<number, Bucket>();

	get(): ActiveRateLimit | null {
		return this.limit ? { ...this.limit } : null;
	}

	/**
	 * Takes effect at once. While the limit stays on, each bucket keeps its tokens (capped at the new
	 * burst), so a rate changed mid-run does not hand out a fresh burst. null turns it off.
	 */
	set(config: RateLimitConfig | null): void {
		const next = validateRateLimit(config);
		const previous = this.limit;
		if (next && previous) {
			for (const organizationId of this.buckets.keys()) {
				const bucket = this.refilled(organizationId, previous);
				bucket.tokens = Math.min(bucket.tokens, next.burst);
			}
		} else this.buckets.clear();
		this.limit = next;
	}

	/** Every bucket full again (reset); the limit stays. */
	refillAll(): void {
		this.buckets.clear();
	}

	/** Takes a token of the organization: null when it had one (or the limit is off), else Retry-After in whole seconds (at least 1). */
	take(organizationId: number): number | null {
		const limit = this.limit;
		if (!limit) return null;
		const bucket = this.refilled(organizationId, limit);
		if (bucket.tokens >= 1) {
			bucket.tokens -= 1;
			return null;
		}
		return Math.max(1, Math.ceil((1 - bucket.tokens) / limit.ratePerSecond));
	}

	bucketViews(organizationIds: number[]): RateLimitBucketView[] {
		const limit = this.limit;
		if (!limit) return [];
		return organizationIds.map((organizationId) => ({
			organization_id: organizationId,
			tokens: Math.round(this.refilled(organizationId, limit).tokens * 1000) / 1000,
		}));
	}

	/** The organization's bucket, refilled at `limit` up to now (a new bucket is full). */
	private refilled(organizationId: number, limit: ActiveRateLimit): Bucket {
		const nowMs = performance.now();
		const bucket = this.buckets.get(organizationId);
		if (!bucket) {
			const full = { tokens: limit.burst, refilledAtMs: nowMs };
			this.buckets.set(organizationId, full);
			return full;
		}
		const refill = ((nowMs - bucket.refilledAtMs) / 1000) * limit.ratePerSecond;
		bucket.tokens = Math.min(limit.burst, bucket.tokens + refill);
		bucket.refilledAtMs = nowMs;
		return bucket;
	}
}
