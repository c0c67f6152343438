import type { RequestFate } from '../../model/itemFailure';
import type { AttemptOutcome } from '../../scheduling/throttle';
import {
	applyRule,
	type AttemptResult,
	type Failure,
	type ResultOf,
	type RuleTable,
} from '../answers/attemptResult';

/*
 * What each kind of result an attempt can have (answers/attemptResult.ts) leads to: one table per
 * rule, each with a line for every kind, so that the compiler refuses a table that leaves one out.
 * RETRY: whether and when the same request is sent again (and how Max Retries' description names what
 * is retried); RATE_OUTCOME: how the rate counts it; FATE: what is known of the request's fate when it
 * was the last.
 */

export interface RetryPolicy {
	/** Retries after the first attempt, for the results RETRY retries. */
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

/** A kind of result after which the same request goes again (same key). */
interface Retried<K extends Failure['kind']> {
	/** The result as Max Retries' description names what is retried. */
	after: string;
	/** How long to wait first, on its `retry` (0 for the first retry); undefined: not this time. */
	wait: (result: ResultOf<K>, policy: RetryPolicy, retry: number) => number | undefined;
}

/** The result needs a change, not patience. */
const FINAL = 'final';

/** Whether and when the same request goes again after each kind of result. */
const RETRY: { [K in Failure['kind']]: Retried<K> | typeof FINAL } = {
	rateLimited: {
		after: 'a rate limit (429)',
		// The server's own wait, else a back-off; a longer one than the policy allows ends the item.
		wait: ({ retryAfterMs }, policy, retry) => {
			const waitMs = retryAfterMs ?? backoffDelay(policy, retry);
			return waitMs <= policy.maxDelayMs ? waitMs : undefined;
		},
	},
	serverError: {
		after: 'a server failure (5xx)',
		wait: (_result, policy, retry) => backoffDelay(policy, retry),
	},
	networkFailure: {
		after: 'a network failure',
		wait: ({ failure }, policy, retry) =>
			failure.retryable ? backoffDelay(policy, retry) : undefined,
	},
	earlierAttemptInFlight: {
		// Only ever read after an attempt got no answer: the retry of that network failure, still waiting.
		after: 'a network failure',
		// The server is still applying this request: a wait shorter than the bound would only spend a
		// retry before the work is done (jitter spreads clients that failed together; this one waits
		// for itself).
		wait: ({ retryAfterMs }, policy, retry) =>
			Math.min(retryAfterMs ?? backoffBound(policy, retry), policy.maxDelayMs),
	},
	keyInFlight: FINAL,
	keyReused: FINAL,
	rejected: FINAL,
	notTheApi: FINAL,
	// Another address answers for this one: waiting does not change it, and its target is never asked.
	redirected: FINAL,
	// The same answer would come again; the item's error says the key replays it.
	successWithoutData: FINAL,
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
	const rule = RETRY[result.kind] as Retried<Failure['kind']> | typeof FINAL;
	return rule === FINAL ? undefined : rule.wait(result, policy, retries);
}

/** `a, b or c` */
const listed = (words: string[]) =>
	words.length > 1
		? `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`
		: words.join('');

/** What is retried, as Max Retries' description says: `a rate limit (429), a server failure (5xx) or a network failure`. */
export const RETRIED_AFTER = listed([
	...new Set(Object.values(RETRY).flatMap((rule) => (rule === FINAL ? [] : [rule.after]))),
]);

const answered = (): AttemptOutcome => 'answered';

/**
 * How the rate counts each kind of result: the server took the request (`answered`), held it back
 * (`throttled`), failed (which says nothing of its speed), or gave no answer.
 */
const RATE_OUTCOME: RuleTable<AttemptOutcome> = {
	success: answered,
	rateLimited: () => 'throttled',
	serverError: () => 'failed',
	earlierAttemptInFlight: answered,
	keyInFlight: answered,
	keyReused: answered,
	rejected: answered,
	notTheApi: ({ statusCode }) => (statusCode >= 500 ? 'failed' : 'answered'),
	redirected: answered,
	successWithoutData: answered,
	networkFailure: () => 'unanswered',
};

export function rateOutcome(result: AttemptResult): AttemptOutcome {
	return applyRule(RATE_OUTCOME, result);
}

/**
 * The fate `fate` tells of this attempt, unless an earlier attempt got no answer: that one may have
 * been applied. (A refusal that read the key, a 409 or another 4xx, rules it out; a 429 does not.)
 */
const unlessEarlierUnanswered =
	<R extends Failure>(fate: (result: R) => RequestFate) =>
	(result: R): RequestFate =>
		result.earlierUnanswered ? 'mayHaveBeenApplied' : fate(result);

/** What is known of the request's fate when its last attempt had this kind of result. */
const FATE: RuleTable<RequestFate, Failure['kind']> = {
	rateLimited: unlessEarlierUnanswered(({ answeredBy }) =>
		answeredBy === 'api' ? 'rejected' : 'notSent',
	),
	serverError: () => 'mayHaveBeenApplied',
	earlierAttemptInFlight: () => 'mayHaveBeenApplied',
	keyInFlight: () => 'mayHaveBeenApplied',
	keyReused: () => 'rejected',
	rejected: () => 'rejected',
	notTheApi: unlessEarlierUnanswered(() => 'notSent'),
	// The server at the Base URL only pointed elsewhere, and nothing was sent there.
	redirected: unlessEarlierUnanswered(() => 'notSent'),
	// A success status: the API may have applied it, only its answer cannot be read.
	successWithoutData: () => 'mayHaveBeenApplied',
	networkFailure: unlessEarlierUnanswered(({ failure }) =>
		failure.fateUnknown ? 'mayHaveBeenApplied' : 'notSent',
	),
};

/** The fate of a request whose last attempt had this result. */
export function fateOf(result: Failure): RequestFate {
	return applyRule(FATE, result);
}
