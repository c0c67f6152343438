// Shared helpers of the e2e proof: paths, step timing, free ports, child processes (own process
// groups, always killed on exit), bounded waits. Plain Node (>= 20) ESM: it runs outside n8n.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const E2E_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_DIR = path.resolve(E2E_DIR, '..', '..');
/**
 * Per-run data (n8n user folders, logs, artifacts), outside the checkout: an n8n user folder holds
 * n8n's own built editor scripts, which lint and Prettier over the repository must not meet.
 */
export const WORK_DIR =
	process.env.E2E_WORK_DIR ?? path.join(os.tmpdir(), 'n8n-nodes-inventory-e2e');

export function log(...args) {
	const t = new Date().toISOString().slice(11, 19);
	console.log(`[e2e ${t}]`, ...args);
}

export class AssertionError extends Error {}

export function assert(cond, message) {
	if (!cond) throw new AssertionError(message);
}

export function assertEqual(actual, expected, message) {
	const a = JSON.stringify(actual);
	const e = JSON.stringify(expected);
	if (a !== e) throw new AssertionError(`${message}: expected ${e}, got ${a}`);
}

/** Named steps with measured durations; a summary table is printed at the end. */
export class Steps {
	constructor() {
		this.results = [];
	}

	async run(name, fn) {
		const start = Date.now();
		log(`▶ ${name}`);
		try {
			const value = await fn();
			const ms = Date.now() - start;
			this.results.push({ name, ms, ok: true });
			log(`✔ ${name} (${fmtMs(ms)})`);
			return value;
		} catch (error) {
			const ms = Date.now() - start;
			this.results.push({ name, ms, ok: false, error });
			log(`✘ ${name} (${fmtMs(ms)}): ${error?.stack ?? error}`);
			throw error;
		}
	}

	summary() {
		const width = Math.max(...this.results.map((r) => r.name.length), 10);
		const lines = ['', 'e2e step durations:'];
		for (const r of this.results) {
			lines.push(`  ${r.ok ? 'ok  ' : 'FAIL'} ${r.name.padEnd(width)} ${fmtMs(r.ms).padStart(8)}`);
			// The cause again under the table, so that the last lines of a CI log name it.
			if (!r.ok) lines.push(`       ${firstLine(r.error).slice(0, 400)}`);
		}
		const total = this.results.reduce((s, r) => s + r.ms, 0);
		lines.push(`  ${'    '} ${'total'.padEnd(width)} ${fmtMs(total).padStart(8)}`);
		return lines.join('\n');
	}
}

function firstLine(error) {
	return String(error?.message ?? error).split('\n')[0];
}

