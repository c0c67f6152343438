import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { redact } from './connection';
import type { InventoryRequest } from './request';
import {
	answerFate,
	apiErrorBody,
	bodyKind,
	FATE_WORDS,
	isCertificateFailure,
	isGatewayStatus,
	networkCodeWords,
	readConflict,
	type NetworkFailure,
	type RequestFate,
} from './outcome';

/** What a failed item's error item carries besides the message: what a user needs to fix or retry the row. */
export interface FailureDetails {
	/** The HTTP status, when a server answered. */
	status: number | null;
	/** The API's own message, when the Inventory API answered. */
	apiMessage: string | null;
	/** The API's per-field reasons, nested fields as dotted paths (`field_values.5`). */
	reasons: Record<string, string>;
	fate: RequestFate;
	/** The key that replays the request, when it was built. */
	idempotencyKey: string | null;
}

const detailsOfErrors = new WeakMap<Error, FailureDetails>();

/** The details of an error this module made; undefined for any other error. */
export function failureDetailsOf(error: Error): FailureDetails | undefined {
	return detailsOfErrors.get(error);
}

function withDetails<E extends Error>(error: E, details: FailureDetails): E {
	detailsOfErrors.set(error, details);
	return error;
}

const MAX_EXCERPT = 300;

/** The start of a body, on one line, for a message. */
function excerpt(body: unknown): string {
	let text: string;
	if (typeof body === 'string') text = body;
	else if (Buffer.isBuffer(body)) text = body.toString('utf8', 0, MAX_EXCERPT * 4);
	else {
		try {
			text = JSON.stringify(body) ?? '';
		} catch {
			text = String(body);
		}
	}
	text = text.replace(/\s+/g, ' ').trim();
	return text.length > MAX_EXCERPT
		? `${text.slice(0, MAX_EXCERPT)}… (${text.length} characters)`
		: text;
}

/** The `message` of an error body of the API, when it is one. */
export function apiMessageOf(body: unknown): string | undefined {
	return apiErrorBody(body)?.message;
}

const MAX_REASONS = 50;
const MAX_DEPTH = 6;

/** Collects the problems under `value` as [dotted path, text] pairs; nested objects and lists become paths. */
function collectProblems(value: unknown, path: string, into: Array<[string, string]>, depth = 0) {
	if (into.length >= MAX_REASONS) return;
	if (Array.isArray(value)) {
		const texts: string[] = [];
		value.forEach((entry, index) => {
			if (entry && typeof entry === 'object' && depth < MAX_DEPTH)
				collectProblems(entry, path ? `${path}.${index}` : String(index), into, depth + 1);
			else texts.push(String(entry));
		});
		if (texts.length > 0) into.push([path, texts.join(' ')]);
	} else if (value && typeof value === 'object' && depth < MAX_DEPTH) {
		for (const [key, entry] of Object.entries(value))
			collectProblems(entry, path ? `${path}.${key}` : key, into, depth + 1);
	} else if (value !== undefined) {
		into.push([path, typeof value === 'object' ? JSON.stringify(value) : String(value)]);
	}
}

/** The per-field problems of a 422 body's `errors` object, nested ones as dotted paths (`field_values.5`). */
export function fieldReasons(body: unknown): Record<string, string> {
	const errors = apiErrorBody(body)?.errors;
	if (!errors || typeof errors !== 'object' || Array.isArray(errors)) return {};
	const pairs: Array<[string, string]> = [];
	collectProblems(errors, '', pairs);
	return Object.fromEntries(pairs);
}

/** A message names its item, as the node's own messages do: `… [item 3]`. */
const ofItem = (message: string, request: InventoryRequest) =>
	`${message} [item ${request.itemIndex}]`;

const retriesText = (count: number) => `${count} ${count === 1 ? 'retry' : 'retries'}`;

/** What the wording of a failed answer can draw on; `reason` and `excerpt` are redacted. */
interface Answer {
	request: InventoryRequest;
	retries: number;
	statusCode: number;
	reason?: string;
	excerpt: string;
	problems: string[];
	/** The credential's Base URL, redacted, named when the answer is not the API's. */
	baseUrl: string;
	/** What the body is when it is not the API's answer, e.g. "an HTML page"; undefined when it is. */
	notApi?: string;
	/** The status a request without a token got at the Base URL, when that showed it is not the API. */
	anonymousStatus?: number;
	retryAfterMs?: number;
	/** The option named in the 429 advice: Fixed Concurrency or Max Automatic Concurrency. */
	concurrencyOption: string;
	/** The network code of an earlier attempt that got no answer, when this 409 means it is still applied. */
	unansweredAttempt?: string;
}

