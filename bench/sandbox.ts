/**
 * The sandbox and the latency proxy, each in its own process (sandbox/dist/cli.js,
 * build/bench/latency-proxy.js), so that their work does not share the event loop being measured.
 * The sandbox is driven through its /_sandbox endpoints.
 */
import axios, { type AxiosInstance } from 'axios';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent as HttpsAgent } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type {
	FaultConfig,
	RateLimitConfig,
	RecordedRequest,
	SandboxState,
	SeedData,
} from '../sandbox/src';
import { TOKENS } from '../test/fixtures';
import { packageRoot } from '../test/harness/engine';

export const TOKEN = TOKENS.fullAccess;
const ADMIN_TOKEN = 'bench-admin';
/** The requests the sandbox's log keeps: every attempt of the longest run (10,000 items and their retries). */
const BENCH_RECORDED_REQUESTS = 50_000;

/** The bench's assets: `BENCH_ASSET_COUNT` of them from this ID on, in the organization of TOKEN. */
export const FIRST_BENCH_ASSET = 2001;
export const BENCH_ASSET_COUNT = 1000;

export interface Sandbox {
	baseUrl: string;
	/** The PEM certificate of a TLS sandbox (self-signed: clients take it as their CA). */
	certificate?: string;
	admin: AxiosInstance;
	reset(): Promise<void>;
	setFaults(faults: FaultConfig | null): Promise<void>;
	setRateLimit(limit: RateLimitConfig | null): Promise<void>;
	state(): Promise<SandboxState>;
	requests(): Promise<RecordedRequest[]>;
	stop(): void;
}

/**
 * The repository's seed plus BENCH_ASSET_COUNT assets for TOKEN's organization, written to a
 * temporary file: the seed's 20 assets are too few for a workload where items address many records.
 */
function writeBenchSeed(): string {
	const seed = JSON.parse(
		readFileSync(join(packageRoot(), 'sandbox', 'seed.json'), 'utf8'),
	) as SeedData;
	const organizationId = seed.tokens.find((token) => token.token === TOKEN)?.organization_id;
	const organization = seed.organizations.find((org) => org.id === organizationId);
	if (!organization) throw new Error(`seed.json has no organization for ${TOKEN}`);
	const template = organization.assets[0];
	for (let i = 0; i < BENCH_ASSET_COUNT; i++) {
		organization.assets.push({
			...template,
			id: FIRST_BENCH_ASSET + i,
			name: `Bench asset ${i + 1}`,
		});
	}
	const file = join(mkdtempSync(join(tmpdir(), 'inventory-bench-')), 'seed.json');
	writeFileSync(file, JSON.stringify(seed));
	return file;
}

let benchSeedFile: string | undefined;

/** Spawns a process and resolves with the first match of `pattern` in its stdout. */
async function spawnAndRead(
	args: string[],
	pattern: RegExp,
): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
	const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
	const match = await new Promise<RegExpExecArray>((resolve, reject) => {
		let out = '';
		child.stdout?.on('data', (chunk: Buffer) => {
			out += chunk.toString();
			const found = pattern.exec(out);
			if (found) resolve(found);
		});
		child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}`)));
	});
	child.stdout?.resume();
	return { child, match };
}

export async function startSandboxProcess(options: { tls?: boolean } = {}): Promise<Sandbox> {
	benchSeedFile ??= writeBenchSeed();
	const cli = join(packageRoot(), 'sandbox', 'dist', 'cli.js');
	const { child, match } = await spawnAndRead(
		[
			cli,
			'--port',
			'0',
			'--quiet',
			'--admin-token',
			ADMIN_TOKEN,
			'--seed',
			benchSeedFile,
			'--record',
			String(BENCH_RECORDED_REQUESTS),
			...(options.tls ? ['--tls'] : []),
		],
		options.tls
			? /base URL\s+(\S+)\n[\s\S]*?self-signed certificate:\s+(\S+)\n/
			: /base URL\s+(\S+)\n/,
	);
	const baseUrl = match[1];
	const certificate = options.tls ? readFileSync(match[2], 'utf8') : undefined;
	const admin = axios.create({
		baseURL: baseUrl,
		headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
		maxContentLength: Infinity,
		...(certificate ? { httpsAgent: new HttpsAgent({ ca: certificate }) } : {}),
	});
	return {
		baseUrl,
		certificate,
		admin,
		reset: async () => void (await admin.post('/_sandbox/reset')),
		setFaults: async (faults) =>
			void (faults
				? await admin.put('/_sandbox/faults', faults)
				: await admin.delete('/_sandbox/faults')),
		setRateLimit: async (limit) =>
			void (limit
				? await admin.put('/_sandbox/rate-limit', limit)
				: await admin.delete('/_sandbox/rate-limit')),
		state: async () => (await admin.get<SandboxState>('/_sandbox/state')).data,
		requests: async () =>
			(await admin.get<{ requests: RecordedRequest[] }>('/_sandbox/requests')).data.requests,
		stop: () => void child.kill('SIGTERM'),
	};
}

export interface ProxyProcess {
	/** The sandbox's base URL through the proxy. */
	baseUrl: string;
	rttMs: number;
	stop(): void;
}

/** The latency proxy (bench/latency-proxy.ts) in front of the sandbox, in its own process. */
export async function startProxyProcess(sandbox: Sandbox, rttMs: number): Promise<ProxyProcess> {
	const target = new URL(sandbox.baseUrl);
	const { child, match } = await spawnAndRead(
		[
			join(packageRoot(), 'build', 'bench', 'latency-proxy.js'),
			'--target',
			`${target.hostname}:${target.port}`,
			'--rtt',
			String(rttMs),
		],
		/port (\d+)\n/,
	);
	return {
		baseUrl: `${target.protocol}//${target.hostname}:${match[1]}`,
		rttMs,
		stop: () => void child.kill('SIGTERM'),
	};
}
