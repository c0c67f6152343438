#!/usr/bin/env node
// `npm run test:e2e:queue`: exactly-once in n8n's queue mode (main + two workers, Redis, Postgres)
// and after crashes, with the packed package in a real n8n 2.40.7 and the sandbox.
//   1. production executions: an activated webhook workflow, 4 calls of 250 items sent at once,
//      run by two workers (`--concurrency=1`, so both take some): one record per item, every key
//      the one derived from (instance, workflow, execution, node, run, item), distinct
//   1b. a burst of one-item webhook calls against a throttled sandbox, the workers at n8n's default
//      concurrency (10): nothing failed, every record once, the 429 share printed
//   2. a failed execution (rate limit) retried while the worker that ran it is stopped: the retry
//      runs on the other worker and replays what the first run created
//   3. a worker SIGKILLed mid-node: what n8n does (measured and printed), then the user's recovery,
//      re-sending the input with the Idempotency Key option set from the business id: 0 duplicates,
//      0 lost
//   4. the same crash in regular mode (one `n8n start`, SQLite): killed mid-node, restarted, what
//      n8n and its Retry then do, and the same recovery
// Steps 1-4 are the groups in queue-groups/ (production.mjs, webhook-burst.mjs, retry-other-worker.mjs,
// worker-crash.mjs, regular-crash.mjs); this file sets up what they share.
// Exits non-zero on any failure; prints the duration of each step and what was measured.
// Environment: E2E_ONLY=<text>[,<text>] (checks whose names contain one of them), E2E_KEEP=1 (keep
// $TMPDIR/n8n-nodes-inventory-e2e/queue-<pid>: user folders, logs, database), E2E_N8N_LOG_LEVEL.
import fs from 'node:fs';
import path from 'node:path';

import { HOST_DIR, ensureHost } from './lib/host.mjs';
import { buildAndPackPackage } from './lib/pkg.mjs';
import {
	activateWorkflow,
	businessKeyWebhookWorkflow,
	keyedOnceWebhookWorkflow,
	derivedKeyWebhookWorkflow,
	startQueueStack,
	waitForWebhook,
} from './lib/queue.mjs';
import { API_TOKEN, startSandbox } from './lib/sandbox.mjs';
import {
	REPO_DIR,
	Steps,
	WORK_DIR,
	assert,
	checkRunner,
	fmtMs,
	installCleanupHandlers,
	log,
} from './lib/util.mjs';
import * as W from './lib/workflows.mjs';
import { productionExecutions } from './queue-groups/production.mjs';
import { keyedOnceOverWorkers } from './queue-groups/keyed-once.mjs';
import { regularModeCrashes } from './queue-groups/regular-crash.mjs';
import { retryOnOtherWorker } from './queue-groups/retry-other-worker.mjs';
import { webhookBurstQueue } from './queue-groups/webhook-burst.mjs';
import { workerCrash } from './queue-groups/worker-crash.mjs';

installCleanupHandlers();
const steps = new Steps();
const started = Date.now();
const RUN_DIR = path.join(WORK_DIR, `queue-${process.pid}`);
const measured = []; // printed at the end: what n8n did
const note = (line) => {
	measured.push(line);
	log(`measured: ${line}`);
};

let stack;
let sandbox;
let failed = false;
const checks = checkRunner(steps);
const check = checks.check;

async function main() {
	await steps.run(`n8n host: install or reuse (${path.relative(REPO_DIR, HOST_DIR)})`, async () => {
		const r = await ensureHost();
		log(`n8n ${r.version} ${r.reused ? 'reused' : 'installed'} (${fmtMs(r.ms)})`);
	});
	const pack = await steps.run('package: npm run build, npm pack', buildAndPackPackage);
	await steps.run('sandbox: build and start', async () => {
		sandbox = await startSandbox({ logFile: path.join(RUN_DIR, 'sandbox.log') });
		log(`sandbox on ${sandbox.baseUrl}`);
	});

	const derivedWf = derivedKeyWebhookWorkflow();
	const bizWf = businessKeyWebhookWorkflow();
	const keyedOnceWf = keyedOnceWebhookWorkflow();
	const webhookPathOf = (wf) => wf.nodes.find((n) => n.name === 'Webhook').parameters.path;
	const importInto = async (n8n) => {
		await n8n.importCredentials(
			W.credentialJson({ baseUrl: sandbox.baseUrl, apiToken: API_TOKEN }),
		);
		await n8n.importWorkflows([derivedWf, bizWf, keyedOnceWf, W.webhookBurstWorkflow()]);
	};

	stack = await startQueueStack({
		tgz: pack.tgz,
		dir: path.join(RUN_DIR, 'stack'),
		fastRecovery: true,
		steps,
		beforeStart: importInto,
	});
	const { api, main: mainN8n, workers } = stack;
	await steps.run(
		'queue mode: activate the webhook workflows (production webhooks on main)',
		async () => {
			for (const wf of [derivedWf, bizWf, keyedOnceWf]) {
				await activateWorkflow(api, wf.id);
				await waitForWebhook(mainN8n.baseUrl, webhookPathOf(wf));
			}
		},
	);
	const instanceId = (await api.get('/settings')).instanceId;
	assert(
		typeof instanceId === 'string' && instanceId.length > 0,
		'main reports an instance id in /rest/settings',
	);
	log(`instance id (main): ${instanceId}`);

	const shared = { sandbox, api, mainN8n, workers, derivedWf, bizWf, webhookPathOf, note };
	await productionExecutions({ ...shared, instanceId }, check);
	await keyedOnceOverWorkers({ ...shared, keyedOnceWf }, check);
	await webhookBurstQueue(shared, check);
	await retryOnOtherWorker(shared, check);
	await workerCrash(shared, check);
	await regularModeCrashes({ ...shared, stack, pack, runDir: RUN_DIR, importInto }, check);
}

try {
	await main();
} catch (e) {
	failed = true;
	if (!steps.results.some((r) => !r.ok)) log(`failed: ${e?.stack ?? e}`);
} finally {
	await stack?.stop().catch(() => {});
	await sandbox?.stop().catch(() => {});
	if (!failed && process.env.E2E_KEEP !== '1') fs.rmSync(RUN_DIR, { recursive: true, force: true });
	else log(`kept ${RUN_DIR} (n8n logs in <process>/logs, redis and postgres logs in stack/)`);
	console.log('\nwhat n8n did (measured):');
	for (const line of measured) console.log(`  - ${line}`);
	console.log(steps.summary());
	console.log(`\nqueue-mode e2e wall time: ${fmtMs(Date.now() - started)}`);
	console.log(`queue-mode e2e: ${checks.passed} passed, ${failed ? 1 : 0} failed`);
	process.exit(failed ? 1 : 0);
}
