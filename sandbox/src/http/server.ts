/**
 * The request handler: reads a request into a RequestContext, routes it (the /_sandbox endpoints,
 * the three API routes, 404/405), runs the fault stages around the API operation, and records the
 * outcome in the request log and counters. Plain node:http, no dependencies.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { adminReply, inspectionState } from './admin';
import { apiReply, matchRoute } from './api';
import { bump, emptyCounters } from '../domain/counters';
import {
	faultAfterApply,
	faultBeforeApply,
	faultWhileInFlight,
	type FaultIo,
} from '../faults/stages';
import { FaultEngine } from '../faults/engine';
import { IdempotencyStore } from '../domain/idempotency';
import { RateLimiter } from './rate-limit';
import {
	headerValue,
	parseForRecord,
	preciseEpochMs,
	readBody,
	safeHeaders,
	writeReply,
	type ApiRequest,
	type Outcome,
	type Reply,
	type RequestContext,
} from './request';
import { errorBody } from '../domain/results';
import type {
	FaultConfig,
	HeldRequest,
	HoldKind,
	LogEntry,
	RateLimitConfig,
	RecordedRequest,
	SandboxState,
	SeedData,
} from '../types';
import { World } from '../domain/world';

/** How many API requests the request log keeps by default (the latest ones). */
export const DEFAULT_RECORDED_REQUESTS = 10_000;

export interface ServerDeps {
	seed: SeedData;
	adminToken: string;
	now: () => Date;
	log: boolean | ((entry: LogEntry) => void);
	/** The request log keeps the latest this many API requests. */
	recordedRequests: number;
}

function clone<T>(v: T): T {
	return JSON.parse(JSON.stringify(v)) as T;
}

export class SandboxCore implements FaultIo {
	world: World;
	readonly idempotency = new IdempotencyStore();
	readonly faults = new FaultEngine();
	readonly rateLimiter = new RateLimiter();
	counters = emptyCounters();
	private recorded: RecordedRequest[] = [];
	private seq = 0;
	/** Counts the resets: a request received before the latest one belongs to a world that is gone. */
	private resets = 0;
	private readonly timers = new Set<NodeJS.Timeout>();
	private closed = false;
	/** Set: the timed waits hold their requests until released (see holdRequests). */
	private holdListener: ((held: HeldRequest) => void) | null = null;
	/** The release of every request held for the listener and not released yet. */
	private readonly held = new Set<() => void>();

	constructor(private readonly deps: ServerDeps) {
		this.world = new World(deps.seed, deps.now);
	}

	/** The world's generation: a request that began in an earlier one changes nothing in this one. */
	get generation(): number {
		return this.resets;
	}

	get adminToken(): string {
		return this.deps.adminToken;
	}

	now(): Date {
		return this.deps.now();
	}

	// -------------------------------------------------------------------------------------------
	// Control and inspection
	// -------------------------------------------------------------------------------------------
	reset(): void {
		this.resets++;
		this.world = new World(this.deps.seed, this.deps.now);
		this.idempotency.clear();
		this.counters = emptyCounters();
		this.recorded = [];
		this.seq = 0;
		this.faults.resetCounters();
		this.rateLimiter.refillAll();
	}

	setFaults(config: FaultConfig | null): void {
		this.faults.set(config);
	}

	setRateLimit(config: RateLimitConfig | null): void {
		this.rateLimiter.set(config);
	}

	requests(): RecordedRequest[] {
		return clone(this.recorded);
	}

	clearRequests(): void {
		this.recorded = [];
	}

	state(): SandboxState {
		return clone(inspectionState(this));
	}

	/**
	 * While a listener is set, each timed wait of a request (latencyMs, processingDelayMs, the
	 * holdInFlight and slowResponse faults) lasts until its release instead of its milliseconds, and the
	 * listener hears of it as it begins. null: back to the milliseconds, and every request still held
	 * is released.
	 */
	holdRequests(listener: ((held: HeldRequest) => void) | null): void {
		this.holdListener = listener;
		if (listener === null) for (const release of [...this.held]) release();
	}

	/** Stops pending delays (their requests are abandoned; the sockets are destroyed by the server). */
	shutdown(): void {
		this.closed = true;
		for (const t of this.timers) clearTimeout(t);
		this.timers.clear();
		this.held.clear();
	}

	hold(kind: HoldKind, ctx: ApiRequest, ms: number): Promise<void> {
		const listener = this.holdListener;
		if (listener === null) return this.sleep(ms);
		return new Promise((resolve) => {
			if (this.closed) return; // never resolves: the server is going away
			const release = () => {
				if (!this.held.delete(release)) return;
				resolve();
			};
			this.held.add(release);
			listener({ kind, seq: ctx.seq, key: ctx.rawKey, operation: ctx.operation, release });
		});
	}

	private sleep(ms: number): Promise<void> {
		return new Promise((resolve) => {
			if (this.closed) return; // never resolves: the server is going away
			const t = setTimeout(() => {
				this.timers.delete(t);
				resolve();
			}, ms);
			this.timers.add(t);
		});
	}

	send(res: ServerResponse, reply: Reply): boolean {
		return !this.closed && writeReply(res, reply);
	}

