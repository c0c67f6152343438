/**
 * Where the injected faults act on a request. Before the action: added latency, then 429, a reset
 * connection or a 5xx (nothing applied). While its key is held in flight: the hold (then applied).
 * After an applied action: the response dropped or held back. A stage that returns an Outcome has
 * answered the request; null lets it go on.
 */
import type { ServerResponse } from 'node:http';

import type { FaultPlan } from './engine';
import {
	destroySocket,
	type ApiRequest,
	type Outcome,
	type Reply,
	type RequestContext,
} from '../http/request';
import { errorBody } from '../domain/results';
import type { HoldKind } from '../types';

export interface FaultIo {
	/** A timed wait of the request: `ms`, or until released while a hold listener is set. */
	hold(kind: HoldKind, ctx: ApiRequest, ms: number): Promise<void>;
	/** Writes the reply; false when the client is gone. */
	send(res: ServerResponse, reply: Reply): boolean;
}

export async function faultBeforeApply(
	plan: FaultPlan,
	ctx: ApiRequest,
	io: FaultIo,
): Promise<Outcome | null> {
	if (plan.latencyMs > 0) {
		plan.recordLatency();
		await io.hold('latency', ctx, plan.latencyMs);
	}
	const retryAfter = plan.rateLimited(Date.now());
	if (retryAfter !== null) {
		return answer(ctx, io, 'rateLimited', {
			status: 429,
			body: errorBody(`Too many requests. Retry after ${retryAfter} seconds.`),
			headers: { 'Retry-After': String(retryAfter), 'X-Sandbox-Fault': 'rateLimited' },
		});
	}
	if (plan.fires('resetBeforeApply')) {
		destroySocket(ctx.res, true);
		return { reply: null, fault: 'resetBeforeApply', delivered: false };
	}
	if (plan.fires('serverError')) {
		return answer(ctx, io, 'serverError', {
			status: plan.serverErrorStatus,
			body: errorBody(
				'Service temporarily unavailable (sandbox fault injection; nothing was applied).',
			),
			headers: { 'X-Sandbox-Fault': 'serverError' },
		});
	}
	return null;
}

/**
 * With the key held in flight, before the action is applied: processingDelayMs (not a fault), then
 * the holdInFlight fault, which keeps the key for longer than a client waits. true when it held.
 */
export async function faultWhileInFlight(
	plan: FaultPlan,
	ctx: ApiRequest,
	io: FaultIo,
): Promise<boolean> {
	if (plan.processingDelayMs > 0) await io.hold('processing', ctx, plan.processingDelayMs);
	if (!plan.fires('holdInFlight')) return false;
	await io.hold('holdInFlight', ctx, plan.holdInFlightMs);
	return true;
}

/**
 * A held action's reply goes out as it is (its client has most likely given up). Otherwise only a
 * reply that applied an action is dropped or slowed; a replay or an error never is.
 */
export async function faultAfterApply(
	plan: FaultPlan,
	ctx: ApiRequest,
	reply: Reply,
	io: FaultIo,
): Promise<Outcome | null> {
	if (reply.heldInFlight)
		return { reply, fault: 'holdInFlight', delivered: io.send(ctx.res, reply) };
	if (!reply.applied) return null;
	if (plan.fires('dropAfterApply')) {
		destroySocket(ctx.res, false);
		return { reply, fault: 'dropAfterApply', delivered: false };
	}
	if (plan.fires('slowResponse')) {
		await io.hold('slowResponse', ctx, plan.slowResponseDelayMs);
		return { reply, fault: 'slowResponse', delivered: io.send(ctx.res, reply) };
	}
	return null;
}

function answer(ctx: RequestContext, io: FaultIo, fault: Outcome['fault'], reply: Reply): Outcome {
	io.send(ctx.res, reply);
	return { reply, fault, delivered: true };
}
