import type {
	ICredentialsDecrypted,
	IExecuteFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { whenStopped } from '../../scheduling/cancel';

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
export function parsedBody(text: string): unknown {
	if (text === '') return '';
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

/** A body's text from its stream, at most `maxBytes` of it; a stream that breaks off rejects with its error. */
export async function readText(stream: BodyStream, maxBytes = Infinity): Promise<string> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of stream) {
		const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
		chunks.push(bytes);
		size += bytes.length;
		if (size >= maxBytes) break;
	}
	return Buffer.concat(chunks).toString('utf8', 0, Math.min(size, maxBytes));
}

/**
 * One deadline for a whole exchange (connect, headers and the whole body), and the execution's
 * cancellation: `race` ends the work it is given when either comes first. n8n's `timeout` fires only
 * on an idle socket, so a server that trickles its answer would hold a request for ever, and n8n's
 * HTTP helpers take no abort signal of ours. The timer is n8n-workflow's `sleep`, given a signal that
 * `end` aborts, so that no timer outlives the exchange (an AbortSignal.timeout's timer could not be
 * cleared when the exchange ends early).
 */
export class Deadline {
	private readonly ended = new AbortController();

	private readonly stopped: ReturnType<typeof whenStopped>;

	private readonly expired: Promise<never>;

	private readonly cancelled: Promise<never>;

	private over = false;

	constructor(ms: number, expiredError: () => Error, cancelSignal?: AbortSignal) {
		this.expired = sleep(ms, this.ended.signal).then(
			() => {
				this.over = true;
				throw expiredError();
			},
			() => new Promise<never>(() => {}),
		);
		this.stopped = whenStopped(cancelSignal);
		this.cancelled = this.stopped.stopped.then(() => {
			this.over = true;
			throw new Error('The execution was stopped');
		});
		// Nobody may be racing them when they fire.
		this.expired.catch(() => {});
		this.cancelled.catch(() => {});
	}

	/** The deadline passed, the execution was stopped, or the exchange ended: what comes now is closed unread. */
	get isOver(): boolean {
		return this.over;
	}

	/** `work`, unless the deadline or the cancellation comes first. */
	async race<T>(work: Promise<T>): Promise<T> {
		return await Promise.race([work, this.expired, this.cancelled]);
	}

	/** The exchange is over: the timer is cleared, the cancellation no longer listened to. */
	end(): void {
		this.over = true;
		this.ended.abort();
		this.stopped.off();
	}
}

/** Closes a body that comes after the exchange is over, unread. */
export function closeWhenLate(response: Promise<{ body?: unknown }>, deadline: Deadline): void {
	response.then(
		({ body }) => {
			if (deadline.isOver && isBodyStream(body)) body.destroy();
		},
		() => {},
	);
}

/**
 * One request through n8n's `httpRequestWithAuthentication`, bounded as a whole by `timeoutMs` (a
 * Deadline): the body comes as a stream (`encoding: 'stream'`) and is read here. At the deadline the
 * body's stream is closed, and one that arrives later is closed unread. Past the deadline it rejects
 * with ETIMEDOUT, a body that breaks off with ERR_BAD_RESPONSE: attempts that may have reached the
 * server and got no answer. A cancelled execution ends it at once too (n8n also aborts the request
 * itself then: it sets the request's abort signal to the execution's).
 */
export async function boundedRequest(
	context: IExecuteFunctions,
	credentialType: string,
	options: IHttpRequestOptions,
	credentialsDecrypted: ICredentialsDecrypted,
	timeoutMs: number,
	cancelSignal: AbortSignal | undefined,
): Promise<IN8nHttpFullResponse> {
	const deadline = new Deadline(timeoutMs, () => attemptTimedOut(timeoutMs), cancelSignal);
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
