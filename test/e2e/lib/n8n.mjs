// Running the real n8n host: one instance = one temp N8N_USER_FOLDER (its own sqlite DB), the
// server (`n8n start`) as a child in its own process group, CLI commands, and the REST API the
// editor uses (owner set-up, login cookie, workflows, executions, retry).
import fs from 'node:fs';
import path from 'node:path';

import { HOST_FLAVOR, HOST_NODE, N8N_BIN } from './host.mjs';
import {
	WORK_DIR,
	cleanEnv,
	fmtMs,
	freePort,
	mustRun,
	parseTrailingJson,
	runCommand,
	spawnService,
	stopService,
	tail,
	waitFor,
} from './util.mjs';

/** Fixed so that credentials imported by the CLI are readable by the server (and across restarts). */
export const ENCRYPTION_KEY = 'n8n-nodes-inventory-e2e-fixed-encryption-key';

export const OWNER = {
	email: 'owner@example.com',
	firstName: 'E2E',
	lastName: 'Owner',
	password: 'Inventory-e2e-1',
};

export class N8nInstance {
	/**
	 * @param {object} o
	 * @param {string} o.name      label, also the folder name under $TMPDIR/n8n-nodes-inventory-e2e
	 * @param {string} [o.userFolder] N8N_USER_FOLDER (default: a fresh folder under the e2e work folder)
	 */
	constructor({ name, userFolder }) {
		this.name = name;
		this.userFolder = userFolder ?? path.join(WORK_DIR, `${name}-${process.pid}-${Date.now()}`);
		fs.mkdirSync(this.userFolder, { recursive: true });
		this.logDir = path.join(this.userFolder, 'logs');
		fs.mkdirSync(this.logDir, { recursive: true });
		this.port = null;
		this.server = null;
	}

	/** Where community packages live, exactly as a user's n8n holds them. */
	get nodesDir() {
		return path.join(this.userFolder, '.n8n', 'nodes');
	}

	/**
	 * The one folder n8n 2.x lets a workflow read and write files in by default:
	 * N8N_RESTRICT_FILE_ACCESS_TO = `~/.n8n-files`, `~` being the n8n process's home (HOME, set to the
	 * user folder below, as n8n's Docker image has HOME=/home/node beside /home/node/.n8n).
	 */
	get filesDir() {
		return path.join(this.userFolder, '.n8n-files');
	}

	get baseUrl() {
		return `http://127.0.0.1:${this.port}`;
	}

	env(extra = {}) {
		const env = {
			...cleanEnv(),
			PATH: `${path.dirname(HOST_NODE)}:${process.env.PATH ?? ''}`,
			N8N_USER_FOLDER: this.userFolder,
			// n8n's `~` (files: `~/.n8n-files`) is the run's folder, not the machine user's home.
			HOME: this.userFolder,
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_SECURE_COOKIE: 'false',
			N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
			// 2.x: avoids a failing look-up at start (1.x does not know the module and refuses it).
			...(HOST_FLAVOR === 'n8n2' ? { N8N_DISABLED_MODULES: 'mcp-registry' } : {}),
			// 1.123's newest @n8n/config defaults to the isolated-vm expression engine, whose native
			// addon does not build on Node 20: the 1.x host uses the classic engine.
			...(HOST_FLAVOR === 'n8n1' ? { N8N_EXPRESSION_ENGINE: 'legacy' } : {}),
			N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
			DB_SQLITE_POOL_SIZE: '2',
			GENERIC_TIMEZONE: 'UTC',
			TZ: 'UTC',
			...extra,
		};
		// The orchestrator's own Node settings must not leak into Node 24.
		delete env.NODE_OPTIONS;
		delete env.npm_config_nodedir;
		return env;
	}

	/** A CLI command (`n8n import:workflow ...`); each gets its own task-broker port. */
	async cli(args, { timeoutMs = 120_000, allowFailure = false, logLevel = 'warn' } = {}) {
		const env = this.env({
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
			// `execute` prints its result through the logger at level info.
			N8N_LOG_LEVEL: logLevel,
			// Keep CLI commands from fighting the server for its port.
			N8N_PORT: String(this.port ?? (await freePort())),
		});
		const r = await runCommand(HOST_NODE, [N8N_BIN, ...args], {
			env,
			cwd: this.userFolder,
			timeoutMs,
		});
		fs.appendFileSync(
			path.join(this.logDir, 'cli.log'),
			`\n$ n8n ${args.join(' ')}\n(exit ${r.code ?? r.signal})\n${r.stdout}\n${r.stderr}\n`,
		);
		if (r.code !== 0 && !allowFailure) {
			throw new Error(
				`n8n ${args.join(' ')} exited ${r.code}\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`,
			);
		}
		return r;
	}

