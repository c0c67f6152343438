#!/usr/bin/env node
/**
 * n8n-nodes-inventory-sandbox [--port 8080] [--host 127.0.0.1] [--seed file.json] [--admin-token T]
 *   [--faults '<json>'] [--rate-limit R [--burst B]] [--tls [--cert-out FILE]] [--record N] [--quiet]
 * (from a clone: npm run sandbox -- [options])
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
	DEFAULT_SEED_FILE,
	loadSeedFile,
	startSandbox,
	type FaultConfig,
	type RateLimitConfig,
	type SeedData,
} from './index';

const USAGE = `Inventory API sandbox (in-memory simulator; not the real service)

Usage: n8n-nodes-inventory-sandbox [options]

Options:
  --port N            port to listen on (default 8080; 0 = random)
  --host H            interface (default 127.0.0.1)
  --seed FILE         seed JSON file (default: the seed.json that comes with the sandbox)
  --admin-token T     token for the /_sandbox endpoints (default $SANDBOX_ADMIN_TOKEN or sandbox-admin)
  --faults JSON       fault injection config, e.g. '{"serverErrorRate":0.2,"seed":7}'
  --rate-limit R      token-bucket rate limit: R requests per second per organization (default off)
  --burst B           bucket size of the rate limit (default R, at least 1)
  --tls               HTTPS with a self-signed certificate for localhost and 127.0.0.1 (needs openssl)
  --cert-out FILE     where --tls writes the certificate (default in the temp directory)
  --record N          keep the latest N API requests for GET /_sandbox/requests (default 10000)
  --quiet             no request log on stdout
  --help              this text
`;

function parseArgs(argv: string[]): Record<string, string | boolean> {
	const known = [
		'port',
		'host',
		'seed',
		'admin-token',
		'faults',
		'rate-limit',
		'burst',
		'tls',
		'cert-out',
		'record',
		'quiet',
		'help',
	];
	const flags = ['quiet', 'help', 'tls'];
	const out: Record<string, string | boolean> = {};
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (!arg.startsWith('--')) throw new Error(`unexpected argument ${arg}`);
		const eq = arg.indexOf('=');
		if (eq > 0) {
			out[arg.slice(2, eq)] = arg.slice(eq + 1);
			continue;
		}
		const name = arg.slice(2);
		if (!known.includes(name)) throw new Error(`unknown option --${name}`);
		if (flags.includes(name)) out[name] = true;
		else {
			const value = argv[++i];
			if (value === undefined) throw new Error(`--${name} needs a value`);
			out[name] = value;
		}
	}
	for (const k of Object.keys(out))
		if (!known.includes(k)) throw new Error(`unknown option --${k}`);
	return out;
}

function describePermissions(permissions: string[]): string {
	return permissions.length === 0 ? '(none)' : permissions.join(', ');
}

async function main(): Promise<void> {
	let args: Record<string, string | boolean>;
	try {
		args = parseArgs(process.argv.slice(2));
	} catch (error) {
		process.stderr.write(`${(error as Error).message}\n\n${USAGE}`);
		process.exit(2);
	}
	if (args.help) {
		process.stdout.write(USAGE);
		return;
	}
	const port = args.port === undefined ? 8080 : Number(args.port);
	if (!Number.isInteger(port) || port < 0 || port > 65535)
		throw new Error(`invalid --port ${String(args.port)}`);
	const seedFile = typeof args.seed === 'string' ? args.seed : DEFAULT_SEED_FILE;
	const seed: SeedData = loadSeedFile(seedFile);
	let faults: FaultConfig | undefined;
	if (typeof args.faults === 'string') faults = JSON.parse(args.faults) as FaultConfig;
	if (args.burst !== undefined && args['rate-limit'] === undefined)
		throw new Error('--burst needs --rate-limit');
	if (args['cert-out'] !== undefined && !args.tls) throw new Error('--cert-out needs --tls');
	// Invalid numbers (NaN included) are refused by startSandbox with the rule they break.
	const rateLimit: RateLimitConfig | undefined =
		args['rate-limit'] === undefined
			? undefined
			: {
					ratePerSecond: Number(args['rate-limit']),
					...(args.burst === undefined ? {} : { burst: Number(args.burst) }),
				};

	const sandbox = await startSandbox({
		port,
		host: typeof args.host === 'string' ? args.host : undefined,
		seed,
		adminToken: typeof args['admin-token'] === 'string' ? args['admin-token'] : undefined,
		faults,
		rateLimit,
		tls: args.tls === true,
		log: !args.quiet,
		...(args.record === undefined ? {} : { recordedRequests: Number(args.record) }),
	});
	const activeRateLimit = sandbox.state().rateLimit;
	let certificateFile: string | undefined;
	if (sandbox.certificate) {
		certificateFile =
			typeof args['cert-out'] === 'string'
				? args['cert-out']
				: join(tmpdir(), `inventory-sandbox-${new URL(sandbox.baseUrl).port}.pem`);
		writeFileSync(certificateFile, sandbox.certificate);
	}

	const orgName = new Map(seed.organizations.map((o) => [o.id, o.name]));
	const width = Math.max(...seed.tokens.map((t) => t.token.length));
	const lines = [
		'Inventory API sandbox (simulator, in memory; NOT the real service)',
		`  base URL     ${sandbox.baseUrl}`,
		`  seed file    ${seedFile}`,
		`  admin token  ${sandbox.adminToken}   (for ${sandbox.baseUrl}/_sandbox/state, /requests, /reset, /faults, /rate-limit)`,
		`  faults       ${faults ? JSON.stringify(faults) : 'off'}`,
		`  rate limit   ${activeRateLimit ? `${activeRateLimit.ratePerSecond} requests/s per organization, burst ${activeRateLimit.burst} (then 429 with Retry-After)` : 'off'}`,
		...(certificateFile
			? [
					`  TLS          self-signed certificate: ${certificateFile}`,
					`               n8n trusts it when started with NODE_EXTRA_CA_CERTS=${certificateFile}`,
					`               (or turn on the credential's "Ignore SSL Issues (Insecure)"); curl: --cacert ${certificateFile}`,
				]
			: []),
		'',
		'Demo tokens (Authorization: Bearer <token>):',
		...seed.tokens.map(
			(t) =>
				`  ${t.token.padEnd(width)}  ${t.description ?? `${orgName.get(t.organization_id) ?? `organization ${t.organization_id}`}`}` +
				`  [${describePermissions(t.permissions)}]`,
		),
		'',
		'Press Ctrl+C to stop.',
		'',
	];
	process.stdout.write(lines.join('\n'));

	const stop = () => {
		void sandbox.close().then(() => process.exit(0));
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
	process.stderr.write(`sandbox: ${(error as Error).message}\n`);
	process.exit(1);
});
