// n8n's queue mode for real: Redis, PostgreSQL, one main (`n8n start`, receives webhooks and
// enqueues executions) and workers (`n8n worker`, run them), each process with its own user folder
// holding the packed package in .n8n/nodes, all sharing N8N_ENCRYPTION_KEY (lib/n8n.mjs) and the
// database. Used by queue.mjs (the suite) and scripts/queue-dev.mjs (`npm run n8n:queue`).
import fs from 'node:fs';
import path from 'node:path';

import { HOST_NODE, N8N_BIN } from './host.mjs';
import { N8nInstance, OWNER } from './n8n.mjs';
import { installIntoNodesFolder } from './pkg.mjs';
import { Postgres, Redis, ensureServices } from './services.mjs';
import { fmtMs, freePort, log, spawnService, tail, waitFor } from './util.mjs';
import * as W from './workflows.mjs';

/** An n8n process of the queue-mode stack: the shared queue and database settings in its env. */
export class QueueN8nInstance extends N8nInstance {
	constructor({ sharedEnv, ...rest }) {
		super(rest);
		this.sharedEnv = sharedEnv;
		this.worker = null;
	}

	env(extra = {}) {
		return super.env({ ...this.sharedEnv, ...extra });
	}

	/** `n8n worker --concurrency=<n>`; ready when its health server answers /healthz/readiness. */
	async startWorker({ concurrency, timeoutMs = 120_000 }) {
		this.healthPort = await freePort();
		const env = this.env({
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			QUEUE_HEALTH_CHECK_PORT: String(this.healthPort),
			N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
			N8N_PORT: String(await freePort()),
			N8N_LOG_LEVEL: process.env.E2E_N8N_LOG_LEVEL ?? 'info',
		});
		const logFile = path.join(this.logDir, 'n8n-worker.log');
		this.workerLog = logFile;
		const started = Date.now();
		this.server = spawnService(
			`n8n worker ${this.name}`,
			HOST_NODE,
			[N8N_BIN, 'worker', `--concurrency=${concurrency}`],
			{
				env,
				cwd: this.userFolder,
				logFile,
			},
		);
		await waitFor(
			`n8n worker ${this.name} readiness on 127.0.0.1:${this.healthPort} (log: ${logFile})`,
			async () => {
				if (this.server.exited)
					throw new Error(
						`n8n worker ${this.name} exited (${this.server.exitCode}):\n${tail(logFile)}`,
					);
				return (await fetch(`http://127.0.0.1:${this.healthPort}/healthz/readiness`)).ok;
			},
			{ timeoutMs, intervalMs: 300 },
		);
		this.startMs = Date.now() - started;
		return this;
	}

