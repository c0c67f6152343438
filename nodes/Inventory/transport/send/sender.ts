import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';

import { authorizationHeader } from '../../../../credentials/InventoryApi.credentials';
import {
	closeWhenLate,
	Deadline,
	isBodyStream,
	parsedBody,
	readText,
	type BodyStream,
} from './deadline';

/*
 * The only code that sends. Every request to the Inventory API (the node's writes, the check of the
 * Base URL after a doubtful answer, and the credential's Test) goes out with the options that
 * requestOptions builds, through n8n's helpers: the node's through `httpRequestWithAuthentication`,
 * the Test's through `helpers.request`, the only HTTP n8n gives a credential test function.
 */

/** The credential type n8n authenticates the node's requests with. */
export const CREDENTIAL_TYPE = 'inventoryApi';

/** One request to the API, as every sender takes it. */
export interface ApiCall {
	method: IHttpRequestMethods;
	/** The whole address: the Base URL and the path below it. */
	url: string;
	idempotencyKey: string;
	body: IDataObject;
	/** n8n's timeout of the request; the exchange as a whole is bounded by a Deadline as long. */
	timeoutMs: number;
	/** The credential's "Ignore SSL Issues (Insecure)". */
	ignoreSslIssues: boolean;
	/**
	 * The token as pasted, for an Authorization header the request carries itself: only the credential
	 * test's, whose helpers authenticate nothing. The node's requests carry none of their own: n8n adds
	 * the credential's (the credential's `authenticate`).
	 */
	authorization?: { apiToken: unknown };
}

/** The headers of every request to the API: JSON both ways, and the action's Idempotency-Key. */
function apiHeaders(idempotencyKey: string): Record<string, string> {
	return {
		Accept: 'application/json',
		'Content-Type': 'application/json',
		'Idempotency-Key': idempotencyKey,
	};
}

/**
 * The options of every request to the API: its headers (and the token's, when it carries one
 * itself), its timeout, no redirect followed (n8n's client would follow one with the token, to any
 * host: a 3xx is an outcome of its own), the certificate checked unless Ignore SSL Issues is on, every
 * status an answer (not an error), and the body as a stream, which the sender reads within the
 * exchange's Deadline.
 */
function requestOptions(call: ApiCall): IHttpRequestOptions {
	return {
		method: call.method,
		url: call.url,
		headers: {
			...apiHeaders(call.idempotencyKey),
			...(call.authorization ? authorizationHeader(call.authorization.apiToken) : {}),
		},
		body: call.body,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: call.timeoutMs,
		disableFollowRedirect: true,
		skipSslCertificateValidation: call.ignoreSslIssues,
		encoding: 'stream',
	};
}

/** What an attempt that ran out of its time fails with: no answer in full came within the Timeout. */
function attemptTimedOut(timeoutMs: number): Error & { code: string } {
	return Object.assign(new Error(`The attempt took longer than its timeout of ${timeoutMs} ms`), {
		code: 'ETIMEDOUT',
	});
}

/** What a body that broke off after its headers fails with: axios' own code and words for it. */
function cutOff(cause: unknown): Error & { code: string } {
	return Object.assign(new Error('stream has been aborted', { cause }), {
		code: 'ERR_BAD_RESPONSE',
	});
}

/**
 * One request of the node (a write, or the check of an address) through n8n's
 * `httpRequestWithAuthentication`, which authenticates it with `credential`, bounded as a whole by
 * the call's timeout (a Deadline): the body's stream is read here. At the deadline the body's stream
 * is closed, and one that arrives later is closed unread. Past the deadline it rejects with
 * ETIMEDOUT, a body that breaks off with ERR_BAD_RESPONSE: attempts that may have reached the server
 * and got no answer. A cancelled execution ends it at once too (n8n also aborts the request itself
 * then: it sets the request's abort signal to the execution's).
 */
export async function sendWithCredential(
	context: IExecuteFunctions,
	call: ApiCall,
	credential: ICredentialsDecrypted,
	cancelSignal: AbortSignal | undefined,
): Promise<IN8nHttpFullResponse> {
	const { timeoutMs } = call;
	const deadline = new Deadline(timeoutMs, () => attemptTimedOut(timeoutMs), cancelSignal);
	const request = context.helpers.httpRequestWithAuthentication.call(
		context,
		CREDENTIAL_TYPE,
		requestOptions(call),
		{ credentialsDecrypted: credential },
	) as Promise<IN8nHttpFullResponse>;
	closeWhenLate(request, deadline);
	try {
		const response = await deadline.race(request);
		if (!isBodyStream(response.body)) return response;
		const stream = response.body;
		try {
			const text = readText(stream).catch((error: unknown) => {
				throw cutOff(error);
			});
			const body = parsedBody(await deadline.race(text)) as IN8nHttpFullResponse['body'];
			return { ...response, body };
		} finally {
			stream.destroy();
		}
	} finally {
		deadline.end();
	}
}

/** How the Base URL answered one of the credential test's requests. */
export interface TestAnswer {
	statusCode: number;
	body: unknown;
	headers?: unknown;
}

/** The most of a body the test reads: the API's error bodies are small; anything longer is not its answer. */
const MAX_TEST_BODY_BYTES = 64 * 1024;

/** A body read from its stream within the test's deadline: at most MAX_TEST_BODY_BYTES, as JSON when it is JSON, else as text. */
async function readTestBody(stream: BodyStream, deadline: Deadline): Promise<unknown> {
	let text: string;
	try {
		text = await deadline.race(readText(stream, MAX_TEST_BODY_BYTES));
	} finally {
		stream.destroy();
	}
	return text === '' ? undefined : parsedBody(text);
}

/**
 * One request of the credential test through `helpers.request`, with the options requestOptions
 * builds, in the names of the request library that helper takes; its body read within the test's
 * `deadline`, which both of the test's requests share.
 */
export async function sendForTest(
	context: ICredentialTestFunctions,
	call: ApiCall,
	deadline: Deadline,
): Promise<TestAnswer> {
	const options = requestOptions(call);
	const request = context.helpers.request({
		method: options.method,
		uri: options.url,
		headers: options.headers,
		body: options.body,
		json: options.json,
		simple: !options.ignoreHttpStatusErrors,
		resolveWithFullResponse: options.returnFullResponse,
		followRedirect: !options.disableFollowRedirect,
		followAllRedirects: !options.disableFollowRedirect,
		useStream: options.encoding === 'stream',
		timeout: options.timeout,
		rejectUnauthorized: !options.skipSslCertificateValidation,
	}) as Promise<TestAnswer>;
	closeWhenLate(request, deadline);
	const response = await deadline.race(request);
	const body = isBodyStream(response.body)
		? await readTestBody(response.body, deadline)
		: response.body;
	return { statusCode: response.statusCode, body, headers: response.headers };
}
