import type { IDataObject } from 'n8n-workflow';

import { apiErrorBody, apiMessageOf, successData } from './answerBody';
import { classifyNetworkFailure, type NetworkFailure } from './networkFailure';
import { isRedirectStatus, locationOf } from './redirect';

/*
 * What one attempt's result means, decided here once: by its status, whose body it is and the
 * request's own history. Whether it is retried, how the rate counts it and what is known of the
 * request's fate (policy/rules.ts), and the words the item's error has (wording/failureWording.ts)
 * are each a table of rules by kind of result, so they cannot disagree.
 */

/** Who gave an answer: the Inventory API (its JSON), or another server at the Base URL. */
type Answerer = 'api' | 'otherServer';

interface Answered {
	statusCode: number;
	body: unknown;
	answeredBy: Answerer;
	/** An earlier attempt of this request got no answer: it may have been applied. */
	earlierUnanswered: boolean;
}

export type AttemptResult =
	/** A 2xx with the API's `data` envelope. */
	| (Answered & { kind: 'success'; data: IDataObject })
	/** 429: the server holds requests back, the API itself or a gateway in front of it. */
	| (Answered & { kind: 'rateLimited'; retryAfterMs?: number })
	/** A 5xx of the API, or a gateway's 502, 503 or 504 while the service behind it is unreachable. */
	| (Answered & { kind: 'serverError' })
	/** A 409: an earlier attempt of this request got no answer and is still being applied. */
	| (Answered & { kind: 'earlierAttemptInFlight'; retryAfterMs?: number; unansweredCode: string })
	/** A 409: another request with this key (the same row from another item or execution) is under way. */
	| (Answered & { kind: 'keyInFlight' })
	/** A 409: the key was used before for a different request. */
	| (Answered & { kind: 'keyReused' })
	/**
	 * The API refused the request: 401, 403, 404, 422, a 409 of the record (`conflict`), or any other
	 * status that is no success.
	 */
	| (Answered & { kind: 'rejected'; conflict?: RecordConflict })
	/**
	 * Something else than the API answered (a web page, another service, a success without the API's
	 * envelope); `anonymousStatus`: what a request without a token got at the Base URL, when that
	 * showed it.
	 */
	| (Answered & { kind: 'notTheApi'; anonymousStatus?: number })
	/**
	 * A 2xx without the API's `data` object from a server that may be the API (a request without a
	 * token was answered as the API answers it, or not at all): the request may have been applied.
	 */
	| (Answered & { kind: 'successWithoutData' })
	/**
	 * A 3xx: the server at the Base URL points elsewhere (`location`, its Location header). No redirect
	 * is followed, so nothing went to that target: not the request, not the token.
	 */
	| (Answered & { kind: 'redirected'; location?: string })
	/** No answer came. */
	| { kind: 'networkFailure'; failure: NetworkFailure; earlierUnanswered: boolean };

type AttemptKind = AttemptResult['kind'];

/** The result of kind `K`. */
export type ResultOf<K extends AttemptKind> = Extract<AttemptResult, { kind: K }>;
/** A result of an attempt that got an answer. */
type AnsweredResult = Exclude<AttemptResult, { kind: 'networkFailure' }>;
/** A result that ends the request unless it is retried: anything but a success. */
export type Failure = Exclude<AttemptResult, { kind: 'success' }>;
export type AnsweredFailure = Exclude<Failure, { kind: 'networkFailure' }>;

/** A rule for each kind of result, `K`: one table per rule, every kind in it. */
export type RuleTable<T, K extends AttemptKind = AttemptKind, A extends unknown[] = []> = {
	[Kind in K]: (result: ResultOf<Kind>, ...args: A) => T;
};

/** The table's rule for this result's kind, applied to it. */
export function applyRule<T, K extends AttemptKind, A extends unknown[]>(
	table: RuleTable<T, K, A>,
	result: ResultOf<K>,
	...args: A
): T {
	const rule = table[result.kind as K] as (result: ResultOf<K>, ...args: A) => T;
	return rule(result, ...args);
}

/**
 * Statuses that gateways and load balancers in front of a service answer with a page of their own
 * while the service is briefly unreachable or overloaded. They are retried (same key) whatever their
 * body; any other answer that is not the API's fails at once: waiting does not change an address.
 */
const GATEWAY_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

export function isGatewayStatus(statusCode: number): boolean {
	return GATEWAY_STATUSES.has(statusCode);
}

/*
 * The contract gives 409 no machine-readable codes, so a 409 is read by the request's own history first
 * and by its wording second. A 409 answering a retry whose earlier attempt got no answer (timed out,
 * reset, dropped) most likely means that attempt is still being applied: it is retried with the same
 * key, unless its message names one of the conflicts the contract lists (a key reused for a different
 * request, a free or final subscription, an event date older than a newer change, a plan limit).
 */
