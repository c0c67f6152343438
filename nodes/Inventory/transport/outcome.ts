/*
 * What a failure tells the node: a network failure's code, and a 409's reading. Both the retry policy
 * and the wording of the item's error read them here, so they cannot disagree.
 */

/** What the node knows of an attempt that got no answer. */
export interface NetworkFailure {
	/** The error's code (Node's, axios' or undici's), `UNKNOWN` when it has none. */
	code: string;
	/** Sending the same request again (same key) may succeed. */
	retryable: boolean;
	/** The request may have reached the server, which may have applied it or still be applying it. */
	fateUnknown: boolean;
	/** What happened, in words; undefined for a code this table does not know. */
	what?: string;
	/** The error's own message, for a code this table does not know (not redacted yet). */
	originalMessage?: string;
}

interface NetworkCode {
	retryable: boolean;
	/** The request never reached the server (no connection, no address): nothing can have been applied. */
	notSent: boolean;
	/** Kept out of the item's message as a code: n8n replaces a message naming a code with its own. */
	what: string;
}

const TIMED_OUT = 'no answer came within the timeout';
const CONNECT_TIMED_OUT = 'no connection could be opened within the timeout';

/** Every network code the node reads; any other keeps its original message. */
const NETWORK_CODES: Readonly<Record<string, NetworkCode>> = {
	// Never reached the server.
	ECONNREFUSED: { retryable: true, notSent: true, what: 'the connection was refused' },
	EAI_AGAIN: {
		retryable: true,
		notSent: true,
		what: 'the host name could not be resolved for now',
	},
	ENOTFOUND: { retryable: false, notSent: true, what: 'the host name does not exist' },
	ENETUNREACH: { retryable: true, notSent: true, what: 'the network is unreachable' },
	EHOSTUNREACH: { retryable: true, notSent: true, what: 'the host is unreachable' },
	ERR_SOCKET_CONNECTION_TIMEOUT: { retryable: true, notSent: true, what: CONNECT_TIMED_OUT },
	UND_ERR_CONNECT_TIMEOUT: { retryable: true, notSent: true, what: CONNECT_TIMED_OUT },
	// Sent, or perhaps sent, and unanswered.
	ECONNRESET: { retryable: true, notSent: false, what: 'the connection was reset' },
	ECONNABORTED: { retryable: true, notSent: false, what: TIMED_OUT },
	ETIMEDOUT: { retryable: true, notSent: false, what: TIMED_OUT },
	ESOCKETTIMEDOUT: { retryable: true, notSent: false, what: TIMED_OUT },
	UND_ERR_HEADERS_TIMEOUT: { retryable: true, notSent: false, what: TIMED_OUT },
	UND_ERR_BODY_TIMEOUT: {
		retryable: true,
		notSent: false,
		what: 'the answer did not arrive in full within the timeout',
	},
	EPIPE: { retryable: true, notSent: false, what: 'the connection was closed while sending' },
	UND_ERR_SOCKET: { retryable: true, notSent: false, what: 'the connection was closed' },
};

/** Node's codes for a server certificate that does not verify (self-signed, unknown issuer, expired, wrong name). */
const CERTIFICATE_FAILURE = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/;

export function isCertificateFailure(code: string): boolean {
	return CERTIFICATE_FAILURE.test(code);
}

/** Messages of errors without a code that mean the attempt got no answer. */
const UNANSWERED_MESSAGE = /socket hang up|timeout of \d+ms exceeded|network error|ECONNRESET/i;

function tableFailure(code: string, { retryable, notSent, what }: NetworkCode): NetworkFailure {
	return { code, retryable, fateUnknown: !notSent, what };
}

function fromCode(code: string): NetworkFailure | undefined {
	if (Object.hasOwn(NETWORK_CODES, code)) return tableFailure(code, NETWORK_CODES[code]);
	if (isCertificateFailure(code)) {
		// The TLS handshake failed: no HTTP request was sent.
		const what = `its certificate could not be verified (${code})`;
		return { code, retryable: false, fateUnknown: false, what };
	}
	return undefined;
}

/** The words for a network code, when the table knows it. */
export function networkCodeWords(code: string): string | undefined {
	return fromCode(code)?.what;
}

