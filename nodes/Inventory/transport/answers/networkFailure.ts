/*
 * What the node reads from an attempt that got no answer: the error's network code (or its causes',
 * or its message): whether sending the same request again may succeed, and whether it may have
 * reached the server.
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

/**
 * axios' code for an answer whose body broke off after its headers (the connection closed or was
 * reset mid-body): "stream has been aborted", "aborted", "terminated". The request reached the server,
 * which may have applied it, and a retry with the same key replays it. axios gives other bad answers
 * the same code (a body over its size limit, JSON it could not parse): those are not retried.
 */
const BODY_CUT_OFF = /aborted|terminated|premature|socket hang up|ECONNRESET/i;
const CUT_OFF: NetworkCode = {
	retryable: true,
	notSent: false,
	what: 'the answer broke off before its end',
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
	if (codes[0] === 'ERR_BAD_RESPONSE' && messages.some((text) => BODY_CUT_OFF.test(text)))
		return tableFailure(codes[0], CUT_OFF);
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
