/**
 * One request as the sandbox handles it (the context every stage receives), the reply it produces,
 * and the plain node:http helpers to read the request and write the reply.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { TLSSocket } from 'node:tls';

import type { FaultKind, Operation } from '../types';

const MAX_BODY_BYTES = 1024 * 1024;

export interface RequestContext {
	readonly req: IncomingMessage;
	readonly res: ServerResponse;
	/** Position among the API requests since the last reset (admin requests are not counted). */
	readonly seq: number;
	/** The sandbox's resets before this request arrived (see SandboxServer.reset). */
	readonly generation: number;
	readonly receivedAt: string;
	/** Date.now() when the request arrived, for durations. */
	readonly started: number;
	/** preciseEpochMs() when the request arrived. */
	readonly startedAtMs: number;
	readonly method: string;
	readonly path: string;
	readonly bodyText: string;
	/** The Idempotency-Key header as sent (trimmed), or null. */
	readonly rawKey: string | null;
	/** The matched API route, or null for a 404/405. */
	readonly operation: Operation | null;
	/** The `{record}` of the path (digits), or null. */
	readonly record: string | null;
}

/** A request that matched one of the three API routes. */
export interface ApiRequest extends RequestContext {
	readonly operation: Operation;
	readonly record: string;
}

export interface Reply {
	status: number;
	body: unknown;
	/** Pre-serialized body (replays send the stored bytes). */
	bodyText?: string;
	headers?: Record<string, string>;
	replayed?: boolean;
	/** Set when this request applied an action (fresh, not a replay). */
	applied?: boolean;
	/** Set when the holdInFlight fault held this request's key before the action was applied. */
	heldInFlight?: boolean;
}

/** What became of a request: the reply (null when the connection was reset first), the injected fault, whether it reached the client. */
export interface Outcome {
	reply: Reply | null;
	fault: FaultKind | null;
	delivered: boolean;
}

/** Milliseconds since the epoch with sub-millisecond precision, from the monotonic clock. */
export function preciseEpochMs(): number {
	return performance.timeOrigin + performance.now();
}

export function headerValue(req: IncomingMessage, name: string): string | undefined {
	const v = req.headers[name];
	return Array.isArray(v) ? v.join(', ') : v;
}

/** The token of an `Authorization: Bearer <token>` header, or null when there is none of that form. */
export function bearerToken(req: IncomingMessage): string | null {
	const auth = headerValue(req, 'authorization');
	const match = auth ? /^Bearer\s+(\S+)\s*$/i.exec(auth) : null;
	return match ? match[1] : null;
}

/** true unless an Accept header is present and allows no JSON (absent Accept = anything). */
export function acceptsJson(header: string | undefined): boolean {
	if (header === undefined || header.trim() === '') return true;
	for (const part of header.split(',')) {
		const [type, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
		const q = params.find((p) => p.startsWith('q='));
		if (q !== undefined && Number(q.slice(2)) === 0) continue;
		if (type === 'application/json' || type === 'application/*' || type === '*/*') return true;
	}
	return false;
}

export function isJsonContentType(header: string | undefined): boolean {
	if (!header) return false;
	return header.split(';')[0].trim().toLowerCase() === 'application/json';
}

/** All request headers except Authorization, for the request log. */
export function safeHeaders(req: IncomingMessage): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [k, v] of Object.entries(req.headers)) {
		if (k === 'authorization' || v === undefined) continue;
		out[k] = Array.isArray(v) ? v.join(', ') : v;
	}
	return out;
}

export function parseForRecord(text: string): unknown {
	if (text === '') return null;
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

/** Rejects with Error('too large') past 1 MiB (the rest of the body is still read, not kept). */
export function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let tooLarge = false;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > MAX_BODY_BYTES) tooLarge = true;
			else chunks.push(chunk);
		});
		req.on('end', () =>
			tooLarge ? reject(new Error('too large')) : resolve(Buffer.concat(chunks).toString('utf8')),
		);
		req.on('error', reject);
	});
}

/** Writes the reply; returns false when the socket is already gone. */
export function writeReply(res: ServerResponse, reply: Reply): boolean {
	if (res.destroyed || res.writableEnded) return false;
	const text = reply.bodyText ?? JSON.stringify(reply.body);
	res.writeHead(reply.status, {
		'Content-Type': 'application/json',
		'Content-Length': Buffer.byteLength(text),
		...(reply.headers ?? {}),
	});
	res.end(text);
	return true;
}

/**
 * Ends the connection without a response: a TCP reset (RST) or a plain close. A TLS socket is
 * always closed plainly: node cannot reset it (its TCP socket is not reachable).
 */
export function destroySocket(res: ServerResponse, reset: boolean): void {
	const socket = res.socket;
	if (!socket) return;
	if (reset && !(socket instanceof TLSSocket) && typeof socket.resetAndDestroy === 'function')
		socket.resetAndDestroy();
	else socket.destroy();
}