const KEY_REUSED = /different request|already (been )?used/i;
const KEY_IN_FLIGHT = /still (being )?process|in progress|in flight|in-flight/i;
const RECORD_CONFLICT = /free|final|restor|earlier|newer|event.?date|plan limit/i;
/** The contract's one 409 about the event date: one earlier than a newer change of the record. */
const EVENT_DATE = /event.?date/i;

/** A 409 of the record itself. */
type RecordConflict =
	/** The event date sent is earlier than a newer change of the record: a later event date is needed. */
	| 'eventDate'
	/** The record's state does not allow the change. */
	| 'recordState';

/** What a 409 means. */
type ConflictReading = 'earlierAttemptInFlight' | 'keyReused' | 'keyInFlight' | RecordConflict;

export function readConflict(
	apiMessage: string | undefined,
	afterUnansweredAttempt: boolean,
): ConflictReading {
	const reason = apiMessage ?? '';
	if (KEY_REUSED.test(reason)) return 'keyReused';
	if (afterUnansweredAttempt && !RECORD_CONFLICT.test(reason)) return 'earlierAttemptInFlight';
	if (KEY_IN_FLIGHT.test(reason)) return 'keyInFlight';
	if (EVENT_DATE.test(reason)) return 'eventDate';
	return 'recordState';
}

/** The API's 409, by its reading. */
function conflictResult(
	answered: Answered,
	unansweredCode: string | undefined,
	retryAfterMs: number | undefined,
): AnsweredResult {
	const reading = readConflict(apiMessageOf(answered.body), unansweredCode !== undefined);
	switch (reading) {
		case 'earlierAttemptInFlight':
			return { ...answered, kind: reading, retryAfterMs, unansweredCode: unansweredCode ?? '' };
		case 'keyReused':
		case 'keyInFlight':
			return { ...answered, kind: reading };
		default:
			return { ...answered, kind: 'rejected', conflict: reading };
	}
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
 * What an answer means. `unansweredCode`: the network code of the latest earlier attempt of this
 * request that may have reached the server and got no answer.
 */
export function classifyAnswer(
	answer: { statusCode: number; body: unknown; headers?: IDataObject },
	unansweredCode?: string,
): AnsweredResult {
	const { statusCode, body } = answer;
	const earlierUnanswered = unansweredCode !== undefined;
	if (isRedirectStatus(statusCode))
		return {
			kind: 'redirected',
			statusCode,
			body,
			answeredBy: 'otherServer',
			earlierUnanswered,
			location: locationOf(answer.headers),
		};
	const success = statusCode >= 200 && statusCode < 300;
	const data = success ? successData(body) : undefined;
	if (data)
		return { kind: 'success', statusCode, body, answeredBy: 'api', earlierUnanswered, data };
	const fromApi = !success && apiErrorBody(body) !== undefined;
	const answered: Answered = {
		statusCode,
		body,
		answeredBy: fromApi ? 'api' : 'otherServer',
		earlierUnanswered,
	};
	// Another server's answer (a web page, another service) does not change by waiting; a gateway's may.
	if (!fromApi && !isGatewayStatus(statusCode)) return { ...answered, kind: 'notTheApi' };
	const retryAfterMs = parseRetryAfter(answer.headers);
	if (statusCode === 429) return { ...answered, kind: 'rateLimited', retryAfterMs };
	if (statusCode >= 500) return { ...answered, kind: 'serverError' };
	if (statusCode === 409) return conflictResult(answered, unansweredCode, retryAfterMs);
	return { ...answered, kind: 'rejected' };
}

/** What an attempt that got no answer means; `unansweredCode` as for classifyAnswer. */
export function classifyNoAnswer(error: unknown, unansweredCode?: string): Failure {
	return {
		kind: 'networkFailure',
		failure: classifyNetworkFailure(error),
		earlierUnanswered: unansweredCode !== undefined,
	};
}

/** A JSON 404 with a message: another service may answer so too (n8n at its own address). */
export function mayBeAnotherService(result: Failure): result is ResultOf<'rejected'> {
	return result.kind === 'rejected' && result.statusCode === 404;
}

/** The answer after all came from another server: the Base URL answered `anonymousStatus` to a request without a token. */
export function notTheApiAfterAll(result: AnsweredFailure, anonymousStatus: number): Failure {
	const { statusCode, body, earlierUnanswered } = result;
	return {
		kind: 'notTheApi',
		statusCode,
		body,
		answeredBy: 'otherServer',
		earlierUnanswered,
		anonymousStatus,
	};
}

/** A 2xx without the API's `data` object: the API itself may have sent it (a request without a token tells). */
export function mayBeSuccessWithoutData(result: Failure): result is ResultOf<'notTheApi'> {
	return (
		result.kind === 'notTheApi' &&
		result.anonymousStatus === undefined &&
		result.statusCode >= 200 &&
		result.statusCode < 300
	);
}

/** The 2xx without `data` came, as far as a request without a token tells, from the API. */
export function successWithoutData(result: ResultOf<'notTheApi'>): Failure {
	const { statusCode, body, earlierUnanswered } = result;
	return { kind: 'successWithoutData', statusCode, body, answeredBy: 'api', earlierUnanswered };
}
