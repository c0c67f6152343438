import type { Logger } from 'n8n-workflow';
import { createHash } from 'node:crypto';

import { RecordLocks } from './recordLocks';
import {
	AdaptiveThrottle,
	FixedThrottle,
	ServerPause,
	type AdaptiveLane,
	type SendThrottle,
} from './throttle';

/** How many requests go out at once: a fixed number, or found automatically up to a maximum. */
export type ConcurrencySetting =
	| { mode: 'fixed'; concurrency: number }
	| { mode: 'automatic'; maxInFlight: number };

/** A controller nobody used for this long is forgotten (on the next use of any controller). */
export const CONTROLLER_IDLE_MS = 5 * 60 * 1000;

/**
 * A node run's share of its server's controller: what it sends through (its throttle), the record
 * locks shared with other runs, its bound.
 */
export interface ControllerShare {
	throttle: SendThrottle;
	recordLocks: RecordLocks;
	/** Items under way at once (items waiting to retry hold no request slot, so automatic allows twice its bound). */
	maxActive: number;
	/** The run is over (whatever its outcome): its bound and records no longer count. */
	close(): void;
}

/**
 * What every execution in the process shares about one server and credential: the pause a 429 asks
 * for, automatic concurrency's rate and what it has learned, and who is changing which record.
 */
export class ServerController {
	readonly pause = new ServerPause((waitMs) =>
		this.logger.debug('Inventory: rate limit answered, every request to the server held back', {
			baseUrl: this.baseUrl,
			waitMs,
		}),
	);
	readonly recordLocks = new RecordLocks();
	readonly throttle: AdaptiveThrottle;
	/** The logger of the latest run, for the cuts (n8n's logger is the same for every execution). */
	logger: Logger;
	lastUsedAt: number;
	private openShares = 0;

	constructor(
		readonly baseUrl: string,
		logger: Logger,
		private readonly now: () => number,
	) {
		this.logger = logger;
		this.lastUsedAt = now();
		this.throttle = new AdaptiveThrottle(
			this.pause,
			(state) =>
				this.logger.debug('Inventory: rate limit answered, sending rate cut', {
					baseUrl: this.baseUrl,
					...state,
				}),
			() => this.recordLocks.someoneWaits,
		);
	}

	/** No run is open and nothing is in flight or holds a record. */
	get idle(): boolean {
		return this.openShares === 0 && this.throttle.idle && this.recordLocks.idle;
	}

	/** A node run joins: its share, until it closes it. */
	join(concurrency: ConcurrencySetting, logger: Logger): ControllerShare {
		this.openShares++;
		this.logger = logger;
		this.lastUsedAt = this.now();
		const lane: AdaptiveLane | undefined =
			concurrency.mode === 'automatic'
				? this.throttle.openLane(concurrency.maxInFlight)
				: undefined;
		let closed = false;
		return {
			throttle: lane ?? new FixedThrottle(this.pause),
			recordLocks: this.recordLocks,
			maxActive:
				concurrency.mode === 'automatic' ? 2 * concurrency.maxInFlight : concurrency.concurrency,
			close: () => {
				if (closed) return;
				closed = true;
				this.openShares--;
				this.lastUsedAt = this.now();
				if (!lane) return;
				lane.close();
				logger.debug('Inventory: automatic concurrency settled', { ...this.throttle.state() });
			},
		};
	}
}

/** Whose server a controller paces: the base URL and the credential's token (kept only as a hash). */
export interface ServerIdentity {
	baseUrl: string;
	token: string;
}

/**
 * One ServerController per base URL and credential token in the process, keyed by the URL and a
 * SHA-256 of the token (never the token). Like n8n's own connection pools, a controller nobody used for
 * CONTROLLER_IDLE_MS is dropped; without timers, on the next lookup.
 */
export class ServerControllers {
	private readonly controllers = new Map<string, ServerController>();

	constructor(private readonly now: () => number = () => Date.now()) {}

	controllerFor(connection: ServerIdentity, logger: Logger) {
		this.forgetIdle(logger);
		const tokenHash = createHash('sha256').update(connection.token).digest('hex');
		const key = `${connection.baseUrl}\n${tokenHash}`;
		let controller = this.controllers.get(key);
		if (!controller) {
			controller = new ServerController(connection.baseUrl, logger, this.now);
			this.controllers.set(key, controller);
			logger.debug('Inventory: rate controller created', {
				baseUrl: connection.baseUrl,
				controllers: this.controllers.size,
			});
		}
		return controller;
	}

	/** Drops every controller idle for CONTROLLER_IDLE_MS. */
	forgetIdle(logger: Logger): void {
		const now = this.now();
		for (const [key, controller] of this.controllers) {
			if (controller.idle && now - controller.lastUsedAt >= CONTROLLER_IDLE_MS) {
				this.controllers.delete(key);
				logger.debug('Inventory: idle rate controller forgotten', {
					baseUrl: controller.baseUrl,
					idleMs: now - controller.lastUsedAt,
					...controller.throttle.state(),
				});
			}
		}
	}
}

/** The process's controllers: module state, shared by every execution and run of the node. */
export const serverControllers = new ServerControllers();

/** The run's way to the server: the shared controller of its base URL and credential. */
export function joinServerController(
	context: { logger: Logger },
	connection: ServerIdentity,
	concurrency: ConcurrencySetting,
): ControllerShare {
	return serverControllers
		.controllerFor(connection, context.logger)
		.join(concurrency, context.logger);
}