	// -------------------------------------------------------------------------------------------
	// Request entry point
	// -------------------------------------------------------------------------------------------
	async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const generation = this.generation;
		const startedAtMs = preciseEpochMs();
		const started = Date.now();
		const receivedAt = new Date().toISOString();
		const method = (req.method ?? 'GET').toUpperCase();
		const path = new URL(req.url ?? '/', 'http://sandbox.invalid').pathname;

		let bodyText: string;
		try {
			bodyText = await readBody(req);
		} catch (error) {
			// An aborted request has nobody to answer; only an oversized body gets a response.
			if ((error as Error).message === 'too large')
				this.send(res, { status: 413, body: errorBody('The request body is too large.') });
			return;
		}

		if (path === '/_sandbox' || path.startsWith('/_sandbox/')) {
			const reply = adminReply(this, method, path, req, bodyText);
			this.send(res, reply);
			this.log({
				method,
				path,
				status: reply.status,
				key: null,
				started,
				operation: 'admin',
				replayed: false,
				fault: null,
			});
			return;
		}

		const route = matchRoute(method, path);
		const ctx: RequestContext = {
			req,
			res,
			seq: ++this.seq,
			generation,
			receivedAt,
			started,
			startedAtMs,
			method,
			path,
			bodyText,
			rawKey: headerValue(req, 'idempotency-key')?.trim() || null,
			operation: route.kind === 'ok' ? route.operation : null,
			record: route.kind === 'ok' ? route.record : null,
		};
		if (generation === this.generation) {
			this.counters.requestsTotal++;
			bump(this.counters.requestsByPath, path);
			bump(this.counters.requestsByOperation, ctx.operation ?? 'other');
		}

		let outcome: Outcome;
		if (route.kind === 'ok') outcome = await this.respond(ctx as ApiRequest);
		else {
			const reply: Reply =
				route.kind === 'method'
					? {
							status: 405,
							body: errorBody(`The ${method} method is not supported for this route.`),
							headers: { Allow: route.allow },
						}
					: { status: 404, body: errorBody('Not found.') };
			this.send(res, reply);
			outcome = { reply, fault: null, delivered: true };
		}
		this.finish(ctx, outcome);
	}

	/** The fault stages around the operation; a request without a key gets faults of its own. */
	private async respond(ctx: ApiRequest): Promise<Outcome> {
		const plan = this.faults.plan(
			ctx.operation,
			ctx.rawKey?.toLowerCase() ?? `#request-${ctx.seq}`,
		);
		const refused = plan && (await faultBeforeApply(plan, ctx, this));
		if (refused) return refused;
		if (ctx.generation !== this.generation) {
			// Reset while this request was under way: it changes nothing in the new world.
			const reply = {
				status: 503,
				body: errorBody('The sandbox was reset; send the request again.'),
			};
			this.send(ctx.res, reply);
			return { reply, fault: null, delivered: true };
		}
		const reply = await apiReply(this, ctx, async () =>
			plan ? await faultWhileInFlight(plan, ctx, this) : false,
		);
		const spoiled = plan && (await faultAfterApply(plan, ctx, reply, this));
		if (spoiled) return spoiled;
		this.send(ctx.res, reply);
		return { reply, fault: null, delivered: true };
	}

	// -------------------------------------------------------------------------------------------
	// Request log and counters
	// -------------------------------------------------------------------------------------------
	/** Called as soon as the response is written (or the connection ended), so finishedAtMs is that moment. */
	private finish(ctx: RequestContext, { reply, fault, delivered }: Outcome): void {
		// The log and counters since a reset hold only the requests received since it.
		if (ctx.generation !== this.generation) return;
		const finishedAtMs = preciseEpochMs();
		const status = reply?.status ?? null;
		if (status !== null) bump(this.counters.responsesByStatus, String(status));
		this.recorded.push({
			seq: ctx.seq,
			receivedAt: ctx.receivedAt,
			method: ctx.method,
			path: ctx.path,
			operation: ctx.operation,
			headers: safeHeaders(ctx.req),
			body: parseForRecord(ctx.bodyText),
			status,
			key: ctx.rawKey,
			replayed: reply?.replayed ?? false,
			fault,
			delivered,
			durationMs: Date.now() - ctx.started,
			startedAtMs: ctx.startedAtMs,
			finishedAtMs,
		});
		const { recordedRequests } = this.deps;
		if (this.recorded.length > recordedRequests)
			this.recorded.splice(0, this.recorded.length - recordedRequests);
		const { method, path, started, operation } = ctx;
		this.log({
			method,
			path,
			status,
			key: ctx.rawKey,
			started,
			operation,
			replayed: reply?.replayed ?? false,
			fault,
		});
	}

	private log(e: Omit<LogEntry, 'time' | 'durationMs'> & { started: number }): void {
		const sink = this.deps.log;
		if (sink === false) return;
		const entry: LogEntry = {
			time: new Date().toISOString(),
			method: e.method,
			path: e.path,
			status: e.status,
			key: e.key,
			durationMs: Date.now() - e.started,
			operation: e.operation,
			replayed: e.replayed,
			fault: e.fault,
		};
		if (typeof sink === 'function') sink(entry);
		else process.stdout.write(`${JSON.stringify(entry)}\n`);
	}
}
