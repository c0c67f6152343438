// The Inventory API sandbox (sandbox/) as a separate process on a free loopback port, and its
// /_sandbox inspection and control endpoints.
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';

import { TOKENS } from '../../fixtures/index.js';
import {
	REPO_DIR,
	WORK_DIR,
	cleanEnv,
	freePort,
	mustRun,
	spawnService,
	stopService,
	tail,
	waitFor,
} from './util.mjs';

export const ADMIN_TOKEN = 'e2e-sandbox-admin';
/** The admin token the sandbox's CLI takes when given none (sandbox/README.md). */
export const DEFAULT_ADMIN_TOKEN = 'sandbox-admin';
export const API_TOKEN = TOKENS.fullAccess;

/** The sandbox package's build (sandbox/tsconfig.json) into sandbox/dist: the CLI that npx runs. */
const SANDBOX_CLI = path.join(REPO_DIR, 'sandbox', 'dist', 'cli.js');

export async function buildSandbox() {
	await mustRun('npx', ['--no-install', 'tsc', '-p', path.join('sandbox', 'tsconfig.json')], {
		cwd: REPO_DIR,
		timeoutMs: 5 * 60_000,
	});
}

/** The sandbox built from this checkout and started (options as for Sandbox.start). */
export async function startSandbox(options) {
	await buildSandbox();
	return await new Sandbox().start(options);
}

export class Sandbox {
	/**
	 * `tls`: HTTPS with the sandbox's self-signed certificate (its file is kept for the admin calls);
	 * `rateLimit`: `{ ratePerSecond, burst }`, the sandbox's token bucket per organization;
	 * `requestLog`: the CLI's banner and one JSON line per request go to `logFile`;
	 * `adminToken`: the token of the /_sandbox endpoints.
	 */
	async start({
		port,
		logFile,
		tls = false,
		rateLimit,
		requestLog = false,
		adminToken = ADMIN_TOKEN,
	} = {}) {
		this.adminToken = adminToken;
		this.port = port ?? (await freePort());
		this.baseUrl = `${tls ? 'https' : 'http'}://127.0.0.1:${this.port}`;
		if (!fs.existsSync(SANDBOX_CLI))
			throw new Error(`${SANDBOX_CLI} missing: build the sandbox first (npm run build:sandbox)`);
		logFile = logFile ?? path.join(WORK_DIR, `sandbox-${process.pid}.log`);
		this.logFile = logFile;
		this.service = spawnService(
			'sandbox',
			process.execPath,
			[
				SANDBOX_CLI,
				...['--port', String(this.port), '--admin-token', adminToken],
				...(requestLog ? [] : ['--quiet']),
				...(tls ? ['--tls', '--cert-out', (this.certificateFile = `${logFile}.cert.pem`)] : []),
				...(rateLimit
					? ['--rate-limit', String(rateLimit.ratePerSecond), '--burst', String(rateLimit.burst)]
					: []),
			],
			{
				env: cleanEnv(),
				cwd: REPO_DIR,
				logFile,
			},
		);
		await waitFor(
			`sandbox health on ${this.baseUrl}`,
			async () => {
				if (this.service.exited)
					throw new Error(`sandbox exited (${this.service.exitCode}):\n${tail(logFile)}`);
				return (await this.request('GET', '/_sandbox/health')).ok;
			},
			{ timeoutMs: 30_000, intervalMs: 100 },
		);
		return this;
	}

	/** One request to the sandbox, over HTTPS trusting its own certificate when it serves TLS. */
	request(method, p, { headers = {}, body } = {}) {
		const url = new URL(p, this.baseUrl);
		const secure = url.protocol === 'https:';
		return new Promise((resolve, reject) => {
			const req = (secure ? https : http).request(
				url,
				{
					method,
					headers,
					timeout: 30_000,
					...(secure ? { ca: fs.readFileSync(this.certificateFile) } : {}),
				},
				(res) => {
					let text = '';
					res.setEncoding('utf8');
					res.on('data', (chunk) => (text += chunk));
					res.on('end', () => resolve({ ok: res.statusCode < 300, status: res.statusCode, text }));
				},
			);
			req.on('timeout', () => req.destroy(new Error(`sandbox ${method} ${p}: timed out`)));
			req.on('error', reject);
			req.end(body);
		});
	}

	async admin(method, p, body) {
		const res = await this.request(method, `/_sandbox${p}`, {
			headers: {
				authorization: `Bearer ${this.adminToken}`,
				...(body !== undefined ? { 'content-type': 'application/json' } : {}),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		if (!res.ok)
			throw new Error(
				`sandbox ${method} /_sandbox${p} -> ${res.status}: ${res.text.slice(0, 500)}`,
			);
		return res.text ? JSON.parse(res.text) : undefined;
	}

	state() {
		return this.admin('GET', '/state');
	}

	async requests() {
		return (await this.admin('GET', '/requests')).requests;
	}

	reset() {
		return this.admin('POST', '/reset');
	}

	setFaults(config) {
		return config === null ? this.admin('DELETE', '/faults') : this.admin('PUT', '/faults', config);
	}

	/** The token bucket per organization, `{ ratePerSecond, burst }`, or null (off). */
	setRateLimit(limit) {
		return limit === null
			? this.admin('DELETE', '/rate-limit')
			: this.admin('PUT', '/rate-limit', limit);
	}

	async stop() {
		await stopService(this.service);
	}
}
