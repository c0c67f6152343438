import { applyRule, type Failure, type RuleTable } from '../answers/attemptResult';

export interface RetryPolicy {
	/** Retries after the first attempt, for 429, 5xx, network failures and a 409 of a request in flight. */
	maxRetries: number;
	/** The bound of the first back-off; doubled on each retry, each wait a random time up to its bound. */
	baseDelayMs: number;
	/** Longest single wait, and the longest Retry-After that is honoured. */
	maxDelayMs: number;
	/** Per-attempt timeout. */
	timeoutMs: number;
	/** The option that sets how many requests go out at once (Fixed Concurrency or Max Automatic Concurrency), named after a lasting 429. */
	concurrencyOption: string;
}

/**
 * Exponential back-off with full jitter: a random wait up to Retry Delay x 2^retry (at most Max Retry
 * Wait). Clients that failed together spread over the whole span, and an item that meets a second
 * 5xx waits 1.5 x Retry Delay on average instead of 2.25 x (equal jitter, half the span fixed).
 */
function backoffDelay(policy: RetryPolicy, retry: number): number {
	return Math.round(Math.random() * backoffBound(policy, retry));
}

/** Retry Delay x 2^retry, at most Max Retry Wait. */
function backoffBound(policy: RetryPolicy, retry: number): number {
	return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
}

/** The result needs a change, not patience. */
const final = () => undefined;

/**
 * How long to wait before the same request goes again (same key) after each kind of result, on its
 * `retry` (0 for the first retry); undefined: the result is final.
 */
const RETRY_WAIT: RuleTable<number | undefined, Failure['kind'], [RetryPolicy, number]> = {
	// The server's own wait, else a back-off; a longer one than the policy allows ends the item.
	rateLimited: ({ retryAfterMs }, policy, retry) => {
		const waitMs = retryAfterMs ?? backoffDelay(policy, retry);
		return waitMs <= policy.maxDelayMs ? waitMs : undefined;
	},
	serverError: (_result, policy, retry) => backoffDelay(policy, retry),
	// The server is still applying this request: a wait shorter than the bound would only spend a retry
	// before the work is done (jitter spreads clients that failed together; this one waits for itself).
	earlierAttemptInFlight: ({ retryAfterMs }, policy, retry) =>
		Math.min(retryAfterMs ?? backoffBound(policy, retry), policy.maxDelayMs),
	networkFailure: ({ failure }, policy, retry) =>
		failure.retryable ? backoffDelay(policy, retry) : undefined,
	keyInFlight: final,
	keyReused: final,
	rejected: final,
	notTheApi: final,
	// Another address answers for this one: waiting does not change it, and its target is never asked.
	redirected: final,
	// The same answer would come again; the item's error says the key replays it.
	successWithoutData: final,
};

/**
 * How long to wait before sending the same request again (same key) after this result; undefined when
 * it is final: the retries are spent, or the table says so.
 */
export function retryWait(
	policy: RetryPolicy,
	retries: number,
	result: Failure,
): number | undefined {
	if (retries >= policy.maxRetries) return undefined;
	return applyRule(RETRY_WAIT, result, policy, retries);
}