type Wording = { message: string; description?: string };

const saidSo = (reason?: string) => (reason ? ` The API said: ${reason}` : '');
const colonReason = (reason?: string) => (reason ? `: ${reason}` : '');

/** A timestamp in an API message, e.g. the record's last change in a 409 about the event date. */
const TIMESTAMP_IN_TEXT =
	/\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/;

const RECORD_STATE =
	'The record changed or is in a state that does not allow this action. Refresh the record and try again.';

/**
 * A 409 for an event date earlier than a newer change of the record: refreshing the record changes
 * nothing, so the message shows the Event Date that was sent, and the fix is a later one.
 */
function eventDateWording({ request, reason }: Answer): Wording | undefined {
	const sent = request.body.event_date;
	if (typeof sent !== 'string') return undefined;
	const lastChange = TIMESTAMP_IN_TEXT.exec(reason ?? '')?.[0];
	const epoch = sent.startsWith('1970-')
		? " A date in 1970 is what a small number read as a Unix time gives, e.g. a spreadsheet's day number (46346 for 2026-11-20) converted with DateTime.fromSeconds: check the expression that gives Event Date."
		: '';
	return {
		message: `The Event Date sent, ${sent}, is before the last change of ${request.record}${lastChange ? ` (${lastChange})` : ''}: the Inventory API refused it (409)`,
		description: `An event cannot be dated before a later change of its record, so refreshing the record changes nothing: give a later Event Date${lastChange ? `, at or after ${lastChange}` : ''}, or leave Event Date empty to date the event now.${epoch}${lastChange ? '' : saidSo(reason)}`,
	};
}

/**
 * A 409 for a key used before with other values. Keyed by the row, it means this step booked this row
 * on this record before with other values (a row corrected after it was booked, the node's fixed
 * values edited, or a step of the same name in a copy of the workflow): the first booking stands.
 */
function keyReusedWording({ request, reason }: Answer, refused: string): Wording {
	const key = request.idempotencyKey;
	const booked = `The Inventory API refused this row (409): this step booked ${request.record} for the same row before, with other values, and keeps that booking`;
	switch (request.keyedBy) {
		case 'keyColumns':
		case 'rowKey': {
			const [where, ownKey] =
				request.keyedBy === 'keyColumns'
					? ['Key Columns', 'add a column such as a revision to Key Columns']
					: ['the Row Key', 'add a part such as a revision to the Row Key'];
			return {
				message: booked,
				description: `The Idempotency-Key ${key} is this row's (${where}, with this node's name, the operation and the record), and the first booking with it stands: the API does not change it. If the row was corrected after it was booked, correct the record in Inventory; to book the corrected row as an action of its own, give it a key of its own (${ownKey}). If another node of the same name, e.g. in a copy of this workflow, booked other values for this row, rename one of the two.${saidSo(reason)}`,
			};
		}
		case 'noKeyColumns':
			return {
				message: booked,
				description: `Key Columns is empty, so this step acts once per record and the Idempotency-Key ${key} is the same for every row on ${request.record}; the first booking stands. To book each row, name the input column that identifies a row in Key Columns (e.g. po_number).${saidSo(reason)}`,
			};
		default:
			return {
				message: refused,
				description: `The Idempotency-Key ${key} was already used for a different request, and the first booking with it stands. If you edited this node and then retried an old execution, run the workflow anew instead.`,
			};
	}
}

function conflictWording(answer: Answer): Wording {
	const { request, reason, retries, unansweredAttempt } = answer;
	const key = request.idempotencyKey;
	const message = `The Inventory API refused the change (409)${colonReason(reason)}`;
	switch (readConflict(reason, unansweredAttempt !== undefined)) {
		case 'earlierAttemptInFlight':
			return {
				message: `The Inventory API is still processing an earlier attempt of this request (409) after ${retriesText(retries)}`,
				description: `An earlier attempt got no answer (${networkCodeWords(unansweredAttempt ?? '') ?? 'the connection failed'}) and the server still reports the request as in progress${reason ? ` ("${reason}")` : ''}. The Idempotency-Key ${key} is safe to retry: a retry (Retry On Fail, or n8n's Retry execution) replays the result once the server has finished, and never creates a second record. If the server is often this slow, raise the Timeout or Max Retries option.`,
			};
		case 'keyReused':
			return keyReusedWording(answer, message);
		case 'keyInFlight':
			return {
				message,
				description: `Another request with the same Idempotency-Key (${key}) is still being processed, e.g. the same row sent by another execution at the same moment. The key is safe to retry: once that request has finished, a retry replays its result.`,
			};
		case 'eventDate':
			return eventDateWording(answer) ?? { message, description: RECORD_STATE };
		case 'recordState':
			return { message, description: RECORD_STATE };
	}
}