	/** Ids of the executions this worker started and finished, read from its log (n8n's JobProcessor logs both). */
	executionsInLog() {
		const text = fs.existsSync(this.workerLog ?? '') ? fs.readFileSync(this.workerLog, 'utf8') : '';
		const ids = (re) => [...text.matchAll(re)].map((m) => m[1]);
		return {
			started: ids(/Worker started execution (\d+) \(job/g),
			finished: ids(/Worker finished execution (\d+) \(job/g),
		};
	}

	/** A crash: SIGKILL to the worker's whole process group (the worker and its task runner), no shutdown. */
	killHard() {
		process.kill(-this.server.child.pid, 'SIGKILL');
	}
}

/** The queue settings every process of the stack shares. Bull's stall detection and main's queue
 * recovery are shortened (defaults: 60 s lock, 30 s stall check, 180 min recovery) so that a killed
 * worker is noticed within seconds; what n8n then does is the same as with the defaults. */
function queueEnv({ redis, postgres, fastRecovery }) {
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: redis.host,
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		...postgres.n8nEnv(),
		// Main and workers log at info: the worker logs name the executions each one ran.
		N8N_LOG_OUTPUT: 'console',
		...(fastRecovery
			? {
					QUEUE_WORKER_LOCK_DURATION: '10000',
					QUEUE_WORKER_LOCK_RENEW_TIME: '2500',
					QUEUE_WORKER_STALLED_INTERVAL: '5000',
					N8N_EXECUTIONS_QUEUE_RECOVERY_INTERVAL: '0.25',
				}
			: {}),
	};
}

/**
 * Starts Redis, PostgreSQL, main and `workers` workers with the tarball installed in each user
 * folder; `beforeStart(main)` runs once the database exists and before main starts (CLI imports).
 * `mainPort`: main's port (default: a free one).
 * Returns {redis, postgres, main, workers, api, stop()}; the owner is set up and logged in.
 */
export async function startQueueStack({
	tgz,
	dir,
	workers = 2,
	concurrency = 1,
	fastRecovery = false,
	mainPort,
	steps,
	beforeStart,
}) {
	const stack = { workers: [] };
	const step = (name, fn) => (steps ? steps.run(name, fn) : fn());
	stack.stop = async () => {
		for (const w of stack.workers) await w.stop().catch(() => {});
		await stack.main?.stop().catch(() => {});
		await stack.redis?.stop().catch(() => {});
		await stack.postgres?.stop().catch(() => {});
	};
	const { pgBin, installed } = await step(
		'queue mode: redis-server and postgresql present or apt-get install',
		ensureServices,
	);
	if (installed.length) log(`installed with apt-get: ${installed.join(', ')}`);
	await step('queue mode: start redis and postgres (own loopback ports)', async () => {
		stack.redis = await new Redis().start({ dir: path.join(dir, 'redis') });
		stack.postgres = await new Postgres().start({ dir: path.join(dir, 'postgres'), pgBin });
		log(`redis on 127.0.0.1:${stack.redis.port}, postgres on 127.0.0.1:${stack.postgres.port}`);
	});
	const sharedEnv = queueEnv({ redis: stack.redis, postgres: stack.postgres, fastRecovery });
	const names = ['main', ...Array.from({ length: workers }, (_, i) => `worker${i + 1}`)];
	const instances = names.map(
		(name) => new QueueN8nInstance({ name, userFolder: path.join(dir, name), sharedEnv }),
	);
	[stack.main, ...stack.workers] = instances;
	await step(
		`queue mode: install the tarball into the .n8n/nodes of main and ${workers} workers`,
		async () => {
			for (const n of instances) await installIntoNodesFolder(tgz, n.nodesDir);
		},
	);
	if (beforeStart)
		await step('queue mode: n8n CLI import into the shared database', () =>
			beforeStart(stack.main),
		);
	stack.api = await step(
		'queue mode: main up (n8n start), owner set up and logged in',
		async () => {
			stack.main.port = mainPort ?? (await freePort());
			await stack.main.start();
			const api = stack.main.api();
			await api.setupOwnerAndLogin(OWNER);
			log(`main at ${stack.main.baseUrl} (${fmtMs(stack.main.startMs)})`);
			return api;
		},
	);
	await step(
		`queue mode: ${workers} workers up (n8n worker --concurrency=${concurrency})`,
		async () => {
			await Promise.all(stack.workers.map((w) => w.startWorker({ concurrency })));
			log(stack.workers.map((w) => `${w.name} ready in ${fmtMs(w.startMs)}`).join(', '));
		},
	);
	return stack;
}

// ------------------------------------------------------------------------------------------------
// Production workflows: Webhook (POST {batch, items: [{orderId, assetId, name}]}) → Split Out →
// Create Todo → the last node's first item as the answer, once the execution finished.

export const WEBHOOK_NODE_ID = 'inv-queue-create';

function webhookWorkflow({ id, name, path: webhookPath, webhookId, businessKey, keyedOnce }) {
	return W.workflow(
		id,
		name,
		[
			{
				id: 'webhook',
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId,
				parameters: {
					httpMethod: 'POST',
					path: webhookPath,
					responseMode: 'lastNode',
					responseData: 'firstEntryJson',
					options: {},
				},
			},
			{
				id: 'split',
				name: 'Split Out',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				position: [220, 0],
				parameters: { fieldToSplitOut: 'body.items', options: {} },
			},
			W.inventoryNode({
				id: WEBHOOK_NODE_ID,
				name: 'Create Todo',
				position: [440, 0],
				parameters: {
					resource: 'asset',
					operation: 'createTodo',
					assetId: '={{ $json.assetId }}',
					name: '={{ $json.name }}',
					// Each row once: keyed by the `orderId` column, or by a Row Key expression of it.
					...(keyedOnce ? { repeatProtection: 'columns', keyColumns: 'orderId' } : {}),
					...(businessKey
						? { repeatProtection: 'expression', rowKey: '={{ $json.orderId }}' }
						: {}),
					additionalFields: {},
					// Node retries off: a rate limit fails the execution at once (the retry scenario).
					options: { maxRetries: 0 },
				},
			}),
		],
		W.chain('Webhook', 'Split Out', 'Create Todo'),
	);
}

/** Derived keys (no Idempotency Key option): what the node does by default. */
export const derivedKeyWebhookWorkflow = () =>
	webhookWorkflow({
		id: 'e2eWfQueueDerived',
		name: 'E2E queue: webhook, derived keys',
		path: 'inventory-derived',
		webhookId: 'a1b2c3d4-0000-4000-8000-00000000d001',
	});

/** Keyed by a Row Key expression of the input's business id (`orderId`). */
export const businessKeyWebhookWorkflow = () =>
	webhookWorkflow({
		id: 'e2eWfQueueBizKey',
		name: 'E2E queue: webhook, business keys',
		path: 'inventory-orders',
		webhookId: 'a1b2c3d4-0000-4000-8000-00000000b001',
		businessKey: true,
	});

/** Each row once, keyed by the input's `orderId` column. */
export const keyedOnceWebhookWorkflow = () =>
	webhookWorkflow({
		id: 'e2eWfQueueKeyedOnce',
		name: 'E2E queue: webhook, each row once by column',
		path: 'inventory-keyed-once',
		webhookId: 'a1b2c3d4-0000-4000-8000-00000000e001',
		keyedOnce: true,
	});

/** The items of one webhook call: `count` to-dos named `<batch>-<n>` on the sandbox's available assets 1001-1020. */
export function batchItems(batch, count) {
	return Array.from({ length: count }, (_, i) => ({
		orderId: `${batch}-${i + 1}`,
		assetId: 1001 + (i % 20),
		name: `${batch}-${i + 1}`,
	}));
}

/** POST to the production webhook; resolves {status, body, ms} (n8n answers once the execution ended). */
export async function postWebhook(baseUrl, webhookPath, body, { timeoutMs = 300_000 } = {}) {
	const started = Date.now();
	const res = await fetch(`${baseUrl}/webhook/${webhookPath}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
		signal: AbortSignal.timeout(timeoutMs),
	});
	const text = await res.text();
	return { status: res.status, body: text, ms: Date.now() - started };
}

/** Activates a saved workflow the way the editor's "Publish"/"Active" toggle does. */
export async function activateWorkflow(api, workflowId) {
	const saved = await api.get(`/workflows/${workflowId}`);
	if (saved.active && saved.activeVersionId === saved.versionId) return;
	await api.post(`/workflows/${workflowId}/activate`, { versionId: saved.versionId });
}

/** The executions of a workflow, newest first ({id, status, retryOf, mode}). */
export async function listExecutions(api, workflowId) {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const r = await api.get(`/executions?filter=${filter}&limit=200`);
	return r.results ?? r;
}

/**
 * Waits until the production webhook of an activated workflow answers something other than 404
 * (right after activation n8n may still be registering it). The probe sends no items, so the
 * Inventory node does not run; it leaves one execution in the list.
 */
export async function waitForWebhook(baseUrl, webhookPath) {
	await waitFor(
		`production webhook POST /webhook/${webhookPath} registered`,
		async () => {
			const r = await postWebhook(
				baseUrl,
				webhookPath,
				{ batch: 'probe', items: [] },
				{ timeoutMs: 30_000 },
			);
			return r.status !== 404;
		},
		{ timeoutMs: 60_000, intervalMs: 500 },
	);
}
