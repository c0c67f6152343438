import type { IDataObject, IExecuteFunctions, IN8nHttpFullResponse } from 'n8n-workflow';

import { ExecutionStopped, throwIfStopped, waitUnlessStopped } from '../scheduling/cancel';
import type { SendThrottle } from '../scheduling/throttle';
import {
	classifyAnswer,
	classifyNoAnswer,
	mayBeAnotherService,
	mayBeSuccessWithoutData,
	notTheApiAfterAll,
	successWithoutData,
	type AttemptResult,
	type Failure,
} from './answers/attemptResult';
import type { InventoryConnection } from './credential/connection';
import { itemError, unsendableError } from './wording/itemError';
import { redactDeep } from './send/redact';
import type { InventoryRequest } from './request';
import { rateOutcome, retryWait, type RetryPolicy } from './policy/rules';
import { sendWithCredential, type ApiCall } from './send/sender';

/*
 * The transport's public face, what the other layers import. sendInventoryRequest runs a write's
 * attempts: each sent by send/sender.ts (the only code that sends), its result read by answers/,
 * retried or ended by policy/rules.ts, worded for the user by wording/; credential/ reads the
 * node's credential (Base URL, token) and tests it.
 */

export { openConnection, type InventoryConnection } from './credential/connection';
export { testInventoryCredential } from './credential/checkCredential';
export type { InventoryRequest, Wording } from './request';
export { RETRIED_AFTER, type RetryPolicy } from './policy/rules';

/** The first field of a body that cannot be written as JSON (nested too deeply, or refers to itself). */
function unwritableField(body: IDataObject): { field: string; reason: string } | undefined {
	for (const [field, value] of Object.entries(body)) {
		try {
			JSON.stringify(value);
		} catch (error) {
			return {
				field,
				reason: error instanceof RangeError ? 'nested too deeply' : 'refers to itself',
			};
		}
	}
	return undefined;
}

/** One attempt (bounded as a whole by the Timeout): its answer, or what it failed with when none came. */
async function sendAttempt(
	context: IExecuteFunctions,
	call: ApiCall,
	connection: InventoryConnection,
	unansweredCode: string | undefined,
	cancelSignal: AbortSignal | undefined,
): Promise<AttemptResult> {
	let response: IN8nHttpFullResponse;
	try {
		// n8n still authenticates the request from the credential type; handing it the credential
		// read once per run spares a credential load (a database read and decryption) per request.
		response = await sendWithCredential(context, call, connection.credential, cancelSignal);
	} catch (error) {
		return classifyNoAnswer(error, unansweredCode);
	}
	// The answer, redacted: a body that echoes the request puts no piece of the token in an output item.
	return classifyAnswer(
		{ ...response, body: redactDeep(response.body, connection.token) },
		unansweredCode,
	);
}

/**
 * The final result as the item's error reports it. Another service may answer JSON 404s too (n8n at
 * its own address): then a request without a token tells whether the Base URL leads to the API.
 */
async function confirmedFailure(
	context: IExecuteFunctions,
	connection: InventoryConnection,
	policy: RetryPolicy,
	result: Failure,
	signal: AbortSignal | undefined,
): Promise<Failure> {
	if (mayBeSuccessWithoutData(result)) {
		// A success without the envelope: "nothing reached the API" only when the Base URL is not the API.
		const address = await connection.checkApiAddress(context, policy.timeoutMs, signal);
		return address.isApi ? successWithoutData(result) : result;
	}
	if (!mayBeAnotherService(result)) return result;
	const address = await connection.checkApiAddress(context, policy.timeoutMs, signal);
	return address.isApi ? result : notTheApiAfterAll(result, address.statusCode);
}

/**
 * Sends one write with its Idempotency-Key and resolves to the response's `data` object. Whatever the
 * retry table retries (policy/rules.ts RETRY) is sent again with the same key, so a retry replays
 * instead of duplicating; any other answer fails the item.
 * Every wait (a turn, the server's pause, a back-off) ends when n8n cancels the execution: it then
 * rejects with ExecutionStopped and nothing more is sent. `othersWaitForRecord`: another execution
 * waits for the item's record, so its attempts go before the run's other attempts (see
 * SendThrottle.acquire).
 */
export async function sendInventoryRequest(
	this: IExecuteFunctions,
	request: InventoryRequest,
	connection: InventoryConnection,
	policy: RetryPolicy,
	throttle: SendThrottle,
	othersWaitForRecord?: () => boolean,
): Promise<IDataObject> {
	const unwritable = unwritableField(request.body);
	if (unwritable !== undefined) throw unsendableError(this.getNode(), request, unwritable);
	const call: ApiCall = {
		method: request.method,
		url: `${connection.baseUrl}${request.path}`,
		idempotencyKey: request.idempotencyKey,
		body: request.body,
		timeoutMs: policy.timeoutMs,
		ignoreSslIssues: connection.ignoreSslIssues,
	};
	// n8n 1.x before the cancel signal: undefined, and the waits run their course as before.
	const signal = this.getExecutionCancelSignal?.();
	/** The network code of the latest attempt that may have reached the server and got no answer. */
	let unansweredCode: string | undefined;
	/** The latest attempt was answered 429 and its Retry-After waited out: this one goes first. */
	let backFromRateLimit = false;
	for (let retries = 0; ; retries++) {
		const sendNumber = await throttle.acquire(signal, backFromRateLimit, othersWaitForRecord);
		backFromRateLimit = false;
		if (signal?.aborted) {
			// Stopped as its turn came: the turn is given back unused.
			throttle.release(sendNumber, 'unsent');
			throw new ExecutionStopped();
		}
		const result = await sendAttempt(this, call, connection, unansweredCode, signal);
		throttle.release(sendNumber, rateOutcome(result));
		if (result.kind === 'success') return result.data;
		// n8n aborts the request in flight when it cancels the execution: that is no network failure.
		if (result.kind === 'networkFailure') {
			throwIfStopped(signal);
			if (result.failure.fateUnknown) unansweredCode = result.failure.code;
		}

		const waitMs = retryWait(policy, retries, result);
		if (waitMs === undefined) {
			throw itemError(this.getNode(), connection.token, {
				request,
				retries,
				result: await confirmedFailure(this, connection, policy, result, signal),
				baseUrl: connection.baseUrl,
				concurrencyOption: policy.concurrencyOption,
			});
		}
		// A rate limit holds back every request to the server (the throttle decides how long for the
		// others); the request it answered waits it out in full, as every other wait.
		if (result.kind === 'rateLimited') throttle.pauseUntil(Date.now() + waitMs);
		await waitUnlessStopped(waitMs, signal);
		backFromRateLimit = result.kind === 'rateLimited';
	}
}
