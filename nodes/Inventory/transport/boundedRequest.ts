import type {
	ICredentialsDecrypted,
	IExecuteFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { whenStopped } from '../scheduling/cancel';

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

/** A response body as n8n hands it over as a stream (`encoding: 'stream'`, `useStream`): it can be read and closed. */
export interface BodyStream extends AsyncIterable<unknown> {
	destroy(error?: Error): void;
}

export function isBodyStream(body: unknown): body is BodyStream {
	return (
		typeof body === 'object' &&
		body !== null &&
		typeof (body as Partial<BodyStream>)[Symbol.asyncIterator] === 'function' &&
		typeof (body as Partial<BodyStream>).destroy === 'function'
	);
}

/** The body as `json: true` reads it: JSON where it parses, else the text ('' when empty). */
function parsedBody(text: string): unknown {
	if (text === '') return '';
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

async function readAll(stream: BodyStream): Promise<string> {
	const chunks: Buffer[] = [];
	try {
		for await (const chunk of stream)
			chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
	} catch (error) {
		throw cutOff(error);
	}
	return Buffer.concat(chunks).toString('utf8');
}

/**
 * One request through n8n's `httpRequestWithAuthentication`, bounded as a whole (connect, headers and
 * the whole body) by `timeoutMs`. n8n's `timeout` fires only on an idle socket, so a server that
 * trickles its answer would hold the request for ever; and n8n sets the request's abort signal
 * itself (to the execution's cancel signal), so no deadline of ours can ride on it. So the body comes
 * as a stream (`encoding: 'stream'`), read here, and the whole request races one deadline:
 * n8n-workflow's `sleep`, given a signal that ends it with the request, so that no timer outlives
 * the request (an AbortSignal.timeout's timer could not be cleared when the request ends early). At
 * the deadline the body's stream is closed, and one that arrives later is closed unread. Past the
 * deadline it rejects with ETIMEDOUT, a body that breaks off with ERR_BAD_RESPONSE: attempts that may
 * have reached the server and got no answer. A cancelled execution ends it at once too.
 */
export async function boundedRequest(
	context: IExecuteFunctions,
	credentialType: string,
	options: IHttpRequestOptions,
	credentialsDecrypted: ICredentialsDecrypted,
	timeoutMs: number,
	cancelSignal: AbortSignal | undefined,
): Promise<IN8nHttpFullResponse> {
	const ended = new AbortController();
	let over = false;
	const deadline = sleep(timeoutMs, ended.signal).then(
		() => {
			over = true;
			throw attemptTimedOut(timeoutMs);
		},
		() => new Promise<never>(() => {}),
	);
	const stopped = whenStopped(cancelSignal);
	const cancelled = stopped.stopped.then(() => {
		over = true;
		throw new Error('The execution was stopped');
	});
	const race = async <T>(work: Promise<T>): Promise<T> =>
		await Promise.race([work, deadline, cancelled]);
	const request = context.helpers.httpRequestWithAuthentication.call(
		context,
		credentialType,
		{
			...options,
			headers: { ...options.headers },
			returnFullResponse: true,
			encoding: 'stream',
		},
		{ credentialsDecrypted },
	) as Promise<IN8nHttpFullResponse>;
	// An answer that comes after the deadline is closed unread.
	request.then(
		({ body }) => {
			if (over && isBodyStream(body)) body.destroy();
		},
		() => {},
	);
	try {
		const response = await race(request);
		if (!isBodyStream(response.body)) return response;
		const stream = response.body;
		try {
			const body = parsedBody(await race(readAll(stream))) as IN8nHttpFullResponse['body'];
			return { ...response, body };
		} finally {
			stream.destroy();
		}
	} finally {
		over = true;
		ended.abort();
		stopped.off();
		deadline.catch(() => {});
		cancelled.catch(() => {});
	}
}
