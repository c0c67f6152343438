/** The request counters of GET /_sandbox/state (fault counts are kept by the fault engine). */
import { zeroFaultCounters } from '../faults/engine';
import type { Counters } from '../types';

export function emptyCounters(): Counters {
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
		rateLimited: 0,
		faults: zeroFaultCounters(),
	};
}

export function bump(map: Record<string, number>, key: string): void {
	map[key] = (map[key] ?? 0) + 1;
}