/** What each status means for the user, and what to do about it. */
const WORDING_BY_STATUS: Record<number, (answer: Answer) => Wording> = {
	401: ({ reason }) => ({
		message: `The Inventory API rejected the API token (401)${colonReason(reason ?? 'it is missing, expired, revoked or not a customer API token')}`,
		description:
			'The API refuses a token that is missing, expired, revoked or not a customer API token. Open the "Inventory API" credential of this node and enter a valid customer API token of your organization (its Test button checks it).',
	}),
	403: ({ request, reason }) => ({
		message: `The API token lacks the permission this operation needs: ${request.permission} (403)`,
		description: `Give the token the "${request.permission}" permission (or administrator access where that is required), or use a token that has it.${saidSo(reason)}`,
	}),
	404: ({ request, reason }) => ({
		message: `${request.record} was not found in this token's organization (404)`,
		description: `Check the ID: records of other organizations are reported as not found. If every item fails so, check the credential's Base URL (its Test button tells).${saidSo(reason)}`,
	}),
	409: conflictWording,
	422: ({ reason, problems }) => ({
		message: `The Inventory API rejected the input (422)${colonReason(reason)}`,
		description: problems.length
			? `Fields with problems: ${problems.join('; ')}`
			: 'Check the values of this item.',
	}),
	429: ({ retries, retryAfterMs, concurrencyOption }) => ({
		message: `The Inventory API rate limit was reached (429) and persisted after ${retriesText(retries)}`,
		description: `Lower the node's ${concurrencyOption} option or raise Max Retries / Max Retry Wait in its options.${retryAfterMs !== undefined ? ` The API asked to wait ${Math.ceil(retryAfterMs / 1000)} s.` : ''}`,
	}),
};

const CHECK_BASE_URL = (baseUrl: string) =>
	`Open the "Inventory API" credential of this node and check its Base URL (${baseUrl || 'empty'}): it must be the address of your Inventory service, e.g. https://inventory.example.com (a trailing /api/v1 is fine). The credential's Test button tells whether it leads to the Inventory API.`;

/** An answer that is not the Inventory API's: the Base URL leads elsewhere, or a gateway answered for it. */
function notApiWording(answer: Answer & { notApi: string }): Wording {
	const { statusCode, notApi, baseUrl, retries } = answer;
	const began = answer.excerpt ? ` The answer began with: ${answer.excerpt}` : '';
	if (answer.anonymousStatus !== undefined) {
		return {
			message: `The credential's Base URL does not lead to the Inventory API: it answered ${statusCode}${answer.reason ? ` ("${answer.reason}")` : ''}, and ${answer.anonymousStatus} to a request without a token, where the Inventory API answers 401`,
			description: `${CHECK_BASE_URL(baseUrl)} Nothing reached the Inventory API.`,
		};
	}
	const answered = `The server at the credential's Base URL answered ${statusCode} with ${notApi}, not the Inventory API's JSON`;
	if (isGatewayStatus(statusCode)) {
		return {
			message: `${answered}, after ${retriesText(retries)}`,
			description: `A proxy or gateway in front of the service may be failing; a retry sends the same Idempotency-Key (${answer.request.idempotencyKey}). If this persists: ${CHECK_BASE_URL(baseUrl)}${began}`,
		};
	}
	return {
		message: answered,
		description: `${CHECK_BASE_URL(baseUrl)} Nothing reached the Inventory API.${began}`,
	};
}

function wordingOf(answer: Answer): Wording {
	const { statusCode, reason, notApi } = answer;
	if (notApi !== undefined) return notApiWording({ ...answer, notApi });
	const byStatus = WORDING_BY_STATUS[statusCode];
	if (byStatus) return byStatus(answer);
	if (statusCode >= 500) {
		return {
			message: `The Inventory API failed (${statusCode}) after ${retriesText(answer.retries)}`,
			description: reason ?? answer.excerpt,
		};
	}
	return {
		message: `The Inventory API answered ${statusCode}${colonReason(reason)}`,
		description: answer.excerpt || undefined,
	};
}

