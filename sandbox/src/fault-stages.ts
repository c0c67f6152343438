/**
 * Where the injected faults act on a request. Before the action: added latency, then 429, a reset
 * connection or a 5xx (nothing applied). After an applied action: the response dropped or held back.
 * A stage that returns an Outcome has answered the request; null lets it go on.
 */
import type { ServerResponse } from 'node:http';

import type { FaultPlan } from './faults';
import { destroySocket, type Outcome, type Reply, type RequestContext } from './request';
import { errorBody } from './results';

export interface FaultIo {
	sleep(ms: number): Promise<void>;
	/** Writes the reply; false when the client is gone. */
	send(res: ServerResponse, reply: Reply): boolean;
}

export async function faultBeforeApply(plan: FaultPlan, ctx: RequestContext, io: FaultIo): Promise<Outcome | null> {
	if (plan.latencyMs > 0) {
		plan.recordLatency();
		await io.sleep(plan.latencyMs);
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
			body: errorBody('Service temporarily unavailable (sandbox fault injection; nothing was applied).'),
			headers: { 'X-Sandbox-Fault': 'serverError' },
		});
	}
	return null;
}

/** Only for a reply that applied an action: a replay or an error is never dropped or slowed. */
export async function faultAfterApply(plan: FaultPlan, ctx: RequestContext, reply: Reply, io: FaultIo): Promise<Outcome | null> {
	if (!reply.applied) return null;
	if (plan.fires('dropAfterApply')) {
		destroySocket(ctx.res, false);
		return { reply, fault: 'dropAfterApply', delivered: false };
	}
	if (plan.fires('slowResponse')) {
		await io.sleep(plan.slowResponseDelayMs);
		return { reply, fault: 'slowResponse', delivered: io.send(ctx.res, reply) };
	}
	return null;
}

function answer(ctx: RequestContext, io: FaultIo, fault: Outcome['fault'], reply: Reply): Outcome {
	io.send(ctx.res, reply);
	return { reply, fault, delivered: true };
}
