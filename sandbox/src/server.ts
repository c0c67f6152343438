/**
 * The HTTP layer: routing, authentication, idempotency, fault injection, the /_sandbox control
 * endpoints, the request log and counters. Plain node:http, no dependencies.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { FaultEngine, validateFaultConfig, type FaultPlan } from './faults';
import { IdempotencyStore, UUID_RE, fingerprint } from './idempotency';
import {
	FAULT_KINDS,
	OPERATIONS,
	type Counters,
	type FaultConfig,
	type FaultKind,
	type LogEntry,
	type Operation,
	type Permission,
	type RecordedRequest,
	type SandboxState,
	type SeedData,
	type SeedToken,
} from './types';
import { World, errorBody, type OpResult, type Org } from './world';

export const NOTICE = 'Sandbox inspection/control endpoint: NOT part of the Inventory API.';
const MAX_BODY_BYTES = 1024 * 1024;
const MAX_RECORDED_REQUESTS = 10_000;

const PERMISSION: Record<Operation, Permission> = {
	createTodo: 'assets:todos',
	updateBilling: 'subscriptions:update',
	recordAcquisition: 'assets:lifecycle',
};

interface Route {
	operation: Operation;
	method: string;
	re: RegExp;
}

const ROUTES: Route[] = [
	{ operation: 'createTodo', method: 'POST', re: /^\/api\/v1\/assets\/([^/]+)\/todos$/ },
	{ operation: 'updateBilling', method: 'PUT', re: /^\/api\/v1\/subscriptions\/([^/]+)\/billing$/ },
	{ operation: 'recordAcquisition', method: 'POST', re: /^\/api\/v1\/assets\/([^/]+)\/acquisitions$/ },
];

interface Reply {
	status: number;
	body: unknown;
	/** Pre-serialized body (replays send the stored bytes). */
	bodyText?: string;
	headers?: Record<string, string>;
	replayed?: boolean;
	/** Set when this request applied an action (fresh, not a replay). */
	applied?: boolean;
}

export interface ServerDeps {
	seed: SeedData;
	adminToken: string;
	now: () => Date;
	log: boolean | ((entry: LogEntry) => void);
}

function emptyCounters(): Counters {
	return {
		requestsTotal: 0,
		requestsByPath: {},
		requestsByOperation: {},
		responsesByStatus: {},
		applied: 0,
		appliedByOperation: {},
		replays: 0,
		idempotencyMismatches: 0,
		idempotencyInFlight: 0,
		faults: Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>,
	};
}

function bump(map: Record<string, number>, key: string): void {
	map[key] = (map[key] ?? 0) + 1;
}

