import type { IDataObject } from 'n8n-workflow';

import { isGatewayStatus, type NetworkFailure } from './outcome';

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

function headerValue(headers: IDataObject | undefined, name: string): string | undefined {
	if (!headers) return undefined;
	const wanted = name.toLowerCase();
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() === wanted)
			return Array.isArray(value) ? String(value[0]) : String(value);
	}
	return undefined;
}

/** Retry-After in milliseconds, from delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(
	headers: IDataObject | undefined,
	now = Date.now(),
): number | undefined {
	const value = headerValue(headers, 'retry-after');
	if (value === undefined) return undefined;
	const text = value.trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
	// An HTTP-date names its day or month; Date.parse alone would take "-5" for the year -5.
	const date = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - now);
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

/** How long to wait before sending the same request again after it got no answer; undefined when final. */
export function networkRetryWait(
	policy: RetryPolicy,
	retries: number,
	failure: NetworkFailure,
): number | undefined {
	return failure.retryable && retries < policy.maxRetries
		? backoffDelay(policy, retries)
		: undefined;
}

/** An answer that is not a success, as the retry policy sees it. */
export interface FailedAnswer {
	statusCode: number;
	retryAfterMs: number | undefined;
	inFlight: boolean;
	/** The body is the Inventory API's (JSON with a message); false for a page of another server. */
	fromApi?: boolean;
}

/**
 * How long to wait before sending the same request again (same key) after this answer; undefined when
 * the answer is final: the retries are spent, or it needs a change, not patience (401, 403, 404, 422,
 * a named 409, a server that is not the API), or the API asks for a longer wait than the policy allows.
 */
export function retryWait(
	policy: RetryPolicy,
	retries: number,
	answer: FailedAnswer,
): number | undefined {
	if (retries >= policy.maxRetries) return undefined;
	const { statusCode, retryAfterMs, inFlight } = answer;
	// Another server's answer (a web page, another service) does not change by waiting; a gateway's may.
	if (answer.fromApi === false && !isGatewayStatus(statusCode)) return undefined;
	if (statusCode === 429) {
		const waitMs = retryAfterMs ?? backoffDelay(policy, retries);
		return waitMs <= policy.maxDelayMs ? waitMs : undefined;
	}
	// The server is still applying this request: a wait shorter than the bound would only spend a retry
	// before the work is done (jitter spreads clients that failed together; this one waits for itself).
	if (inFlight) return Math.min(retryAfterMs ?? backoffBound(policy, retries), policy.maxDelayMs);
	if (statusCode >= 500) return backoffDelay(policy, retries);
	return undefined;
}