/** The item's error for an answer that is not a usable success; the token never appears in it. */
export function answerError(
	node: INode,
	token: string,
	failed: Pick<
		Answer,
		| 'request'
		| 'retries'
		| 'statusCode'
		| 'retryAfterMs'
		| 'concurrencyOption'
		| 'unansweredAttempt'
	> & {
		body: unknown;
		baseUrl?: string;
		/** An earlier attempt of this request got no answer (it may have been applied). */
		earlierUnanswered?: boolean;
		/** The status a request without a token got at the Base URL, when that showed it is not the API. */
		anonymousStatus?: number;
	},
): NodeApiError {
	const success = failed.statusCode >= 200 && failed.statusCode < 300;
	// A success without the `data` envelope, or an error without the API's JSON message, is not the
	// API's; nor is a JSON error from an address that does not answer as the API (checkApiAddress).
	const fromApi =
		!success && apiErrorBody(failed.body) !== undefined && failed.anonymousStatus === undefined;
	const apiMessage = apiMessageOf(failed.body);
	const reason = apiMessage ? redact(apiMessage, token) : undefined;
	const reasons = Object.fromEntries(
		Object.entries(fieldReasons(failed.body)).map(([field, text]) => [
			redact(field, token),
			redact(text, token),
		]),
	);
	const wording = wordingOf({
		...failed,
		reason,
		problems: Object.entries(reasons).map(([field, text]) => `${field}: ${text}`),
		baseUrl: redact(failed.baseUrl ?? '', token),
		notApi: fromApi ? undefined : bodyKind(failed.body),
		anonymousStatus: failed.anonymousStatus,
		excerpt: redact(excerpt(failed.body), token),
	});
	const message = ofItem(wording.message, failed.request);
	const { description } = wording;
	const errorResponse: JsonObject = { httpCode: String(failed.statusCode), message };
	if (reason) errorResponse.apiMessage = reason;
	const error = new NodeApiError(node, errorResponse, {
		message,
		description,
		httpCode: String(failed.statusCode),
		itemIndex: failed.request.itemIndex,
	});
	return withDetails(error, {
		status: failed.statusCode,
		apiMessage: fromApi ? (reason ?? null) : null,
		reasons,
		fate: answerFate({
			statusCode: failed.statusCode,
			fromApi,
			apiMessage,
			earlierUnanswered: failed.earlierUnanswered === true,
		}),
		idempotencyKey: failed.request.idempotencyKey,
	});
}

/** The item's error when no answer came; `baseUrl` is shown, redacted. */
export function networkError(
	node: INode,
	token: string,
	baseUrl: string,
	failed: {
		request: InventoryRequest;
		retries: number;
		failure: NetworkFailure;
		/** An earlier attempt of this request got no answer (it may have been applied). */
		earlierUnanswered?: boolean;
	},
): NodeApiError {
	const { request, retries, failure } = failed;
	const mayHaveBeenApplied = failure.fateUnknown || failed.earlierUnanswered === true;
	const key = request.idempotencyKey;
	const url = redact(baseUrl, token);
	const what =
		failure.what ?? redact(excerpt(failure.originalMessage ?? 'an error without a message'), token);
	let message: string;
	if (!failure.retryable) message = `The request to the Inventory API failed: ${what}`;
	else if (failure.fateUnknown)
		message = `No answer from the Inventory API after ${retriesText(retries)}: ${what}`;
	else message = `Could not reach the Inventory API after ${retriesText(retries)}: ${what}`;
	message = ofItem(message, request);

	const check = isCertificateFailure(failure.code)
		? `The server at ${url} uses a certificate n8n does not trust (self-signed or from a private certificate authority). Give n8n the authority's certificate with the environment variable NODE_EXTRA_CA_CERTS, or turn on "Ignore SSL Issues (Insecure)" in the credential.`
		: `Network failure ${failure.code}. Check the Base URL of the credential (${url}) and the network between n8n and the service.`;
	const fate = mayHaveBeenApplied
		? `The request may have reached the API and been applied. The same Idempotency-Key (${key}) replays it, so Retry On Fail or Retry execution is safe: it never creates a second record.`
		: `Nothing was sent to the Inventory API; a retry sends the same Idempotency-Key (${key}).`;
	const error = new NodeApiError(
		node,
		{ networkCode: failure.code, message },
		{ message, description: `${check} ${fate}`, itemIndex: request.itemIndex },
	);
	return withDetails(error, {
		status: null,
		apiMessage: null,
		reasons: {},
		fate: mayHaveBeenApplied ? 'mayHaveBeenApplied' : 'notSent',
		idempotencyKey: key,
	});
}

export { FATE_WORDS, type RequestFate };
