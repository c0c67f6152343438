import { sleep } from 'n8n-workflow';

import { whenStopped } from '../../scheduling/cancel';

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