function clone<T>(v: T): T {
	return JSON.parse(JSON.stringify(v)) as T;
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

function isJsonContentType(header: string | undefined): boolean {
	if (!header) return false;
	return header.split(';')[0].trim().toLowerCase() === 'application/json';
}

export class SandboxCore {
	world: World;
	readonly idempotency = new IdempotencyStore();
	readonly faults = new FaultEngine();
	counters = emptyCounters();
	private recorded: RecordedRequest[] = [];
	private seq = 0;
	private readonly timers = new Set<NodeJS.Timeout>();
	private closed = false;

	constructor(private readonly deps: ServerDeps) {
		this.world = new World(deps.seed, deps.now);
	}

	// -------------------------------------------------------------------------------------------
	// Control
	// -------------------------------------------------------------------------------------------
	reset(): void {
		this.world = new World(this.deps.seed, this.deps.now);
		this.idempotency.clear();
		this.counters = emptyCounters();
		this.recorded = [];
		this.seq = 0;
		this.faults.resetCounters();
	}

	setFaults(config: FaultConfig | null): void {
		this.faults.set(config);
	}

	requests(): RecordedRequest[] {
		return clone(this.recorded);
	}

	state(): SandboxState {
		const w = this.world;
		return clone({
			notice: NOTICE,
			organizations: [...w.orgs.values()].map((o) => ({
				id: o.id,
				name: o.name,
				plan: { max_reactivations: o.maxReactivations, reactivations_used: o.reactivationsUsed },
			})),
			assets: w.assetViews(),
			subscriptions: w.subscriptionViews(),
			todos: w.todos,
			acquisitions: w.acquisitions,
			billingChanges: w.billingChanges,
			assetEvents: w.assetEvents,
			subscriptionEvents: w.subscriptionEvents,
			idempotencyKeys: this.idempotency.entries().map((e) => ({
				organization_id: e.organizationId,
				key: e.key,
				method: e.method,
				path: e.path,
				status: e.status,
				stored_at: e.storedAt,
			})),
			faults: this.faults.get(),
			counters: { ...this.counters, faults: { ...this.faults.counters } },
		});
	}

	/** Stops pending delays (their requests are abandoned; the sockets are destroyed by the server). */
	shutdown(): void {
		this.closed = true;
		for (const t of this.timers) clearTimeout(t);
		this.timers.clear();
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

	// -------------------------------------------------------------------------------------------
	// Request entry point
	// -------------------------------------------------------------------------------------------
	async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const started = Date.now();
		const receivedAt = new Date().toISOString();
		const method = (req.method ?? 'GET').toUpperCase();
		const path = new URL(req.url ?? '/', 'http://sandbox.invalid').pathname;
		const isAdmin = path === '/_sandbox' || path.startsWith('/_sandbox/');

		let bodyText: string;
		try {
			bodyText = await readBody(req);
		} catch (error) {
			// An aborted request has nobody to answer; only an oversized body gets a response.
			if ((error as Error).message === 'too large') this.send(res, { status: 413, body: errorBody('The request body is too large.') });
			return;
		}

		if (isAdmin) {
			const reply = this.admin(method, path, req, bodyText);
			this.send(res, reply);
			this.log({ method, path, status: reply.status, key: null, started, operation: 'admin', replayed: false, fault: null });
			return;
		}

		const seq = ++this.seq;
		this.counters.requestsTotal++;
		bump(this.counters.requestsByPath, path);
		const rawKey = headerValue(req, 'idempotency-key')?.trim() || null;
		const routeMatch = matchRoute(method, path);
		const operation = routeMatch.kind === 'ok' ? routeMatch.operation : null;
		bump(this.counters.requestsByOperation, operation ?? 'other');

		const finish = (reply: Reply | null, fault: FaultKind | null, delivered: boolean) => {
			const status = reply?.status ?? null;
			if (status !== null) bump(this.counters.responsesByStatus, String(status));
			this.record({
				seq,
				receivedAt,
				method,
				path,
				operation,
				headers: safeHeaders(req),
				body: parseForRecord(bodyText),
				status,
				key: rawKey,
				replayed: reply?.replayed ?? false,
				fault,
				delivered,
				durationMs: Date.now() - started,
			});
			this.log({ method, path, status, key: rawKey, started, operation, replayed: reply?.replayed ?? false, fault });
		};

		if (routeMatch.kind !== 'ok') {
			const reply: Reply =
				routeMatch.kind === 'method'
					? { status: 405, body: errorBody(`The ${method} method is not supported for this route.`), headers: { Allow: routeMatch.allow } }
					: { status: 404, body: errorBody('Not found.') };
			this.send(res, reply);
			finish(reply, null, true);
			return;
		}

		const plan = this.faults.plan(routeMatch.operation, rawKey?.toLowerCase() ?? `#request-${seq}`);
		if (plan) {
			if (plan.latencyMs > 0) {
				this.faults.recordLatency();
				await this.sleep(plan.latencyMs);
			}
			const retryAfter = plan.rateLimited(Date.now());
			if (retryAfter !== null) {
				const reply: Reply = {
					status: 429,
					body: errorBody(`Too many requests. Retry after ${retryAfter} seconds.`),
					headers: { 'Retry-After': String(retryAfter), 'X-Sandbox-Fault': 'rateLimited' },
				};
				this.send(res, reply);
				finish(reply, 'rateLimited', true);
				return;
			}
			if (plan.fires('resetBeforeApply')) {
				destroySocket(res, true);
				finish(null, 'resetBeforeApply', false);
				return;
			}
			if (plan.fires('serverError')) {
				const reply: Reply = {
					status: plan.serverErrorStatus,
					body: errorBody('Service temporarily unavailable (sandbox fault injection; nothing was applied).'),
					headers: { 'X-Sandbox-Fault': 'serverError' },
				};
				this.send(res, reply);
				finish(reply, 'serverError', true);
				return;
			}
		}

		const reply = await this.api(routeMatch.operation, routeMatch.record, method, path, req, bodyText, rawKey, plan);

		if (plan && reply.applied) {
			if (plan.fires('dropAfterApply')) {
				destroySocket(res, false);
				finish(reply, 'dropAfterApply', false);
				return;
			}
			if (plan.fires('slowResponse')) {
				await this.sleep(plan.slowResponseDelayMs);
				const delivered = this.send(res, reply);
				finish(reply, 'slowResponse', delivered);
				return;
			}
		}
		this.send(res, reply);
		finish(reply, null, true);
	}

	// -------------------------------------------------------------------------------------------
	// The three API operations: auth, idempotency, then the operation itself
	// -------------------------------------------------------------------------------------------
	private async api(
		operation: Operation,
		record: string,
		method: string,
		path: string,
		req: IncomingMessage,
		bodyText: string,
		rawKey: string | null,
		plan: FaultPlan | null,
	): Promise<Reply> {
		// 1. Authentication (401)
		const auth = headerValue(req, 'authorization');
		const match = auth ? /^Bearer\s+(\S+)\s*$/i.exec(auth) : null;
		const token = match ? this.world.tokens.get(match[1]) : undefined;
		const unauthenticated = (message: string): Reply => ({
			status: 401,
			body: errorBody(message),
			headers: { 'WWW-Authenticate': 'Bearer' },
		});
		if (!auth) return unauthenticated('Unauthenticated: the Authorization header is missing.');
		if (!match || !token) return unauthenticated('Unauthenticated: the token is invalid.');
		if (token.kind !== 'customer_api') return unauthenticated('Unauthenticated: the token is not a customer API token.');
		if (token.revoked) return unauthenticated('Unauthenticated: the token has been revoked.');
		if (token.expires_at && Date.parse(token.expires_at) <= this.deps.now().getTime()) {
			return unauthenticated('Unauthenticated: the token has expired.');
		}
		const org = this.world.orgs.get(token.organization_id);
		if (!org) return unauthenticated('Unauthenticated: the token is invalid.');

		// 2. Authorization (403)
		const permission = PERMISSION[operation];
		if (!token.permissions.includes(permission)) {
			return { status: 403, body: errorBody(`Forbidden: this action requires the ${permission} permission.`) };
		}

		// 3. Accept (406)
		if (!acceptsJson(headerValue(req, 'accept'))) {
			return { status: 406, body: errorBody('Not acceptable: this API responds with application/json.') };
		}

		// 4. Idempotency-Key (422 when missing or not a UUID)
		if (!rawKey) return { status: 422, body: errorBody('The Idempotency-Key header is required (a client-generated UUID).') };
		if (!UUID_RE.test(rawKey)) return { status: 422, body: errorBody('The Idempotency-Key header must be a UUID.') };
		const key = rawKey.toLowerCase();
		const fp = fingerprint(method, path, bodyText);
		const stored = this.idempotency.get(org.id, key);
		if (stored) {
			if (stored.fingerprint !== fp) {
				this.counters.idempotencyMismatches++;
				return {
					status: 409,
					body: errorBody(
						'The Idempotency-Key has already been used for a different request (method, path or body); use a new key for a new action.',
					),
				};
			}
			this.counters.replays++;
			return {
				status: stored.status,
				body: undefined,
				bodyText: stored.bodyText,
				headers: { 'Idempotent-Replayed': 'true' },
				replayed: true,
			};
		}
		if (this.idempotency.isInFlight(org.id, key)) {
			this.counters.idempotencyInFlight++;
			return {
				status: 409,
				body: errorBody('A request with this Idempotency-Key is still being processed; retry later to get its result.'),
			};
		}

		// 5. Hold the key while the action is processed.
		this.idempotency.begin(org.id, key, fp);
		try {
			if (plan && plan.processingDelayMs > 0) await this.sleep(plan.processingDelayMs);
			const result = this.applyOperation(operation, org, token, key, record, req, bodyText);
			if (result.applied) {
				const text = JSON.stringify(result.body);
				this.idempotency.store({
					organizationId: org.id,
					key,
					fingerprint: fp,
					method,
					path,
					status: result.status,
					bodyText: text,
					storedAt: new Date().toISOString(),
				});
				this.counters.applied++;
				bump(this.counters.appliedByOperation, operation);
				return { status: result.status, body: result.body, bodyText: text, applied: true };
			}
			return { status: result.status, body: result.body };
		} finally {
			this.idempotency.end(org.id, key);
		}
	}

	private applyOperation(
		operation: Operation,
		org: Org,
		token: SeedToken,
		key: string,
		record: string,
		req: IncomingMessage,
		bodyText: string,
	): OpResult {
		const id = Number(record);
		// Content-Type and JSON (422): an empty body counts as {}.
		let body: Record<string, unknown> = {};
		if (bodyText.trim() !== '') {
			if (!isJsonContentType(headerValue(req, 'content-type'))) {
				return invalidRequest('The request body must be JSON sent with Content-Type: application/json.');
			}
			let parsed: unknown;
			try {
				parsed = JSON.parse(bodyText);
			} catch {
				return invalidRequest('The request body is not valid JSON.');
			}
			if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
				return invalidRequest('The request body must be a JSON object.');
			}
			body = parsed as Record<string, unknown>;
		}
		// Record lookup (404) comes before body validation inside each operation.
		switch (operation) {
			case 'createTodo':
				return this.world.createTodo(org, token, id, body);
			case 'updateBilling':
				return this.world.updateBilling(org, key, id, body);
			case 'recordAcquisition':
				return this.world.recordAcquisition(org, key, id, body);
		}
	}

	// -------------------------------------------------------------------------------------------
	// /_sandbox control endpoints (admin token)
	// -------------------------------------------------------------------------------------------
	private admin(method: string, path: string, req: IncomingMessage, bodyText: string): Reply {
		if (path === '/_sandbox/health' && method === 'GET') return { status: 200, body: { notice: NOTICE, ok: true } };
		const auth = headerValue(req, 'authorization');
		const m = auth ? /^Bearer\s+(\S+)\s*$/i.exec(auth) : null;
		if (!m || m[1] !== this.deps.adminToken) {
			return { status: 401, body: { notice: NOTICE, message: 'The sandbox admin token is required (Authorization: Bearer <admin token>).' } };
		}
		const routes: Record<string, Record<string, () => Reply>> = {
			'/_sandbox/state': { GET: () => ({ status: 200, body: this.state() }) },
			'/_sandbox/requests': {
				GET: () => ({ status: 200, body: { notice: NOTICE, requests: this.requests() } }),
				DELETE: () => {
					this.recorded = [];
					return { status: 200, body: { notice: NOTICE, cleared: true } };
				},
			},
			'/_sandbox/reset': {
				POST: () => {
					this.reset();
					return { status: 200, body: { notice: NOTICE, reset: true } };
				},
			},
			'/_sandbox/faults': {
				GET: () => ({ status: 200, body: { notice: NOTICE, faults: this.faults.get(), counters: { ...this.faults.counters } } }),
				PUT: () => {
					let parsed: unknown = null;
					try {
						parsed = bodyText.trim() === '' ? null : JSON.parse(bodyText);
						this.faults.set(validateFaultConfig(parsed));
					} catch (error) {
						return { status: 422, body: { notice: NOTICE, message: `Invalid fault config: ${(error as Error).message}` } };
					}
					return { status: 200, body: { notice: NOTICE, faults: this.faults.get() } };
				},
				DELETE: () => {
					this.faults.set(null);
					return { status: 200, body: { notice: NOTICE, faults: null } };
				},
			},
		};
		const handlers = routes[path];
		if (!handlers) return { status: 404, body: { notice: NOTICE, message: 'Unknown sandbox endpoint.' } };
		const h = handlers[method];
		if (!h) {
			return { status: 405, body: { notice: NOTICE, message: 'Method not allowed.' }, headers: { Allow: Object.keys(handlers).join(', ') } };
		}
		return h();
	}

	// -------------------------------------------------------------------------------------------
	// Output
	// -------------------------------------------------------------------------------------------
	/** Writes the reply; returns false when the socket is already gone. */
	private send(res: ServerResponse, reply: Reply): boolean {
		if (res.destroyed || res.writableEnded || this.closed) return false;
		const text = reply.bodyText ?? JSON.stringify(reply.body);
		res.writeHead(reply.status, {
			'Content-Type': 'application/json',
			'Content-Length': Buffer.byteLength(text),
			...(reply.headers ?? {}),
		});
		res.end(text);
		return true;
	}

	private record(entry: RecordedRequest): void {
		this.recorded.push(entry);
		if (this.recorded.length > MAX_RECORDED_REQUESTS) this.recorded.splice(0, this.recorded.length - MAX_RECORDED_REQUESTS);
	}

	private log(e: {
		method: string;
		path: string;
		status: number | null;
		key: string | null;
		started: number;
		operation: LogEntry['operation'];
		replayed: boolean;
		fault: FaultKind | null;
	}): void {
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

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

type RouteMatch =
	| { kind: 'ok'; operation: Operation; record: string }
	| { kind: 'method'; allow: string }
	| { kind: 'none' };

/** Non-numeric record IDs do not match a route: 404 before authentication, like an unknown path. */
function matchRoute(method: string, path: string): RouteMatch {
	const allow: string[] = [];
	for (const r of ROUTES) {
		const m = r.re.exec(path);
		if (!m || !/^[0-9]+$/.test(m[1])) continue;
		if (r.method === method) return { kind: 'ok', operation: r.operation, record: m[1] };
		allow.push(r.method);
	}
	return allow.length > 0 ? { kind: 'method', allow: allow.join(', ') } : { kind: 'none' };
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
	const v = req.headers[name];
	return Array.isArray(v) ? v.join(', ') : v;
}

function safeHeaders(req: IncomingMessage): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [k, v] of Object.entries(req.headers)) {
		if (k === 'authorization' || v === undefined) continue;
		out[k] = Array.isArray(v) ? v.join(', ') : v;
	}
	return out;
}

function parseForRecord(text: string): unknown {
	if (text === '') return null;
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

function invalidRequest(message: string): OpResult {
	return { status: 422, applied: false, body: errorBody(message) };
}

function destroySocket(res: ServerResponse, reset: boolean): void {
	const socket = res.socket;
	if (!socket) return;
	if (reset && typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
	else socket.destroy();
}

function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let tooLarge = false;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > MAX_BODY_BYTES) tooLarge = true;
			else chunks.push(chunk);
		});
		req.on('end', () => (tooLarge ? reject(new Error('too large')) : resolve(Buffer.concat(chunks).toString('utf8'))));
		req.on('error', reject);
	});
}

export { OPERATIONS };