export function fmtMs(ms) {
	return ms >= 60_000
		? `${Math.floor(ms / 60_000)}m${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')}s`
		: `${(ms / 1000).toFixed(1)}s`;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A TCP port free on 127.0.0.1 right now (the OS picks it), distinct from the ones handed out before. */
const handedOut = new Set();
export async function freePort() {
	for (let i = 0; i < 20; i++) {
		const port = await new Promise((resolve, reject) => {
			const srv = net.createServer();
			srv.unref();
			srv.on('error', reject);
			srv.listen(0, '127.0.0.1', () => {
				const { port } = srv.address();
				srv.close(() => resolve(port));
			});
		});
		if (!handedOut.has(port)) {
			handedOut.add(port);
			return port;
		}
	}
	throw new Error('could not find a free TCP port on 127.0.0.1');
}

/** `wanted` when it is free on 127.0.0.1, else a free port. */
export async function pickPort(wanted) {
	const free = await new Promise((resolve) => {
		const srv = net.createServer();
		srv.once('error', () => resolve(false));
		srv.listen(wanted, '127.0.0.1', () => srv.close(() => resolve(true)));
	});
	if (free && !handedOut.has(wanted)) {
		handedOut.add(wanted);
		return wanted;
	}
	return await freePort();
}

/** Polls fn until it returns a truthy value; throws `what` with the last error after timeoutMs. */
export async function waitFor(what, fn, { timeoutMs = 60_000, intervalMs = 250 } = {}) {
	const deadline = Date.now() + timeoutMs;
	let lastError;
	while (Date.now() < deadline) {
		try {
			const v = await fn();
			if (v) return v;
		} catch (e) {
			lastError = e;
		}
		await sleep(intervalMs);
	}
	throw new Error(
		`timed out after ${fmtMs(timeoutMs)} waiting for ${what}${lastError ? ` (last error: ${lastError.message})` : ''}`,
	);
}

// ---------------------------------------------------------------------------------------------
// Child processes. Every long-running child gets its own process group (detached) so that the
// whole tree (n8n starts a task-runner child) is killed with it; cleanup runs on any exit.
const children = new Set();

export function spawnService(name, cmd, args, { env, cwd, logFile }) {
	fs.mkdirSync(path.dirname(logFile), { recursive: true });
	const out = fs.openSync(logFile, 'a');
	const child = spawn(cmd, args, { env, cwd, detached: true, stdio: ['ignore', out, out] });
	fs.closeSync(out);
	const svc = { name, child, logFile, exited: false, exitCode: null };
	child.on('exit', (code, signal) => {
		svc.exited = true;
		svc.exitCode = code ?? signal;
		children.delete(svc);
	});
	children.add(svc);
	return svc;
}

export function tail(file, lines = 40) {
	try {
		return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return '(no log)';
	}
}

export async function stopService(svc, { timeoutMs = 10_000 } = {}) {
	if (!svc || svc.exited) return;
	killGroup(svc.child.pid, 'SIGTERM');
	const deadline = Date.now() + timeoutMs;
	while (!svc.exited && Date.now() < deadline) await sleep(100);
	if (!svc.exited) {
		killGroup(svc.child.pid, 'SIGKILL');
		await sleep(200);
	}
	// Stragglers of the group (a task runner) once the leader is gone.
	killGroup(svc.child.pid, 'SIGKILL');
	children.delete(svc);
}

function killGroup(pid, signal) {
	try {
		process.kill(-pid, signal);
	} catch {
		/* already gone */
	}
}

export function killAllChildrenSync() {
	// SIGTERM first, so a child that starts processes of its own (n8n-node dev's tsc --watch runs in a
	// process group of its own) can stop them; whatever is left half a second later is killed.
	const running = [...children].filter((svc) => !svc.exited);
	for (const svc of running) killGroup(svc.child.pid, 'SIGTERM');
	if (running.length > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
	for (const svc of running) killGroup(svc.child.pid, 'SIGKILL');
	children.clear();
}

let handlersInstalled = false;
export function installCleanupHandlers() {
	if (handlersInstalled) return;
	handlersInstalled = true;
	process.on('exit', killAllChildrenSync);
	for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
		process.on(sig, () => {
			log(`${sig}: stopping child processes`);
			killAllChildrenSync();
			process.exit(130);
		});
	}
}

/**
 * The environment without what `npm run` adds (npm_config_*, npm_package_*, npm_lifecycle_*...):
 * under `npm run test:e2e`, the repo's .npmrc (ignore-scripts=true) would otherwise reach every
 * npm command the e2e runs elsewhere, e.g. the host's `npm rebuild`, which would then build nothing.
 */
export function cleanEnv(base = process.env) {
	const env = {};
	for (const [k, v] of Object.entries(base)) {
		if (/^npm_/i.test(k) || k === 'INIT_CWD' || k === 'NODE') continue;
		env[k] = v;
	}
	return env;
}

/** Runs a command to completion; resolves {code, stdout, stderr}; rejects on timeout. */
export function runCommand(cmd, args, { env, cwd, timeoutMs = 600_000, input, echo = false } = {}) {
	return new Promise((resolve, reject) => {
		const child = spawn(cmd, args, { env, cwd, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d) => {
			stdout += d;
			if (echo) process.stdout.write(d);
		});
		child.stderr.on('data', (d) => {
			stderr += d;
			if (echo) process.stderr.write(d);
		});
		const timer = setTimeout(() => {
			killGroup(child.pid, 'SIGKILL');
			reject(
				new Error(
					`timed out after ${fmtMs(timeoutMs)}: ${cmd} ${args.join(' ')}\n${tail2(stdout, stderr)}`,
				),
			);
		}, timeoutMs);
		child.on('error', (e) => {
			clearTimeout(timer);
			reject(e);
		});
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			resolve({ code, signal, stdout, stderr });
		});
		if (input !== undefined) child.stdin.end(input);
		else child.stdin.end();
	});
}

function tail2(stdout, stderr) {
	return `stdout tail:\n${stdout.slice(-2000)}\nstderr tail:\n${stderr.slice(-2000)}`;
}

/** runCommand that throws with the output tail on a non-zero exit. */
export async function mustRun(cmd, args, opts = {}) {
	const r = await runCommand(cmd, args, opts);
	if (r.code !== 0) {
		throw new Error(
			`command failed (exit ${r.code}): ${cmd} ${args.join(' ')}\n${tail2(r.stdout, r.stderr)}`,
		);
	}
	return r;
}

/** The first JSON document that makes up the rest of a text (CLI output with log lines before it). */
export function parseTrailingJson(text) {
	const lines = text.split('\n');
	// n8n's pretty-printed result closes at column 0; log lines may come before it and, now and then
	// (the task runner registering late), after it.
	const ends = lines.flatMap((line, i) => (line === '}' || line === ']' ? [i + 1] : [])).reverse();
	for (let i = 0; i < lines.length; i++) {
		const c = lines[i].trimStart()[0];
		if (c !== '[' && c !== '{') continue;
		for (const end of ends.filter((e) => e > i)) {
			try {
				return JSON.parse(lines.slice(i, end).join('\n'));
			} catch {
				/* try the next candidate */
			}
		}
	}
	throw new Error(`no JSON found in output:\n${text.slice(-3000)}`);
}

/**
 * Named checks run as steps; E2E_ONLY=<text>[,<text>] runs only those whose names contain one of
 * the texts. `passed` counts the checks that ran and passed.
 */
export function checkRunner(steps) {
	const runner = {
		passed: 0,
		async check(name, fn) {
			const only = process.env.E2E_ONLY;
			if (only && !only.split(',').some((o) => name.includes(o))) return log(`(skipped: ${name})`);
			await steps.run(name, fn);
			runner.passed++;
		},
	};
	return runner;
}
