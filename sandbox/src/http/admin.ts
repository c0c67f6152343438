/**
 * The /_sandbox inspection and control endpoints. They are not part of the Inventory API: every
 * body says so (NOTICE), and all but /_sandbox/health need the admin token.
 */
import type { IncomingMessage } from 'node:http';

import { isAdmin } from './auth';
import { validateFaultConfig, type FaultEngine } from '../faults/engine';
import type { IdempotencyStore } from '../domain/idempotency';
import type { RateLimiter } from './rate-limit';
import type { Reply } from './request';
import type { Counters, RateLimitConfig, RecordedRequest, SandboxState } from '../types';
import type { World } from '../domain/world';

export const NOTICE = 'Sandbox inspection/control endpoint: NOT part of the Inventory API.';

/** What the endpoints read and change. */
export interface AdminTarget {
	readonly adminToken: string;
	readonly faults: FaultEngine;
	readonly rateLimiter: RateLimiter;
	readonly world: World;
	readonly counters: Counters;
	state(): SandboxState;
	requests(): RecordedRequest[];
	clearRequests(): void;
	reset(): void;
}

export function adminReply(
	target: AdminTarget,
	method: string,
	path: string,
	req: IncomingMessage,
	bodyText: string,
): Reply {
	if (path === '/_sandbox/health' && method === 'GET')
		return { status: 200, body: { notice: NOTICE, ok: true } };
	if (!isAdmin(req, target.adminToken)) {
		return {
			status: 401,
			body: {
				notice: NOTICE,
				message: 'The sandbox admin token is required (Authorization: Bearer <admin token>).',
			},
		};
	}
	const handlers = adminRoutes(target, bodyText)[path];
	if (!handlers)
		return { status: 404, body: { notice: NOTICE, message: 'Unknown sandbox endpoint.' } };
	const handler = handlers[method];
	if (!handler) {
		return {
			status: 405,
			body: { notice: NOTICE, message: 'Method not allowed.' },
			headers: { Allow: Object.keys(handlers).join(', ') },
		};
	}
	return handler();
}

/** The rate limit in effect and every organization's bucket now. */
function rateLimitView(core: { world: World; rateLimiter: RateLimiter }) {
	return {
		rateLimit: core.rateLimiter.get(),
		rateLimitBuckets: core.rateLimiter.bucketViews([...core.world.orgs.keys()]),
	};
}

/** GET /_sandbox/state (not yet a copy: the caller clones it). */
export function inspectionState(core: {
	world: World;
	idempotency: IdempotencyStore;
	faults: FaultEngine;
	rateLimiter: RateLimiter;
	counters: Counters;
}): SandboxState {
	const w = core.world;
	return {
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
		idempotencyKeys: core.idempotency.entries().map((e) => ({
			organization_id: e.organizationId,
			key: e.key,
			method: e.method,
			path: e.path,
			status: e.status,
			stored_at: e.storedAt,
		})),
		faults: core.faults.get(),
		...rateLimitView(core),
		counters: { ...core.counters, faults: { ...core.faults.counters } },
	};
}

function adminRoutes(
	target: AdminTarget,
	bodyText: string,
): Record<string, Record<string, () => Reply>> {
	const { faults, rateLimiter } = target;
	return {
		'/_sandbox/state': { GET: () => ({ status: 200, body: target.state() }) },
		'/_sandbox/requests': {
			GET: () => ({ status: 200, body: { notice: NOTICE, requests: target.requests() } }),
			DELETE: () => {
				target.clearRequests();
				return { status: 200, body: { notice: NOTICE, cleared: true } };
			},
		},
		'/_sandbox/reset': {
			POST: () => {
				target.reset();
				return { status: 200, body: { notice: NOTICE, reset: true } };
			},
		},
		'/_sandbox/faults': {
			GET: () => ({
				status: 200,
				body: { notice: NOTICE, faults: faults.get(), counters: { ...faults.counters } },
			}),
			PUT: () =>
				putConfig(
					bodyText,
					'fault config',
					(input) => faults.set(validateFaultConfig(input)),
					() => ({
						notice: NOTICE,
						faults: faults.get(),
					}),
				),
			DELETE: () => {
				faults.set(null);
				return { status: 200, body: { notice: NOTICE, faults: null } };
			},
		},
		'/_sandbox/rate-limit': {
			// Read directly: GET /_sandbox/state would copy every record for these three fields.
			GET: () => {
				const { rateLimit, rateLimitBuckets } = rateLimitView(target);
				return {
					status: 200,
					body: {
						notice: NOTICE,
						rateLimit,
						buckets: rateLimitBuckets,
						rateLimited: target.counters.rateLimited,
					},
				};
			},
			PUT: () =>
				putConfig(
					bodyText,
					'rate limit',
					(input) => rateLimiter.set(input as RateLimitConfig | null),
					() => ({ notice: NOTICE, rateLimit: rateLimiter.get() }),
				),
			DELETE: () => {
				rateLimiter.set(null);
				return { status: 200, body: { notice: NOTICE, rateLimit: null } };
			},
		},
	};
}

/** A PUT of a config: the JSON body (empty = null, which turns it off) applied, or 422 with the reason. */
function putConfig(
	bodyText: string,
	what: string,
	apply: (input: unknown) => void,
	answer: () => Record<string, unknown>,
): Reply {
	try {
		apply(bodyText.trim() === '' ? null : JSON.parse(bodyText));
	} catch (error) {
		return {
			status: 422,
			body: { notice: NOTICE, message: `Invalid ${what}: ${(error as Error).message}` },
		};
	}
	return { status: 200, body: answer() };
}
