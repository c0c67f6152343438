/**
 * The /_sandbox inspection and control endpoints. They are not part of the Inventory API: every
 * body says so (NOTICE), and all but /_sandbox/health need the admin token.
 */
import type { IncomingMessage } from 'node:http';

import { isAdmin } from './auth';
import { validateFaultConfig, type FaultEngine } from './faults';
import type { Reply } from './request';
import type { RecordedRequest, SandboxState } from './types';

export const NOTICE = 'Sandbox inspection/control endpoint: NOT part of the Inventory API.';

/** What the endpoints read and change. */
export interface AdminTarget {
	readonly adminToken: string;
	readonly faults: FaultEngine;
	state(): SandboxState;
	requests(): RecordedRequest[];
	clearRequests(): void;
	reset(): void;
}

export function adminReply(target: AdminTarget, method: string, path: string, req: IncomingMessage, bodyText: string): Reply {
	if (path === '/_sandbox/health' && method === 'GET') return { status: 200, body: { notice: NOTICE, ok: true } };
	if (!isAdmin(req, target.adminToken)) {
		return { status: 401, body: { notice: NOTICE, message: 'The sandbox admin token is required (Authorization: Bearer <admin token>).' } };
	}
	const handlers = adminRoutes(target, bodyText)[path];
	if (!handlers) return { status: 404, body: { notice: NOTICE, message: 'Unknown sandbox endpoint.' } };
	const handler = handlers[method];
	if (!handler) {
		return { status: 405, body: { notice: NOTICE, message: 'Method not allowed.' }, headers: { Allow: Object.keys(handlers).join(', ') } };
	}
	return handler();
}

function adminRoutes(target: AdminTarget, bodyText: string): Record<string, Record<string, () => Reply>> {
	const { faults } = target;
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
			GET: () => ({ status: 200, body: { notice: NOTICE, faults: faults.get(), counters: { ...faults.counters } } }),
			PUT: () => {
				try {
					faults.set(validateFaultConfig(bodyText.trim() === '' ? null : JSON.parse(bodyText)));
				} catch (error) {
					return { status: 422, body: { notice: NOTICE, message: `Invalid fault config: ${(error as Error).message}` } };
				}
				return { status: 200, body: { notice: NOTICE, faults: faults.get() } };
			},
			DELETE: () => {
				faults.set(null);
				return { status: 200, body: { notice: NOTICE, faults: null } };
			},
		},
	};
}
