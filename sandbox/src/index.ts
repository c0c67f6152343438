/**
 * Inventory API sandbox: an in-memory, contract-faithful simulator of the three write operations of
 * the API as docs/api.md describes it, for tests, benchmarks and demos. Not the real service.
 */
import { createServer as createHttpServer, type RequestListener } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Server, Socket } from 'node:net';

import { validateFaultConfig } from './faults/engine';
import { DEFAULT_SEED_FILE, loadSeedFile, validateSeed } from './domain/seed';
import { DEFAULT_RECORDED_REQUESTS, SandboxCore } from './http/server';
import { makeSelfSignedCertificate, type TlsKeyAndCertificate } from './http/tls';
import type {
	FaultConfig,
	HeldRequest,
	LogEntry,
	RateLimitConfig,
	RecordedRequest,
	SandboxState,
	SeedData,
} from './types';

export * from './types';
export { DEFAULT_SEED_FILE, loadSeedFile } from './domain/seed';
export type { TlsKeyAndCertificate } from './http/tls';

/** Default admin token for local use (override with the adminToken option or SANDBOX_ADMIN_TOKEN). */
export const DEFAULT_ADMIN_TOKEN = 'sandbox-admin';

export interface SandboxOptions {
	/** 0 = random free port. Default 0. */
	port?: number;
	/** Default 127.0.0.1 (loopback). */
	host?: string;
	/** Seed data object; wins over seedFile. */
	seed?: SeedData;
	/** Seed JSON file; default the seed.json that comes with the sandbox (DEFAULT_SEED_FILE). */
	seedFile?: string;
	/** Token for the /_sandbox endpoints; default $SANDBOX_ADMIN_TOKEN or 'sandbox-admin'. */
	adminToken?: string;
	/** Fault injection from the start (off when omitted). */
	faults?: FaultConfig;
	/** Token-bucket rate limit per organization (429 with Retry-After); off when absent or null. */
	rateLimit?: RateLimitConfig | null;
	/** true (default): JSON lines on stdout; false: silent; function: receives each entry. */
	log?: boolean | ((entry: LogEntry) => void);
	/** Clock of the sandbox (event_date checks, timestamps, token expiry). Default: real time. */
	now?: () => Date;
	/** HTTPS: true = a self-signed certificate for localhost and 127.0.0.1 made at start (needs openssl); or your own key and certificate. Default: plain HTTP. */
	tls?: boolean | TlsKeyAndCertificate;
	/** How many API requests the request log keeps, the latest ones (a positive integer). Default 10,000. */
	recordedRequests?: number;
}

export interface SandboxHandle {
	/** e.g. http://127.0.0.1:43123, or https://… with tls (no trailing slash). */
	baseUrl: string;
	/** With tls: the certificate (PEM) that clients trust, e.g. as their CA. */
	certificate?: string;
	adminToken: string;
	setFaults(f: FaultConfig | null): void;
	/** Same as PUT /_sandbox/rate-limit (null: DELETE); throws on an invalid limit. */
	setRateLimit(limit: RateLimitConfig | null): void;
	/** Back to the seed: records, events, idempotency keys, counters and request log are cleared. */
	reset(): void;
	/** Same as GET /_sandbox/state. */
	state(): SandboxState;
	/** Same as GET /_sandbox/requests. */
	requests(): RecordedRequest[];
	/**
	 * In-process only (no endpoint): while a listener is set, each timed wait of a request (latencyMs,
	 * processingDelayMs, the holdInFlight and slowResponse faults) lasts until the held request's
	 * `release()` instead of its milliseconds; the listener is called as each wait begins. null: the
	 * waits take their milliseconds again, and every request still held is released.
	 */
	holdRequests(listener: ((held: HeldRequest) => void) | null): void;
	close(): Promise<void>;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<SandboxHandle> {
	const seed = opts.seed ?? loadSeedFile(opts.seedFile ?? DEFAULT_SEED_FILE);
	validateSeed(seed);
	const recordedRequests = opts.recordedRequests ?? DEFAULT_RECORDED_REQUESTS;
	if (!Number.isInteger(recordedRequests) || recordedRequests < 1)
		throw new Error(
			`recordedRequests must be a positive integer (got ${String(recordedRequests)})`,
		);
	const adminToken = opts.adminToken ?? process.env.SANDBOX_ADMIN_TOKEN ?? DEFAULT_ADMIN_TOKEN;
	const core = new SandboxCore({
		seed: JSON.parse(JSON.stringify(seed)) as SeedData,
		adminToken,
		now: opts.now ?? (() => new Date()),
		log: opts.log ?? true,
		recordedRequests,
	});
	if (opts.faults) core.setFaults(validateFaultConfig(opts.faults));
	core.setRateLimit(opts.rateLimit ?? null);

	const sockets = new Set<Socket>();
	const handleRequest: RequestListener = (req, res) => {
		core.handle(req, res).catch((error: unknown) => {
			if (!res.headersSent && !res.destroyed) {
				res.writeHead(500, { 'Content-Type': 'application/json' });
				res.end(
					JSON.stringify({
						message: `Sandbox internal error: ${(error as Error)?.message ?? String(error)}`,
					}),
				);
			}
		});
	};
	const tls = opts.tls === true ? makeSelfSignedCertificate() : opts.tls || null;
	const server: Server = tls
		? createHttpsServer({ key: tls.key, cert: tls.cert }, handleRequest)
		: createHttpServer(handleRequest);
	server.on('connection', (s) => {
		sockets.add(s);
		s.on('close', () => sockets.delete(s));
	});
	const host = opts.host ?? '127.0.0.1';
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(opts.port ?? 0, host, () => {
			server.off('error', reject);
			resolve();
		});
	});
	const address = server.address() as AddressInfo;
	const urlHost =
		address.family === 'IPv6' || host.includes(':') ? `[${address.address}]` : address.address;

	let closing: Promise<void> | null = null;
	return {
		baseUrl: `${tls ? 'https' : 'http'}://${urlHost}:${address.port}`,
		...(tls ? { certificate: tls.cert } : {}),
		adminToken,
		setFaults: (f) => core.setFaults(validateFaultConfig(f)),
		setRateLimit: (limit) => core.setRateLimit(limit),
		reset: () => core.reset(),
		state: () => core.state(),
		requests: () => core.requests(),
		holdRequests: (listener) => core.holdRequests(listener),
		close: () => {
			closing ??= new Promise<void>((resolve) => {
				core.shutdown();
				server.close(() => resolve());
				for (const s of sockets) s.destroy();
			});
			return closing;
		},
	};
}
