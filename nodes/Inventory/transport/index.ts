import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';

import { ExecutionStopped, throwIfStopped, waitUnlessStopped } from '../scheduling/cancel';
import type { SendThrottle } from '../scheduling/throttle';
import { checkApiAddress, CREDENTIAL_TYPE, type InventoryConnection } from './connection';
import { answerError, apiMessageOf, networkError } from './itemError';
import { classifyNetworkFailure, isApiError, isInFlightConflict } from './outcome';
import { apiHeaders, type InventoryRequest } from './request';
import { networkRetryWait, parseRetryAfter, retryWait, type RetryPolicy } from './retry';

export { openConnection } from './connection';
export type { InventoryRequest } from './request';
export { type RetryPolicy } from './retry';

/** The response's `data` object, when the body is the API's success envelope. */
function dataOf(body: unknown): IDataObject | undefined {
	const data = (body as { data?: unknown } | undefined)?.data;
	if (body && typeof body === 'object' && data && typeof data === 'object' && !Array.isArray(data))
		return data as IDataObject;
	return undefined;
}

/**
 * Sends one write with its Idempotency-Key and resolves to the response's `data` object. Whatever the
 * retry policy retries (429, 5xx, network failures, a 409 of an attempt still in flight) is sent again
 * with the same key, so a retry replays instead of duplicating; any other answer fails the item.
 * Every wait (a turn, the server's pause, a back-off) ends when n8n cancels the execution: it then
 * rejects with ExecutionStopped and nothing more is sent. `awaited`: another execution waits for the
 * item's record, so its attempts go before the run's other attempts (see SendThrottle.acquire).
 */
export async function sendInventoryRequest(
	this: IExecuteFunctions,
	request: InventoryRequest,
	connection: InventoryConnection,
	policy: RetryPolicy,
	throttle: SendThrottle,
	awaited?: () => boolean,
): Promise<IDataObject> {
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${connection.baseUrl}${request.path}`,
		headers: apiHeaders(request.idempotencyKey),
		body: request.body,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: policy.timeoutMs,
		skipSslCertificateValidation: connection.ignoreSslIssues,
	};
	// n8n 1.x before the cancel signal: undefined, and the waits run their course as before.
	const signal = this.getExecutionCancelSignal?.();
	let retries = 0;
	/** The network code of the latest attempt that may have reached the server and got no answer. */
	let unansweredAttempt: string | undefined;
	const fail = (
		statusCode: number,
		body: unknown,
		extra: { retryAfterMs?: number; inFlight?: boolean; anonymousStatus?: number } = {},
	) =>
		answerError(this.getNode(), connection.token, {
			request,
			retries,
			statusCode,
			body,
			retryAfterMs: extra.retryAfterMs,
			concurrencyOption: policy.concurrencyOption,
			unansweredAttempt: extra.inFlight ? unansweredAttempt : undefined,
			baseUrl: connection.baseUrl,
			earlierUnanswered: unansweredAttempt !== undefined,
			anonymousStatus: extra.anonymousStatus,
		});

	/** The latest attempt was answered 429 and its Retry-After waited out: this one goes first. */
	let backFromRateLimit = false;
	for (; ; retries++) {
		const sendNumber = await throttle.acquire(signal, backFromRateLimit, awaited);
		backFromRateLimit = false;
		if (signal?.aborted) {
			// Stopped as its turn came: the turn is given back unused.
			throttle.release(sendNumber, 'unsent');
			throw new ExecutionStopped();
		}
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
			throttle.release(sendNumber, 'unanswered');
			// n8n aborts the request in flight when it cancels the execution: that is no network failure.
			throwIfStopped(signal);
			const failure = classifyNetworkFailure(error);
			const earlierUnanswered = unansweredAttempt !== undefined;
			if (failure.fateUnknown) unansweredAttempt = failure.code;
			const waitMs = networkRetryWait(policy, retries, failure);
			if (waitMs === undefined)
				throw networkError(this.getNode(), connection.token, connection.baseUrl, {
					request,
					retries,
					failure,
					earlierUnanswered,
				});
			await waitUnlessStopped(waitMs, signal);
			continue;
		}
		const { statusCode } = response;
		throttle.release(
			sendNumber,
			statusCode === 429 ? 'throttled' : statusCode >= 500 ? 'failed' : 'answered',
		);

		const { body, headers } = response;
		if (statusCode >= 200 && statusCode < 300) {
			const data = dataOf(body);
			if (data) return data;
			throw fail(statusCode, body);
		}
		const answer = {
			statusCode,
			retryAfterMs: parseRetryAfter(headers),
			inFlight: isInFlightConflict(statusCode, apiMessageOf(body), unansweredAttempt !== undefined),
			fromApi: isApiError(body),
		};
		const waitMs = retryWait(policy, retries, answer);
		if (waitMs === undefined && statusCode === 404 && answer.fromApi) {
			// Another service may answer JSON 404s too (n8n at its own address): is this the API?
			const address = await checkApiAddress(this, connection, policy.timeoutMs);
			if (!address.isApi) throw fail(statusCode, body, { anonymousStatus: address.statusCode });
		}
		if (waitMs === undefined) throw fail(statusCode, body, answer);
		// A rate limit holds back every request to the server (the throttle decides how long for the
		// others); the request it answered waits it out in full, as every other wait.
		if (statusCode === 429) throttle.pauseUntil(Date.now() + waitMs);
		await waitUnlessStopped(waitMs, signal);
		backFromRateLimit = statusCode === 429;
	}
}