	async importCredentials(creds) {
		const file = path.join(this.userFolder, `credentials-${Date.now()}.json`);
		fs.writeFileSync(file, JSON.stringify(creds, null, 2));
		await this.cli(['import:credentials', `--input=${file}`]);
	}

	async importWorkflow(workflow) {
		const file = path.join(this.userFolder, `workflow-${workflow.id}.json`);
		fs.writeFileSync(file, JSON.stringify(workflow, null, 2));
		await this.cli(['import:workflow', `--input=${file}`]);
	}

	/** Several workflows with one CLI command (`import:workflow --separate --input=<folder>`). */
	async importWorkflows(workflows) {
		const dir = path.join(this.userFolder, `workflows-${Date.now()}`);
		fs.mkdirSync(dir, { recursive: true });
		for (const wf of workflows)
			fs.writeFileSync(path.join(dir, `${wf.id}.json`), JSON.stringify(wf, null, 2));
		await this.cli(['import:workflow', '--separate', `--input=${dir}`]);
	}

	/** `n8n execute --id --rawOutput`: {code, json} where json is the run's output (or null). */
	async execute(workflowId) {
		const r = await this.cli(['execute', `--id=${workflowId}`, '--rawOutput'], {
			allowFailure: true,
			logLevel: 'info',
		});
		let json = null;
		try {
			json = parseTrailingJson(r.stdout);
		} catch {
			/* a failed run may print no JSON */
		}
		return { code: r.code, signal: r.signal, json, stdout: r.stdout, stderr: r.stderr };
	}

	async start({ timeoutMs = 120_000, env: extraEnv = {} } = {}) {
		this.port = this.port ?? (await freePort());
		const env = this.env({
			N8N_PORT: String(this.port),
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
			N8N_LOG_LEVEL: process.env.E2E_N8N_LOG_LEVEL ?? 'info',
			...extraEnv,
		});
		const logFile = path.join(this.logDir, 'n8n-start.log');
		const started = Date.now();
		this.server = spawnService(`n8n ${this.name}`, HOST_NODE, [N8N_BIN, 'start'], {
			env,
			cwd: this.userFolder,
			logFile,
		});
		// n8n listens before it is ready: /healthz says ok at once, and until the database is migrated
		// every other path answers 200 "n8n is starting up. Please wait"; the REST controllers are
		// mounted after that. /healthz/readiness answers 200 only once the server marked itself ready
		// (n8n's AbstractServer.markAsReady, after every controller is mounted).
		await waitFor(
			`n8n /healthz/readiness on ${this.baseUrl} (log: ${logFile})`,
			async () => {
				if (this.server.exited) {
					throw new Error(`n8n exited early (${this.server.exitCode}):\n${tail(logFile)}`);
				}
				const res = await fetch(`${this.baseUrl}/healthz/readiness`);
				return res.status === 200 && (await res.json()).status === 'ok';
			},
			{ timeoutMs, intervalMs: 300 },
		).catch((e) => {
			if (this.server.exited)
				throw new Error(`n8n exited early (${this.server.exitCode}):\n${tail(logFile)}`);
			throw new Error(`${e.message}\n--- n8n log tail ---\n${tail(logFile)}`);
		});
		this.startMs = Date.now() - started;
		return this;
	}

	async stop() {
		await stopService(this.server);
		this.server = null;
	}

	api() {
		return new RestClient(this.baseUrl);
	}
}

/** The REST API of the editor (`/rest/...`), with the n8n-auth cookie kept. */
export class RestClient {
	constructor(baseUrl) {
		this.baseUrl = baseUrl;
		this.cookie = null;
	}

	async request(method, urlPath, body, { expectStatus } = {}) {
		const headers = { accept: 'application/json' };
		if (body !== undefined) headers['content-type'] = 'application/json';
		if (this.cookie) headers.cookie = this.cookie;
		const res = await fetch(`${this.baseUrl}/rest${urlPath}`, {
			method,
			headers,
			body: body === undefined ? undefined : JSON.stringify(body),
			redirect: 'manual',
			signal: AbortSignal.timeout(120_000),
		});
		const setCookie = res.headers.getSetCookie?.() ?? [];
		const auth = setCookie.find((c) => c.startsWith('n8n-auth='));
		if (auth) this.cookie = auth.split(';')[0];
		const text = await res.text();
		let json;
		try {
			json = text ? JSON.parse(text) : undefined;
		} catch {
			json = undefined;
		}
		const ok = expectStatus ? res.status === expectStatus : res.ok;
		if (!ok) {
			throw new Error(`${method} /rest${urlPath} -> ${res.status}: ${text.slice(0, 1000)}`);
		}
		// Most endpoints wrap their answer in {data: ...}.
		return json && typeof json === 'object' && 'data' in json ? json.data : json;
	}

