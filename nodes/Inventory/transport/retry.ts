import type { IDataObject } from 'n8n-workflow';

export interface RetryPolicy {
	/** Retries after the first attempt, for 429, 5xx, network failures and a 409 of a request in flight. */
	maxRetries: number;
	/** First back-off; doubled on each retry, with jitter. */
	baseDelayMs: number;
	/** Longest single wait, and the longest Retry-After that is honoured. */
	maxDelayMs: number;
	/** Per-attempt timeout. */
	timeoutMs: number;
}

const RETRYABLE_NETWORK_CODES = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'ECONNABORTED',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'EPIPE',
	'EAI_AGAIN',
	'ENETUNREACH',
	'EHOSTUNREACH',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
	'UND_ERR_SOCKET',
	'UND_ERR_CONNECT_TIMEOUT',
	'UND_ERR_HEADERS_TIMEOUT',
	'UND_ERR_BODY_TIMEOUT',
]);

/** Failures before the request could reach the server: nothing can be in flight after them. */
const NOT_SENT_CODES = new Set([
	'ECONNREFUSED',
	'EAI_AGAIN',
	'ENOTFOUND',
	'ENETUNREACH',
	'EHOSTUNREACH',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
	'UND_ERR_CONNECT_TIMEOUT',
]);

const RETRYABLE_MESSAGES = /socket hang up|timeout of \d+ms exceeded|network error|ECONNRESET/i;

export interface NetworkFailure {
	code: string;
	retryable: boolean;
	/** The request may have reached the server, which may still be applying it. */
	fateUnknown: boolean;
}

/** The class of a failure to get an answer, from the error's code (or its causes'), else its message. */
export function classifyNetworkFailure(error: unknown): NetworkFailure {
	const candidates: unknown[] = [];
	for (let current: unknown = error, depth = 0; current && depth < 4; depth++) {
		candidates.push(current);
		current = (current as { cause?: unknown }).cause;
	}
	for (const candidate of candidates) {
		const { code } = candidate as { code?: unknown };
		if (typeof code === 'string' && code !== '') {
			const retryable = RETRYABLE_NETWORK_CODES.has(code);
			return { code, retryable, fateUnknown: retryable && !NOT_SENT_CODES.has(code) };
		}
	}
	for (const candidate of candidates) {
		const { message } = candidate as { message?: unknown };
		if (typeof message === 'string' && RETRYABLE_MESSAGES.test(message)) {
			const code = /timeout/i.test(message) ? 'ETIMEDOUT' : 'ECONNRESET';
			return { code, retryable: true, fateUnknown: true };
		}
	}
	return { code: 'UNKNOWN', retryable: false, fateUnknown: false };
}

/*
 * The contract gives 409 no machine-readable codes, so a 409 is read by the request's own history first
 * and by its wording second. A 409 answering a retry whose earlier attempt got no answer (timed out,
 * reset, dropped) most likely means that attempt is still being applied: it is retried with the same
 * key, unless its message names one of the conflicts the contract lists (a key reused for a different
 * request, a free or final subscription, an event date older than a newer change, a plan limit).
 */
const NAMED_CONFLICT =
	/different request|already (been )?used|free|final|restor|earlier|newer|event.?date|plan limit/i;

/** A 409 meaning "an earlier attempt of this request is still being applied". */
export function isInFlightConflict(
	statusCode: number,
	apiMessage: string | undefined,
	unansweredAttempt: boolean,
): boolean {
	return statusCode === 409 && unansweredAttempt && !NAMED_CONFLICT.test(apiMessage ?? '');
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
	const date = Date.parse(text);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - now);
}

function backoffDelay(policy: RetryPolicy, retry: number): number {
	const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
	return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
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
}

/**
 * How long to wait before sending the same request again (same key) after this answer; undefined when
 * the answer is final: the retries are spent, or it needs a change, not patience (401, 403, 404, 422,
 * a named 409), or the API asks for a longer wait than the policy allows.
 */
export function retryWait(
	policy: RetryPolicy,
	retries: number,
	answer: FailedAnswer,
): number | undefined {
	if (retries >= policy.maxRetries) return undefined;
	const { statusCode, retryAfterMs, inFlight } = answer;
	if (statusCode === 429) {
		const waitMs = retryAfterMs ?? backoffDelay(policy, retries);
		return waitMs <= policy.maxDelayMs ? waitMs : undefined;
	}
	if (inFlight) return Math.min(retryAfterMs ?? backoffDelay(policy, retries), policy.maxDelayMs);
	if (statusCode >= 500) return backoffDelay(policy, retries);
	return undefined;
}