/** Reads a failure to get an answer from the error's code (or its causes'), else its message. */
export function classifyNetworkFailure(error: unknown): NetworkFailure {
	const candidates: unknown[] = [];
	for (let current: unknown = error, depth = 0; current && depth < 4; depth++) {
		candidates.push(current);
		current = (current as { cause?: unknown }).cause;
	}
	const messages = candidates
		.map((candidate) => (candidate as { message?: unknown }).message)
		.filter((message): message is string => typeof message === 'string' && message !== '');
	const codes = candidates
		.map((candidate) => (candidate as { code?: unknown }).code)
		.filter((code): code is string => typeof code === 'string' && code !== '');
	// The outermost code decides.
	const known = codes.length > 0 ? fromCode(codes[0]) : undefined;
	if (known) return known;
	const unanswered = codes.length === 0 && messages.find((text) => UNANSWERED_MESSAGE.test(text));
	if (unanswered) {
		const code = /timeout/i.test(unanswered) ? 'ETIMEDOUT' : 'ECONNRESET';
		return tableFailure(code, NETWORK_CODES[code]);
	}
	// Unknown: whether it reached the server cannot be told, and retrying it blindly could loop.
	return {
		code: codes[0] ?? 'UNKNOWN',
		retryable: false,
		fateUnknown: true,
		originalMessage: messages[0],
	};
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

/** What a 409 means. */
export type ConflictReading =
	/** An earlier attempt of this request got no answer and is still being applied: retry, same key. */
	| 'earlierAttemptInFlight'
	/** The key was used before for a different request. */
	| 'keyReused'
	/** Another request with this key (e.g. the same Row Key on two items, or the same row sent by two executions) is under way. */
	| 'keyInFlight'
	/** The event date sent is earlier than a newer change of the record: a later event date is needed. */
	| 'eventDate'
	/** The record's state does not allow the change. */
	| 'recordState';

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

/** A 409 meaning "an earlier attempt of this request is still being applied": retried with the same key. */
export function isInFlightConflict(
	statusCode: number,
	apiMessage: string | undefined,
	afterUnansweredAttempt: boolean,
): boolean {
	return (
		statusCode === 409 &&
		readConflict(apiMessage, afterUnansweredAttempt) === 'earlierAttemptInFlight'
	);
}

/*
 * Whether an answer comes from the Inventory API. The contract makes every response JSON, wraps every
 * success in a `data` object and gives every error body a `message`. Anything else (an HTML page, a
 * text, an empty body, JSON of another shape) comes from something else at the Base URL: a web server,
 * another service, a proxy with a page of its own.
 */

/** A JSON object, also when it arrived as text (a server that does not say it sends JSON). */
function jsonObject(body: unknown): Record<string, unknown> | undefined {
	let value = body;
	if (typeof value === 'string' && /^\s*\{/.test(value)) {
		try {
			value = JSON.parse(value);
		} catch {
			return undefined;
		}
	}
	return value && typeof value === 'object' && !Array.isArray(value) && !Buffer.isBuffer(value)
		? (value as Record<string, unknown>)
		: undefined;
}

/** The body of an error answer of the Inventory API: a JSON object with a `message`. */
export function apiErrorBody(body: unknown): { message: string; errors?: unknown } | undefined {
	const object = jsonObject(body);
	return object && typeof object.message === 'string'
		? (object as { message: string; errors?: unknown })
		: undefined;
}

/** Whether an answer that is not a success is the Inventory API's own. */
export function isApiError(body: unknown): boolean {
	return apiErrorBody(body) !== undefined;
}

/** What a body that is not the API's is, in words. */
export function bodyKind(body: unknown): string {
	if (body === undefined || body === '') return 'an empty body';
	if (typeof body !== 'string' && !Buffer.isBuffer(body)) return 'JSON of another shape';
	const text = Buffer.isBuffer(body) ? body.toString('utf8', 0, 2000) : String(body);
	if (jsonObject(text)) return 'JSON of another shape';
	if (/^\s*</.test(text) || /<html|<!doctype/i.test(text)) return 'an HTML page';
	return text.trim() === '' ? 'an empty body' : 'a text';
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

/** What is known of a failed request's fate, as the error item reports it. */
export type RequestFate =
	/** It never reached the Inventory API (not sent, or sent to a server that is not the API): nothing applied. */
	| 'notSent'
	/** The API answered and refused it: nothing applied. */
	| 'rejected'
	/** It may have been applied (no answer, a server failure, an attempt still in progress): the same key replays it. */
	| 'mayHaveBeenApplied';

export const FATE_WORDS: Readonly<Record<RequestFate, string>> = {
	notSent: 'The request never reached the Inventory API: nothing was applied.',
	rejected: 'The Inventory API refused the request: nothing was applied.',
	mayHaveBeenApplied:
		'The request may have reached the Inventory API and been applied; the same Idempotency-Key replays it instead of applying it twice.',
};

/** The fate of a request whose last attempt got this answer. */
export function answerFate(answer: {
	statusCode: number;
	fromApi: boolean;
	/** The API's message, for a 409's reading. */
	apiMessage?: string;
	/** An earlier attempt of the same request got no answer and may have been applied. */
	earlierUnanswered: boolean;
}): RequestFate {
	const { statusCode, fromApi, apiMessage, earlierUnanswered } = answer;
	if (earlierUnanswered && (statusCode === 429 || statusCode >= 500 || !fromApi))
		return 'mayHaveBeenApplied';
	if (!fromApi)
		return isGatewayStatus(statusCode) && statusCode !== 429 ? 'mayHaveBeenApplied' : 'notSent';
	if (statusCode >= 500) return 'mayHaveBeenApplied';
	if (statusCode === 409) {
		const reading = readConflict(apiMessage, earlierUnanswered);
		if (reading === 'earlierAttemptInFlight' || reading === 'keyInFlight')
			return 'mayHaveBeenApplied';
	}
	return 'rejected';
}