	get(p) {
		return this.request('GET', p);
	}

	post(p, body) {
		return this.request('POST', p, body ?? {});
	}

	patch(p, body) {
		return this.request('PATCH', p, body);
	}

	/** POST /rest/owner/setup (a fresh instance only), then POST /rest/login: keeps the cookie. */
	async setupOwnerAndLogin(owner = OWNER) {
		const settings = await this.get('/settings');
		if (typeof settings !== 'object' || settings === null)
			throw new Error(`GET /rest/settings answered no settings: ${JSON.stringify(settings)}`);
		if (settings.userManagement?.showSetupOnFirstLoad !== false) {
			await this.post('/owner/setup', owner);
		}
		await this.login(owner);
	}

	async login(owner = OWNER) {
		this.cookie = null;
		await this.post('/login', { emailOrLdapLoginId: owner.email, password: owner.password });
		if (!this.cookie) throw new Error('login did not set the n8n-auth cookie');
	}

	/** Starts a saved workflow the way the editor's "Execute workflow" does; returns the execution id. */
	async runManually(workflowId, triggerName) {
		const r = await this.post(`/workflows/${workflowId}/run`, {
			triggerToStartFrom: { name: triggerName },
		});
		if (!r?.executionId)
			throw new Error(`manual run of ${workflowId} returned no executionId: ${JSON.stringify(r)}`);
		return String(r.executionId);
	}

	async execution(id) {
		return await this.get(`/executions/${id}`);
	}

	/**
	 * Waits until the execution is no longer new/running/waiting; returns it (with parsed data).
	 * n8n saves an execution's status first and its custom data in a second write a moment later
	 * (2.x lifecycle hooks: updateExistingExecution, then updateExistingExecutionMetadata), so with
	 * `customData: true` it also waits, up to `customDataGraceMs` after the status, until the custom
	 * data is there; past that it returns the execution as it is, for the check to report.
	 */
	async waitForExecution(
		id,
		{ timeoutMs = 120_000, customData = false, customDataGraceMs = 10_000 } = {},
	) {
		const start = Date.now();
		let finishedAt;
		return await waitFor(
			`execution ${id} to finish (${fmtMs(timeoutMs)})`,
			async () => {
				const e = await this.execution(id);
				if (!e || ['new', 'running', 'waiting'].includes(e.status)) return false;
				finishedAt ??= Date.now();
				const saved = !customData || Object.keys(e.customData ?? {}).length > 0;
				if (!saved && Date.now() - finishedAt < customDataGraceMs) return false;
				e.waitedMs = Date.now() - start;
				return e;
			},
			{ timeoutMs: timeoutMs + (customData ? customDataGraceMs : 0), intervalMs: 300 },
		);
	}

	/** What the editor's "Retry" does: POST /rest/executions/:id/retry ({loadWorkflow:true} = "with currently saved workflow"). */
	async retry(id, { loadWorkflow } = {}) {
		return await this.request(
			'POST',
			`/executions/${id}/retry`,
			loadWorkflow ? { loadWorkflow: true } : {},
		);
	}
}

/** Execution data as stored: the REST API returns it "flatted" (npm flatted) as a string. */
export async function unflatten(data) {
	if (typeof data !== 'string') return data;
	const { parse } = await import('flatted').catch(() => ({ parse: null }));
	if (parse) return parse(data);
	return flattedParse(data);
}

// Minimal reader for the `flatted` format (an array whose first entry is the root; strings that
// are indexes point to other entries), used when the flatted package is not resolvable from here.
function flattedParse(text) {
	const input = JSON.parse(text);
	const seen = new Map();
	const revive = (idx) => {
		if (seen.has(idx)) return seen.get(idx);
		const v = input[idx];
		if (v === null || typeof v !== 'object') {
			seen.set(idx, v);
			return v;
		}
		const out = Array.isArray(v) ? [] : {};
		seen.set(idx, out);
		for (const [k, raw] of Object.entries(v)) {
			out[k] = typeof raw === 'string' && /^\d+$/.test(raw) ? reviveRef(Number(raw)) : raw;
		}
		return out;
	};
	const reviveRef = (i) => {
		const v = input[i];
		return typeof v === 'string' ? v : revive(i);
	};
	return revive(0);
}

export { mustRun };
