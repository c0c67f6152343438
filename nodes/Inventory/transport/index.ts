import type {
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

export const CREDENTIAL_TYPE = 'inventoryApi';

/** One write to the Inventory API, ready to send. */
export interface InventoryRequest {
	method: IHttpRequestMethods;
	/** Path below the base URL, e.g. `/api/v1/assets/12/todos`. */
	path: string;
	body: IDataObject;
	idempotencyKey: string;
	itemIndex: number;
	/** The permission the operation needs, named in 403 messages. */
	permission: string;
	/** The record in the path, named in 404 messages, e.g. `Asset 12`. */
	record: string;
}

/** The credential of a node run, read once. */
export interface InventoryConnection {
	baseUrl: string;
	token: string;
	credential: ICredentialsDecrypted;
}

export interface RetryPolicy {
	/** Retries after the first attempt, for 429, 5xx and network failures. */
	maxRetries: number;
	/** First back-off; doubled on each retry, with jitter. */
	baseDelayMs: number;
	/** Longest single wait, and the longest Retry-After that is honoured. */
	maxDelayMs: number;
	/** Per-attempt timeout. */
	timeoutMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
	maxRetries: 5,
	baseDelayMs: 1000,
	maxDelayMs: 30_000,
	timeoutMs: 30_000,
};

/**
 * One back-off shared by every request of a node run: when the API answers 429, no request of the run
 * is sent before the time it asked for, whatever the concurrency.
 */
export class RateLimitGate {
	private openAt = 0;

	closeUntil(timestamp: number): void {
		this.openAt = Math.max(this.openAt, timestamp);
	}

	async wait(): Promise<void> {
		for (let delay = this.openAt - Date.now(); delay > 0; delay = this.openAt - Date.now()) {
			await sleep(delay);
		}
	}
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

const RETRYABLE_MESSAGES = /socket hang up|timeout of \d+ms exceeded|network error|ECONNRESET/i;

interface NetworkFailure {
	code: string;
	retryable: boolean;
	/** The request may have reached the server, which may still be applying it. */
	fateUnknown: boolean;
}

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

/** Words for the codes, kept out of the message: n8n replaces a message naming a code with its own. */
const NETWORK_FAILURE_WORDS: Record<string, string> = {
	ECONNRESET: 'the connection was reset',
	ECONNREFUSED: 'the connection was refused',
	ECONNABORTED: 'no answer came within the timeout',
	ETIMEDOUT: 'no answer came within the timeout',
	ESOCKETTIMEDOUT: 'no answer came within the timeout',
	EPIPE: 'the connection was closed while sending',
	EAI_AGAIN: 'the host name could not be resolved for now',
	ENOTFOUND: 'the host name does not exist',
	ENETUNREACH: 'the network is unreachable',
	EHOSTUNREACH: 'the host is unreachable',
};

function networkFailure(error: unknown): NetworkFailure {
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

function headerValue(headers: IDataObject | undefined, name: string): string | undefined {
	if (!headers) return undefined;
	const wanted = name.toLowerCase();
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() === wanted) return Array.isArray(value) ? String(value[0]) : String(value);
	}
	return undefined;
}

/** Retry-After in milliseconds, from delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
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

const MAX_SNIPPET = 300;

function snippet(body: unknown): string {
	let text: string;
	if (typeof body === 'string') text = body;
	else if (Buffer.isBuffer(body)) text = body.toString('utf8', 0, MAX_SNIPPET * 4);
	else {
		try {
			text = JSON.stringify(body) ?? '';
		} catch {
			text = String(body);
		}
	}
	text = text.replace(/\s+/g, ' ').trim();
	return text.length > MAX_SNIPPET ? `${text.slice(0, MAX_SNIPPET)}… (${text.length} characters)` : text;
}

interface ApiErrorBody {
	message?: string;
	errors?: Record<string, unknown>;
}

function readErrorBody(body: unknown): ApiErrorBody {
	if (!body || typeof body !== 'object' || Array.isArray(body)) return {};
	const { message, errors } = body as { message?: unknown; errors?: unknown };
	return {
		message: typeof message === 'string' ? message : undefined,
		errors:
			errors && typeof errors === 'object' && !Array.isArray(errors)
				? (errors as Record<string, unknown>)
				: undefined,
	};
}

function fieldErrors(errors: Record<string, unknown>): string[] {
	return Object.entries(errors).map(([field, problems]) => {
		const list = Array.isArray(problems) ? problems.map(String) : [String(problems)];
		return `${field}: ${list.join(' ')}`;
	});
}

function retriesText(count: number): string {
	return `${count} ${count === 1 ? 'retry' : 'retries'}`;
}

/** Removes the token from any text that could reach a message, output or log. */
function redact(text: string, secret: string): string {
	return secret.length >= 4 ? text.split(secret).join('[redacted]') : text;
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
const NAMED_CONFLICT = /different request|already (been )?used|free|final|restor|earlier|newer|event.?date|plan limit/i;

interface FailureContext {
	request: InventoryRequest;
	retries: number;
	token: string;
}

function apiError(
	context: IExecuteFunctions,
	{ request, retries, token }: FailureContext,
	statusCode: number,
	body: unknown,
	extra: { retryAfterMs?: number; unansweredAttempt?: string } = {},
): NodeApiError {
	const { message: apiMessage, errors } = readErrorBody(body);
	const reason = apiMessage ? redact(apiMessage, token) : undefined;
	let message: string;
	let description: string | undefined;
	switch (true) {
		case statusCode === 401:
			message =
				'The Inventory API rejected the API token (401): it is missing, expired, revoked or not a customer API token';
			description =
				'Open the "Inventory API" credential of this node and enter a valid customer API token of your organization.';
			break;
		case statusCode === 403:
			message = `The API token lacks the permission this operation needs: ${request.permission} (403)`;
			description = `Give the token the "${request.permission}" permission (or administrator access where that is required), or use a token that has it.${reason ? ` The API said: ${reason}` : ''}`;
			break;
		case statusCode === 404:
			message = `${request.record} was not found in this token's organization (404)`;
			description = `Check the ID: records of other organizations are reported as not found.${reason ? ` The API said: ${reason}` : ''}`;
			break;
		case statusCode === 409 && extra.unansweredAttempt !== undefined: {
			message = `The Inventory API is still processing an earlier attempt of this request (409) after ${retriesText(retries)}`;
			description = `An earlier attempt got no answer (${extra.unansweredAttempt}) and the server still reports the request as in progress${reason ? ` ("${reason}")` : ''}. The Idempotency-Key ${request.idempotencyKey} is safe to retry: a retry (Retry On Fail, or n8n's Retry execution) replays the result once the server has finished, and never creates a second record. If the server is often this slow, raise the Timeout or Max Retries option.`;
			break;
		}
		case statusCode === 409: {
			message = `The Inventory API refused the change (409)${reason ? `: ${reason}` : ''}`;
			if (KEY_REUSED.test(reason ?? '')) {
				description = `The Idempotency-Key ${request.idempotencyKey} was already used for a different request. If you set the "Idempotency Key" option, give each distinct action its own value; if you edited this node and then retried an old execution, run the workflow anew instead.`;
			} else if (KEY_IN_FLIGHT.test(reason ?? '')) {
				description = `Another request with the same Idempotency-Key (${request.idempotencyKey}) is still being processed, e.g. two items with the same "Idempotency Key" option value at once. The key is safe to retry: once that request has finished, a retry replays its result.`;
			} else {
				description = 'The record changed or is in a state that does not allow this action. Refresh the record and try again.';
			}
			break;
		}
		case statusCode === 422: {
			const problems = errors ? fieldErrors(errors).map((line) => redact(line, token)) : [];
			message = `The Inventory API rejected the input (422)${reason ? `: ${reason}` : ''}`;
			description = problems.length
				? `Fields with problems: ${problems.join('; ')}`
				: 'Check the values of this item.';
			break;
		}
		case statusCode === 429: {
			const asked =
				extra.retryAfterMs !== undefined
					? ` The API asked to wait ${Math.ceil(extra.retryAfterMs / 1000)} s.`
					: '';
			message = `The Inventory API rate limit was reached (429) and persisted after ${retriesText(retries)}`;
			description = `Lower the node's Concurrency option or raise Max Retries / Max Retry Wait in its options.${asked}`;
			break;
		}
		case statusCode >= 500:
			message = `The Inventory API failed (${statusCode}) after ${retriesText(retries)}`;
			description = reason ?? redact(snippet(body), token);
			break;
		case statusCode >= 200 && statusCode < 300:
			message = `The Inventory API answered ${statusCode} without the expected JSON "data" object`;
			description = `Check the Base URL of the credential: it must point at the Inventory service. Response began with: ${redact(snippet(body), token) || '(empty body)'}`;
			break;
		default:
			message = `The Inventory API answered ${statusCode}${reason ? `: ${reason}` : ''}`;
			description = redact(snippet(body), token) || undefined;
	}
	const errorResponse: JsonObject = { httpCode: String(statusCode), message };
	if (reason) errorResponse.apiMessage = reason;
	return new NodeApiError(context.getNode(), errorResponse, {
		message,
		description,
		httpCode: String(statusCode),
		itemIndex: request.itemIndex,
	});
}

function isSuccess(statusCode: number): boolean {
	return statusCode >= 200 && statusCode < 300;
}

/**
 * Sends one write with its Idempotency-Key. 429, 5xx and network failures are retried with the same
 * key (so a retry replays instead of duplicating) up to the policy's budget, and so is a 409 that
 * answers a retry of an unanswered attempt (see NAMED_CONFLICT); other answers are final. Resolves to the response's `data` object.
 */
export async function sendInventoryRequest(
	this: IExecuteFunctions,
	request: InventoryRequest,
	connection: InventoryConnection,
	policy: RetryPolicy,
	gate: RateLimitGate,
): Promise<IDataObject> {
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${connection.baseUrl}${request.path}`,
		headers: {
			Accept: 'application/json',
			'Content-Type': 'application/json',
			'Idempotency-Key': request.idempotencyKey,
		},
		body: request.body,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: policy.timeoutMs,
	};

	/** Why the latest attempt that may have reached the server got no answer, if one did. */
	let unansweredAttempt: string | undefined;
	for (let retries = 0; ; retries++) {
		await gate.wait();
		const canRetry = retries < policy.maxRetries;
		let response: IN8nHttpFullResponse;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_TYPE,
				{ ...options, headers: { ...options.headers } },
				// n8n still authenticates the request from the credential type; handing it the credential
				// read once per run spares a credential load (a database read and decryption) per request.
				{ credentialsDecrypted: connection.credential },
			)) as IN8nHttpFullResponse;
		} catch (error) {
			const failure = networkFailure(error);
			if (failure.fateUnknown) unansweredAttempt = NETWORK_FAILURE_WORDS[failure.code] ?? 'the connection failed';
			if (failure.retryable && canRetry) {
				await sleep(backoffDelay(policy, retries));
				continue;
			}
			const what = NETWORK_FAILURE_WORDS[failure.code] ?? 'the request failed';
			const message = failure.retryable
				? `Could not reach the Inventory API after ${retriesText(retries)}: ${what}`
				: `The request to the Inventory API failed: ${what}`;
			throw new NodeApiError(
				this.getNode(),
				{ networkCode: failure.code, message },
				{
					message,
					description: `Network error ${failure.code}. Check the Base URL of the credential (${redact(connection.baseUrl, connection.token)}) and the network between n8n and the service. The same Idempotency-Key (${request.idempotencyKey}) is safe to retry.`,
					itemIndex: request.itemIndex,
				},
			);
		}

		const { statusCode, body, headers } = response;
		if (isSuccess(statusCode)) {
			const data = (body as { data?: unknown } | undefined)?.data;
			if (body && typeof body === 'object' && data && typeof data === 'object' && !Array.isArray(data)) {
				return data as IDataObject;
			}
			throw apiError(this, { request, retries, token: connection.token }, statusCode, body);
		}

		if (statusCode === 429) {
			const retryAfterMs = parseRetryAfter(headerValue(headers, 'retry-after'));
			const waitMs = retryAfterMs ?? backoffDelay(policy, retries);
			if (canRetry && waitMs <= policy.maxDelayMs) {
				gate.closeUntil(Date.now() + waitMs);
				continue;
			}
			throw apiError(this, { request, retries, token: connection.token }, statusCode, body, {
				retryAfterMs,
			});
		}

		if (statusCode === 409 && unansweredAttempt !== undefined) {
			const { message: apiMessage } = readErrorBody(body);
			if (!NAMED_CONFLICT.test(apiMessage ?? '')) {
				if (canRetry) {
					const retryAfterMs = parseRetryAfter(headerValue(headers, 'retry-after'));
					await sleep(Math.min(retryAfterMs ?? backoffDelay(policy, retries), policy.maxDelayMs));
					continue;
				}
				throw apiError(this, { request, retries, token: connection.token }, statusCode, body, {
					unansweredAttempt,
				});
			}
		}

		if (statusCode >= 500 && canRetry) {
			await sleep(backoffDelay(policy, retries));
			continue;
		}

		throw apiError(this, { request, retries, token: connection.token }, statusCode, body);
	}
}
