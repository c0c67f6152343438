import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { InventoryRequest } from './request';
import {
	isCertificateFailure,
	networkCodeWords,
	readConflict,
	type NetworkFailure,
} from './failures';

/** Removes the token from any text that could reach a message, output or log. */
function redact(text: string, secret: string): string {
	return secret.length >= 4 ? text.split(secret).join('[redacted]') : text;
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

/** An error body's fields, when it is a JSON object. */
function errorBody(body: unknown): { message?: unknown; errors?: unknown } {
	return body && typeof body === 'object' && !Array.isArray(body) ? body : {};
}

/** The `message` of an error body, when it has one. */
export function apiMessageOf(body: unknown): string | undefined {
	const { message } = errorBody(body);
	return typeof message === 'string' ? message : undefined;
}

/** The per-field problems of a 422 body's `errors` object, one line a field. */
function fieldProblems(body: unknown): string[] {
	const { errors } = errorBody(body);
	if (!errors || typeof errors !== 'object' || Array.isArray(errors)) return [];
	return Object.entries(errors).map(([field, problems]) => {
		const list = Array.isArray(problems) ? problems.map(String) : [String(problems)];
		return `${field}: ${list.join(' ')}`;
	});
}

const retriesText = (count: number) => `${count} ${count === 1 ? 'retry' : 'retries'}`;

/** What the wording of a failed answer can draw on; `reason` and `excerpt` are redacted. */
interface Answer {
	request: InventoryRequest;
	retries: number;
	statusCode: number;
	reason?: string;
	excerpt: string;
	problems: string[];
	retryAfterMs?: number;
	/** The option named in the 429 advice: Concurrency or Max Concurrency. */
	concurrencyOption: string;
	/** The network code of an earlier attempt that got no answer, when this 409 means it is still applied. */
	unansweredAttempt?: string;
}

type Wording = { message: string; description?: string };

const saidSo = (reason?: string) => (reason ? ` The API said: ${reason}` : '');
const colonReason = (reason?: string) => (reason ? `: ${reason}` : '');

function conflictWording({ request, reason, retries, unansweredAttempt }: Answer): Wording {
	const key = request.idempotencyKey;
	const message = `The Inventory API refused the change (409)${colonReason(reason)}`;
	switch (readConflict(reason, unansweredAttempt !== undefined)) {
		case 'earlierAttemptInFlight':
			return {
				message: `The Inventory API is still processing an earlier attempt of this request (409) after ${retriesText(retries)}`,
				description: `An earlier attempt got no answer (${networkCodeWords(unansweredAttempt ?? '') ?? 'the connection failed'}) and the server still reports the request as in progress${reason ? ` ("${reason}")` : ''}. The Idempotency-Key ${key} is safe to retry: a retry (Retry On Fail, or n8n's Retry execution) replays the result once the server has finished, and never creates a second record. If the server is often this slow, raise the Timeout or Max Retries option.`,
			};
		case 'keyReused':
			return {
				message,
				description: `The Idempotency-Key ${key} was already used for a different request. If the key comes from your data (Repeat Protection's Key Columns or Row Key, or the "Idempotency Key" option), this row was booked before with other values and the API keeps that booking: give a distinct action its own key value; if you edited this node and then retried an old execution, run the workflow anew instead.`,
			};
		case 'keyInFlight':
			return {
				message,
				description: `Another request with the same Idempotency-Key (${key}) is still being processed, e.g. two items with the same "Idempotency Key" option value at once. The key is safe to retry: once that request has finished, a retry replays its result.`,
			};
		case 'recordState':
			return {
				message,
				description:
					'The record changed or is in a state that does not allow this action. Refresh the record and try again.',
			};
	}
}

/** What each status means for the user, and what to do about it. */
const WORDING_BY_STATUS: Record<number, (answer: Answer) => Wording> = {
	401: () => ({
		message:
			'The Inventory API rejected the API token (401): it is missing, expired, revoked or not a customer API token',
		description:
			'Open the "Inventory API" credential of this node and enter a valid customer API token of your organization.',
	}),
	403: ({ request, reason }) => ({
		message: `The API token lacks the permission this operation needs: ${request.permission} (403)`,
		description: `Give the token the "${request.permission}" permission (or administrator access where that is required), or use a token that has it.${saidSo(reason)}`,
	}),
	404: ({ request, reason }) => ({
		message: `${request.record} was not found in this token's organization (404)`,
		description: `Check the ID: records of other organizations are reported as not found.${saidSo(reason)}`,
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

function wordingOf(answer: Answer): Wording {
	const { statusCode, reason } = answer;
	const byStatus = WORDING_BY_STATUS[statusCode];
	if (byStatus) return byStatus(answer);
	if (statusCode >= 500) {
		return {
			message: `The Inventory API failed (${statusCode}) after ${retriesText(answer.retries)}`,
			description: reason ?? answer.excerpt,
		};
	}
	if (statusCode >= 200 && statusCode < 300) {
		return {
			message: `The Inventory API answered ${statusCode} without the expected JSON "data" object`,
			description: `Check the Base URL of the credential: it must point at the Inventory service. Response began with: ${answer.excerpt || '(empty body)'}`,
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
	> & { body: unknown },
): NodeApiError {
	const apiMessage = apiMessageOf(failed.body);
	const reason = apiMessage ? redact(apiMessage, token) : undefined;
	const problems = fieldProblems(failed.body).map((line) => redact(line, token));
	const { message, description } = wordingOf({
		...failed,
		reason,
		problems,
		excerpt: redact(excerpt(failed.body), token),
	});
	const errorResponse: JsonObject = { httpCode: String(failed.statusCode), message };
	if (reason) errorResponse.apiMessage = reason;
	return new NodeApiError(node, errorResponse, {
		message,
		description,
		httpCode: String(failed.statusCode),
		itemIndex: failed.request.itemIndex,
	});
}

/** The item's error when no answer came; `baseUrl` is shown, redacted. */
export function networkError(
	node: INode,
	token: string,
	baseUrl: string,
	failed: { request: InventoryRequest; retries: number; failure: NetworkFailure },
): NodeApiError {
	const { request, retries, failure } = failed;
	const key = request.idempotencyKey;
	const url = redact(baseUrl, token);
	const what =
		failure.what ?? redact(excerpt(failure.originalMessage ?? 'an error without a message'), token);
	let message: string;
	if (!failure.retryable) message = `The request to the Inventory API failed: ${what}`;
	else if (failure.fateUnknown)
		message = `No answer from the Inventory API after ${retriesText(retries)}: ${what}`;
	else message = `Could not reach the Inventory API after ${retriesText(retries)}: ${what}`;

	const check = isCertificateFailure(failure.code)
		? `The server at ${url} uses a certificate n8n does not trust (self-signed or from a private certificate authority). Give n8n the authority's certificate with the environment variable NODE_EXTRA_CA_CERTS, or turn on "Ignore SSL Issues (Insecure)" in the credential.`
		: `Network failure ${failure.code}. Check the Base URL of the credential (${url}) and the network between n8n and the service.`;
	const fate = failure.fateUnknown
		? `The request may have reached the API and been applied. The same Idempotency-Key (${key}) replays it, so Retry On Fail or Retry execution is safe: it never creates a second record.`
		: `Nothing was sent to the Inventory API; a retry sends the same Idempotency-Key (${key}).`;
	return new NodeApiError(
		node,
		{ networkCode: failure.code, message },
		{ message, description: `${check} ${fate}`, itemIndex: request.itemIndex },
	);
}
