/**
 * The three API operations behind routing and faults: authentication, the rate limit, permission,
 * Accept, the Idempotency-Key (replay, 409, or hold the key in flight), then the body and the
 * operation itself.
 */
import { authenticate } from './auth';
import { bump } from '../domain/counters';
import { IdempotencyStore, UUID_RE, fingerprint } from '../domain/idempotency';
import { createTodo, recordAcquisition, updateBilling } from '../domain/operations';
import type { RateLimiter } from './rate-limit';
import {
	acceptsJson,
	headerValue,
	isJsonContentType,
	type ApiRequest,
	type Reply,
} from './request';
import { errorBody, type OpResult } from '../domain/results';
import type { Counters, Operation, Permission, SeedToken } from '../types';
import type { Org } from '../domain/records';
import type { World } from '../domain/world';

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
	{
		operation: 'recordAcquisition',
		method: 'POST',
		re: /^\/api\/v1\/assets\/([^/]+)\/acquisitions$/,
	},
];

export type RouteMatch =
	| { kind: 'ok'; operation: Operation; record: string }
	| { kind: 'method'; allow: string }
	| { kind: 'none' };

/** Non-numeric record IDs do not match a route: 404 before authentication, like an unknown path. */
export function matchRoute(method: string, path: string): RouteMatch {
	const allow: string[] = [];
	for (const r of ROUTES) {
		const m = r.re.exec(path);
		if (!m || !/^[0-9]+$/.test(m[1])) continue;
		if (r.method === method) return { kind: 'ok', operation: r.operation, record: m[1] };
		allow.push(r.method);
	}
	return allow.length > 0 ? { kind: 'method', allow: allow.join(', ') } : { kind: 'none' };
}

/** The state the operations read and change (replaced as a whole on reset, hence read each time). */
export interface ApiState {
	readonly world: World;
	readonly idempotency: IdempotencyStore;
	readonly counters: Counters;
	readonly rateLimiter: RateLimiter;
	/** Counts the resets (the request's own generation is the one it arrived in). */
	readonly generation: number;
	now(): Date;
}

/** `whileInFlight` runs with the key held, before the action is applied; true when it held the action as a fault. */
export async function apiReply(
	state: ApiState,
	ctx: ApiRequest,
	whileInFlight: () => Promise<boolean>,
): Promise<Reply> {
	const auth = authenticate(ctx.req, state.world, state.now());
	if (!auth.ok) return auth.reply;
	const { token, org } = auth;

	// Like a gateway: before anything is looked at, so a refused request applies and stores nothing.
	const retryAfterSeconds = state.rateLimiter.take(org.id);
	if (retryAfterSeconds !== null) {
		state.counters.rateLimited++;
		return {
			status: 429,
			body: errorBody(
				`Rate limit reached: too many requests for this organization. Retry after ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}.`,
			),
			headers: { 'Retry-After': String(retryAfterSeconds) },
		};
	}

	const permission = PERMISSION[ctx.operation];
	if (!token.permissions.includes(permission)) {
		return {
			status: 403,
			body: errorBody(`Forbidden: this action requires the ${permission} permission.`),
		};
	}
	if (!acceptsJson(headerValue(ctx.req, 'accept'))) {
		return {
			status: 406,
			body: errorBody('Not acceptable: this API responds with application/json.'),
		};
	}

	const { rawKey } = ctx;
	if (!rawKey)
		return {
			status: 422,
			body: errorBody('The Idempotency-Key header is required (a client-generated UUID).'),
		};
	if (!UUID_RE.test(rawKey))
		return { status: 422, body: errorBody('The Idempotency-Key header must be a UUID.') };
	const key = rawKey.toLowerCase();
	const fp = fingerprint(ctx.method, ctx.path, ctx.bodyText);
	const earlier = idempotentAnswer(state, org.id, key, fp);
	if (earlier) return earlier;

	// Hold the key while the action is processed.
	state.idempotency.begin(org.id, key, fp);
	try {
		const heldInFlight = await whileInFlight();
		// Reset while the action was held (a hold fault, processing time): it belongs to the world before.
		if (ctx.generation !== state.generation)
			return { status: 503, body: errorBody('The sandbox was reset; send the request again.') };
		const result = applyOperation(state.world, ctx, org, token, key);
		if (!result.applied) return { status: result.status, body: result.body, heldInFlight };
		const text = JSON.stringify(result.body);
		state.idempotency.store({
			organizationId: org.id,
			key,
			fingerprint: fp,
			method: ctx.method,
			path: ctx.path,
			status: result.status,
			bodyText: text,
			storedAt: new Date().toISOString(),
		});
		state.counters.applied++;
		bump(state.counters.appliedByOperation, ctx.operation);
		return {
			status: result.status,
			body: result.body,
			bodyText: text,
			applied: true,
			heldInFlight,
		};
	} finally {
		state.idempotency.end(org.id, key);
	}
}

/** The stored result of a key (replay, or 409 for another request), 409 while it is in flight, else null. */
function idempotentAnswer(state: ApiState, orgId: number, key: string, fp: string): Reply | null {
	const stored = state.idempotency.get(orgId, key);
	if (stored) {
		if (stored.fingerprint !== fp) {
			state.counters.idempotencyMismatches++;
			return {
				status: 409,
				body: errorBody(
					'The Idempotency-Key has already been used for a different request (method, path or body); use a new key for a new action.',
				),
			};
		}
		state.counters.replays++;
		return {
			status: stored.status,
			body: undefined,
			bodyText: stored.bodyText,
			headers: { 'Idempotent-Replayed': 'true' },
			replayed: true,
		};
	}
	if (state.idempotency.isInFlight(orgId, key)) {
		state.counters.idempotencyInFlight++;
		return {
			status: 409,
			body: errorBody(
				'A request with this Idempotency-Key is still being processed; retry later to get its result.',
			),
		};
	}
	return null;
}

function applyOperation(
	world: World,
	ctx: ApiRequest,
	org: Org,
	token: SeedToken,
	key: string,
): OpResult {
	const id = Number(ctx.record);
	// Content-Type and JSON (422): an empty body counts as {}.
	let body: Record<string, unknown> = {};
	if (ctx.bodyText.trim() !== '') {
		if (!isJsonContentType(headerValue(ctx.req, 'content-type'))) {
			return invalidRequest(
				'The request body must be JSON sent with Content-Type: application/json.',
			);
		}
		let parsed: unknown;
		try {
			parsed = JSON.parse(ctx.bodyText);
		} catch {
			return invalidRequest('The request body is not valid JSON.');
		}
		if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
			return invalidRequest('The request body must be a JSON object.');
		}
		body = parsed as Record<string, unknown>;
	}
	// Record lookup (404) comes before body validation inside each operation.
	switch (ctx.operation) {
		case 'createTodo':
			return createTodo(world, org, token, id, body);
		case 'updateBilling':
			return updateBilling(world, org, key, id, body);
		case 'recordAcquisition':
			return recordAcquisition(world, org, key, id, body);
	}
}

function invalidRequest(message: string): OpResult {
	return { status: 422, applied: false, body: errorBody(message) };
}
