#!/usr/bin/env node
// `npm run test:e2e:queue`: exactly-once in n8n's queue mode (main + two workers, Redis, Postgres)
// and after crashes, with the packed package in a real n8n 2.40.7 and the sandbox.
//   1. production executions: an activated webhook workflow, 4 calls of 250 items sent at once,
//      run by two workers (`--concurrency=1`, so both take some): one record per item, every key
//      the one derived from (instance, workflow, execution, node, run, item), distinct
//   2. a failed execution (rate limit) retried while the worker that ran it is stopped: the retry
//      runs on the other worker and replays what the first run created
//   3. a worker SIGKILLed mid-node: what n8n does (measured and printed), then the user's recovery,
//      re-sending the input with the Idempotency Key option set from the business id: 0 duplicates,
//      0 lost
//   4. the same crash in regular mode (one `n8n start`, SQLite): killed mid-node, restarted, what
//      n8n and its Retry then do, and the same recovery
// Exits non-zero on any failure; prints the duration of each step and what was measured.
// Environment: E2E_ONLY=<text>[,<text>] (checks whose names contain one of them), E2E_KEEP=1 (keep
// $TMPDIR/n8n-nodes-inventory-e2e/queue-<pid>: user folders, logs, database), E2E_N8N_LOG_LEVEL.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

import { applied, assertDistinct, lastSeq, requestsSince } from './lib/checks.mjs';
import { HOST_DIR, ensureHost } from './lib/host.mjs';
import { N8nInstance, OWNER, unflatten } from './lib/n8n.mjs';
import { buildAndPackPackage, installIntoNodesFolder } from './lib/pkg.mjs';
import {
	WEBHOOK_NODE_ID,
	activateWorkflow,
	batchItems,
	businessKeyWebhookWorkflow,
	derivedKeyWebhookWorkflow,
	listExecutions,
	postWebhook,
	startQueueStack,
	waitForWebhook,
} from './lib/queue.mjs';
import { API_TOKEN, startSandbox } from './lib/sandbox.mjs';
import {
	REPO_DIR,
	Steps,
	WORK_DIR,
	assert,
	assertEqual,
	checkRunner,
	fmtMs,
	installCleanupHandlers,
	log,
	sleep,
	waitFor,
} from './lib/util.mjs';
import * as W from './lib/workflows.mjs';

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
let regular;
let failed = false;
const checks = checkRunner(steps);
const check = checks.check;

/** The node's own key derivation, from the built package (what both workers run). */
function derivedKey(identity) {
	const require = createRequire(import.meta.url);
	return require(
		path.join(REPO_DIR, 'dist', 'nodes', 'Inventory', 'helpers', 'idempotency.js'),
	).deriveIdempotencyKey(identity);
}

/** To-dos per name in the sandbox: [missing names, names created more than once]. */
function lostAndDuplicated(todos, names) {
	const count = new Map(names.map((n) => [n, 0]));
	for (const t of todos) if (count.has(t.name)) count.set(t.name, count.get(t.name) + 1);
	return {
		lost: names.filter((n) => count.get(n) === 0),
		duplicated: names.filter((n) => count.get(n) > 1),
	};
}

/** The batch a webhook execution received (its Webhook node's output). */
async function batchOf(api, executionId) {
	const e = await api.execution(executionId);
	const data = await unflatten(e.data);
	return data.resultData.runData.Webhook[0].data.main[0][0].json.body.batch;
}

/** The error message an execution ended with, if any. */
async function errorOf(execution) {
	const data = execution.data ? await unflatten(execution.data) : null;
	const message = data?.resultData?.error?.message;
	return message ? `: "${String(message).slice(0, 300)}"` : '';
}

/** Owner set-up and login, retried while n8n is still mounting its REST routes (404). */
async function ownerLogin(n8n) {
	const api = n8n.api();
	await waitFor(
		`owner set-up and login on ${n8n.baseUrl}`,
		async () => {
			await api.setupOwnerAndLogin(OWNER);
			return true;
		},
		{ timeoutMs: 120_000, intervalMs: 1000 },
	);
	return api;
}

function workerThatStarted(workers, executionId) {
	return workers
		.filter((w) => w.executionsInLog().started.includes(String(executionId)))
		.map((w) => w.name);
}

/** Waits until the execution leaves new/running; returns [{status, atMs}] transitions seen. */
async function statusTimeline(api, executionId, { timeoutMs }) {
	const t0 = Date.now();
	const seen = [];
	while (Date.now() - t0 < timeoutMs) {
		const e = await api
			.execution(executionId)
			.catch((err) => ({ status: `(REST error: ${err.message.slice(0, 80)})` }));
		if (seen.at(-1)?.status !== e.status)
			seen.push({ status: e.status, atMs: Date.now() - t0, execution: e });
		if (!['new', 'running', 'waiting'].includes(e.status) && !String(e.status).startsWith('('))
			break;
		await sleep(500);
	}
	return seen;
}

/**
 * Sends 200 items to `webhookPath` in the background with the sandbox slowed down (30 ms a request),
 * calls `kill()` once 40 of them exist, lifts the latency; returns the items and what happened.
 */
async function crashMidNode({ baseUrl, webhookPath, batch, kill }) {
	await sandbox.reset();
	await sandbox.setFaults({ operations: ['createTodo'], latencyMs: 30 });
	const items = batchItems(batch, 200);
	const names = items.map((i) => i.name);
	const pending = postWebhook(baseUrl, webhookPath, { batch, items }, { timeoutMs: 180_000 }).catch(
		(e) => ({ error: e.message }),
	);
	await waitFor(
		'40 to-dos of the batch at the sandbox',
		async () => {
			const todos = (await sandbox.state()).todos.filter((t) => names.includes(t.name));
			return todos.length >= 40;
		},
		{ timeoutMs: 120_000, intervalMs: 100 },
	);
	await kill();
	await sleep(1000);
	await sandbox.setFaults(null);
	const createdBeforeKill = (await sandbox.state()).todos.filter((t) =>
		names.includes(t.name),
	).length;
	return { items, names, pending, createdBeforeKill };
}

/** What n8n stored of a killed execution (the data a Retry starts from). */
async function describeStored(execution) {
	const data = execution.data ? await unflatten(execution.data) : null;
	const runData = data
		? `runData of [${Object.keys(data.resultData?.runData ?? {}).join(', ')}], executionData ${data.executionData ? 'present' : 'absent'}`
		: 'no data';
	return `${runData}; custom data ${JSON.stringify(execution.customData ?? {})}`;
}

/** "Retry" of a killed execution (REST, as the editor does it): what it sent and created, measured. */
async function measureRetry({ api, executionId, names, workers }) {
	const existingBefore =
		names.length - lostAndDuplicated((await sandbox.state()).todos, names).lost.length;
	const seq = await lastSeq(sandbox);
	const retry = await api.retry(executionId).then(
		(r) => ({ id: r.id }),
		(e) => ({ error: e.message }),
	);
	let what;
	let reqs = [];
	if (retry.error) what = `refused: ${retry.error.slice(0, 300)}`;
	else {
		const retryExec = await api.waitForExecution(retry.id, { timeoutMs: 120_000 });
		reqs = await requestsSince(sandbox, seq);
		const where = workers ? ` on ${workerThatStarted(workers, retry.id).join(',') || '?'}` : '';
		what = `execution ${retry.id} ${retryExec.status}${await errorOf(retryExec)}${where}: ${reqs.length} requests, ${applied(reqs).length} created, ${reqs.filter((q) => q.replayed).length} replayed`;
	}
	const { lost, duplicated } = lostAndDuplicated((await sandbox.state()).todos, names);
	return {
		what,
		sent: reqs.length,
		existingBefore,
		existing: names.length - lost.length,
		duplicated: duplicated.length,
	};
}

/** The user's recovery: the same input sent again, keyed by its business id: 0 duplicates, 0 lost. */
async function resendAndProve({ baseUrl, webhookPath, items, existing }) {
	const names = items.map((i) => i.name);
	const seq = await lastSeq(sandbox);
	const resend = await postWebhook(baseUrl, webhookPath, { batch: names[0].split('-')[0], items });
	assertEqual(
		resend.status,
		200,
		`webhook answer of the re-sent batch (${resend.body.slice(0, 300)})`,
	);
	const reqs = await requestsSince(sandbox, seq);
	const { todos } = await sandbox.state();
	const { lost, duplicated } = lostAndDuplicated(todos, names);
	assertEqual(
		{ lost: lost.length, duplicated: duplicated.length, todos: todos.length },
		{ lost: 0, duplicated: 0, todos: names.length },
		'to-dos after re-sending the input',
	);
	assertEqual(
		reqs.filter((q) => q.replayed).length,
		existing,
		'the re-sent items that already existed were replayed',
	);
	assertEqual(
		applied(reqs).length,
		names.length - existing,
		'the re-sent items that did not exist were created',
	);
	return `re-sent the ${names.length} items with business keys: ${existing} replayed, ${names.length - existing} created: 0 duplicates, 0 lost`;
}

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
	const webhookPathOf = (wf) => wf.nodes.find((n) => n.name === 'Webhook').parameters.path;
	const importInto = async (n8n) => {
		await n8n.importCredentials(
			W.credentialJson({ baseUrl: sandbox.baseUrl, apiToken: API_TOKEN }),
		);
		await n8n.importWorkflows([derivedWf, bizWf]);
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
			for (const wf of [derivedWf, bizWf]) {
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

	await check(
		'queue mode: 1,000 items in 4 production executions over two workers, one record and one derived key per item',
		async () => {
			await sandbox.reset();
			// A little latency so that the executions overlap and both workers take some.
			await sandbox.setFaults({ operations: ['createTodo'], latencyMs: 2 });
			const batches = ['A', 'B', 'C', 'D'].map((b) => ({ batch: b, items: batchItems(b, 250) }));
			const before = new Set((await listExecutions(api, derivedWf.id)).map((e) => String(e.id)));
			const t0 = Date.now();
			const responses = await Promise.all(
				batches.map((b) => postWebhook(mainN8n.baseUrl, webhookPathOf(derivedWf), b)),
			);
			const wallMs = Date.now() - t0;
			await sandbox.setFaults(null);
			responses.forEach((r, i) =>
				assertEqual(
					r.status,
					200,
					`webhook answer of batch ${batches[i].batch} (${r.body.slice(0, 300)})`,
				),
			);

			const executions = (await listExecutions(api, derivedWf.id)).filter(
				(e) => !before.has(String(e.id)),
			);
			assertEqual(executions.length, 4, 'new executions of the webhook workflow');
			const byBatch = {};
			for (const e of executions) {
				assertEqual(e.status, 'success', `status of execution ${e.id}`);
				assertEqual(e.mode, 'webhook', `mode of execution ${e.id}`);
				const ranOn = workerThatStarted(workers, e.id);
				assertEqual(ranOn.length, 1, `workers that ran execution ${e.id}`);
				byBatch[await batchOf(api, e.id)] = { id: String(e.id), worker: ranOn[0] };
			}
			const usedWorkers = new Set(Object.values(byBatch).map((b) => b.worker));
			assertEqual(
				[...usedWorkers].sort(),
				['worker1', 'worker2'],
				'workers that ran the 4 executions (concurrency 1 each, 4 calls at once)',
			);

			const { todos } = await sandbox.state();
			const allNames = batches.flatMap((b) => b.items.map((i) => i.name));
			assertEqual(todos.length, 1000, 'to-dos at the sandbox');
			const { lost, duplicated } = lostAndDuplicated(todos, allNames);
			assertEqual(
				{ lost: lost.length, duplicated: duplicated.length },
				{ lost: 0, duplicated: 0 },
				`lost / duplicated items (${[...lost, ...duplicated].slice(0, 5)})`,
			);
			// The key that created each to-do: the sandbox's request log (to-dos do not store it).
			const reqs = await requestsSince(sandbox, 0);
			assertEqual(
				{ applied: applied(reqs).length, replayed: reqs.filter((r) => r.replayed).length },
				{ applied: 1000, replayed: 0 },
				'requests at the sandbox',
			);
			const keyOf = new Map(applied(reqs).map((r) => [r.body.name, r.key]));
			for (const b of batches) {
				const { id: executionId } = byBatch[b.batch];
				b.items.forEach((item, itemIndex) => {
					const expected = derivedKey({
						instanceId,
						workflowId: derivedWf.id,
						rootExecutionId: executionId,
						nodeId: WEBHOOK_NODE_ID,
						runIndex: 0,
						itemIndex,
					});
					assertEqual(
						keyOf.get(item.name),
						expected,
						`key of ${item.name} (execution ${executionId} on ${byBatch[b.batch].worker})`,
					);
				});
			}
			assertDistinct([...keyOf.values()], 'keys of the 1,000 to-dos');
			for (const b of batches)
				note(
					`batch ${b.batch}: execution ${byBatch[b.batch].id} on ${byBatch[b.batch].worker}, webhook answered in ${fmtMs(responses[batches.indexOf(b)].ms)}`,
				);
			note(
				`1,000 items in 4 executions on 2 workers: ${fmtMs(wallMs)} wall (${Math.round(1000 / (wallMs / 1000))} items/s with 2 ms sandbox latency)`,
			);
		},
	);

	await check(
		'queue mode: a failed execution retried while its worker is stopped runs on the other worker and replays',
		async () => {
			await sandbox.reset();
			await sandbox.setFaults({
				operations: ['createTodo'],
				rateLimit: { requests: 20, windowMs: 600_000, retryAfterSeconds: 600 },
			});
			const items = batchItems('R', 50);
			const names = items.map((i) => i.name);
			const before = new Set((await listExecutions(api, derivedWf.id)).map((e) => String(e.id)));
			const r = await postWebhook(mainN8n.baseUrl, webhookPathOf(derivedWf), { batch: 'R', items });
			note(`rate-limited execution: webhook answered ${r.status} in ${fmtMs(r.ms)}`);
			const [first] = (await listExecutions(api, derivedWf.id)).filter(
				(e) => !before.has(String(e.id)),
			);
			assert(first, 'the failed execution is listed');
			const failedExec = await api.waitForExecution(first.id);
			assertEqual(failedExec.status, 'error', `status of the rate-limited execution ${first.id}`);
			const [ranOn] = workerThatStarted(workers, first.id);
			const stopped = workers.find((w) => w.name === ranOn);
			const other = workers.find((w) => w !== stopped);
			assertEqual((await sandbox.state()).todos.length, 20, 'to-dos created before the rate limit');
			const originalKeys = applied(await requestsSince(sandbox, 0)).map((q) => q.key);

			await stopped.stop(); // SIGTERM: the worker shuts down
			await sandbox.setFaults(null);
			const seq = await lastSeq(sandbox);
			const retry = await api.retry(first.id);
			const retryExec = await api.waitForExecution(retry.id);
			assertEqual(retryExec.status, 'success', `status of the retry ${retry.id}`);
			assertEqual(
				workerThatStarted(workers, retry.id),
				[other.name],
				`worker that ran the retry ${retry.id} (${stopped.name} stopped)`,
			);
			assertEqual(
				retryExec.customData?.inventoryRootExecutionId,
				String(first.id),
				'the retry inherited the root execution id',
			);
			const reqs = await requestsSince(sandbox, seq);
			assertEqual(
				reqs.slice(0, 20).map((q) => [q.key, q.replayed]),
				originalKeys.map((k) => [k, true]),
				'the retry resent items 1-20 with their original keys (replays)',
			);
			assertEqual(applied(reqs).length, 30, 'items 21-50 created by the retry');
			const { todos } = await sandbox.state();
			const { lost, duplicated } = lostAndDuplicated(todos, names);
			assertEqual(
				{ todos: todos.length, lost: lost.length, duplicated: duplicated.length },
				{ todos: 50, lost: 0, duplicated: 0 },
				'to-dos after the retry',
			);
			note(
				`execution ${first.id} failed on ${stopped.name}; ${stopped.name} stopped; retry ${retry.id} ran on ${other.name}: 20 replayed, 30 created`,
			);
			await stopped.startWorker({ concurrency: 1 });
		},
	);

	await check(
		'queue mode: a worker SIGKILLed mid-node; recovery by re-sending with the business key: 0 duplicates, 0 lost',
		async () => {
			const before = new Set((await listExecutions(api, bizWf.id)).map((e) => String(e.id)));
			let victim;
			let executionId;
			const { items, names, ...crash } = await crashMidNode({
				baseUrl: mainN8n.baseUrl,
				webhookPath: webhookPathOf(bizWf),
				batch: 'K',
				kill: async () => {
					[{ id: executionId }] = (await listExecutions(api, bizWf.id)).filter(
						(e) => !before.has(String(e.id)),
					);
					[victim] = workers.filter((w) =>
						w.executionsInLog().started.includes(String(executionId)),
					);
					assert(victim, `a worker that started execution ${executionId}`);
					victim.killHard();
				},
			});
			note(
				`execution ${executionId} on ${victim.name}: SIGKILL after ${crash.createdBeforeKill} of 200 to-dos were created`,
			);
			const timeline = await statusTimeline(api, executionId, { timeoutMs: 90_000 });
			note(
				`status of ${executionId} after the kill${await errorOf(timeline.at(-1).execution)}: ${timeline.map((s) => `${s.status} (+${fmtMs(s.atMs)})`).join(' -> ')}`,
			);
			const answer = await crash.pending;
			note(
				`the webhook call of the killed execution: ${answer.error ? `error ${answer.error}` : `HTTP ${answer.status} after ${fmtMs(answer.ms)} ${answer.body.slice(0, 200)}`}`,
			);
			const last = timeline.at(-1).execution;
			assert(
				last.status !== 'success',
				`the killed execution ${executionId} must not be reported as successful`,
			);
			note(`stored data of ${executionId}: ${await describeStored(last)}`);
			const retry = await measureRetry({ api, executionId, names, workers });
			note(
				`Retry of ${executionId} (business keys): ${retry.what}; then ${retry.existing} of 200 exist, ${retry.duplicated} duplicated`,
			);
			// n8n keeps the stall error in the retried data (no node had finished, so nothing is popped):
			// the Retry ends at once and runs no node. The README's table says so.
			assertEqual(
				retry.sent,
				0,
				`requests sent by the Retry of the killed execution ${executionId}`,
			);
			note(
				await resendAndProve({
					baseUrl: mainN8n.baseUrl,
					webhookPath: webhookPathOf(bizWf),
					items,
					existing: retry.existing,
				}),
			);
			await victim.stop(); // its process group's leftovers
		},
	);

	// ----- regular mode ----------------------------------------------------------------------------
	// The queue-mode stack is done: stopped, so that it does not share the CPUs with this instance.
	let regularApi;
	const regularSetUp = async () => {
		if (regular) return;
		await stack.stop();
		regular = new N8nInstance({ name: 'regular', userFolder: path.join(RUN_DIR, 'regular') });
		await installIntoNodesFolder(pack.tgz, regular.nodesDir);
		await importInto(regular);
		await regular.start();
		regularApi = await ownerLogin(regular);
		for (const wf of [derivedWf, bizWf]) {
			await activateWorkflow(regularApi, wf.id);
			await waitForWebhook(regular.baseUrl, webhookPathOf(wf));
		}
	};
	/** Sends 200 items, SIGKILLs n8n (and its task runner) mid-node, restarts it; returns what it then reports. */
	const crashRegular = async (wf, batch) => {
		await regularSetUp();
		let executionId;
		const { items, names, ...crash } = await crashMidNode({
			baseUrl: regular.baseUrl,
			webhookPath: webhookPathOf(wf),
			batch,
			kill: async () => {
				[{ id: executionId }] = await listExecutions(regularApi, wf.id);
				process.kill(-regular.server.child.pid, 'SIGKILL');
			},
		});
		const answer = await crash.pending;
		note(
			`regular mode, ${wf.name}: execution ${executionId} SIGKILLed after ${crash.createdBeforeKill} of 200 to-dos; its webhook call: ${answer.error ?? `HTTP ${answer.status}`}`,
		);
		await regular.stop();
		await regular.start();
		regularApi = await ownerLogin(regular);
		const timeline = await statusTimeline(regularApi, executionId, { timeoutMs: 60_000 });
		const last = timeline.at(-1).execution;
		note(
			`regular mode: status of ${executionId} after the restart${await errorOf(last)}: ${timeline.map((t) => `${t.status} (+${fmtMs(t.atMs)})`).join(' -> ')}`,
		);
		note(`regular mode: stored data of ${executionId}: ${await describeStored(last)}`);
		assert(
			last.status !== 'success',
			`the killed execution ${executionId} must not be reported as successful`,
		);
		return { executionId, items, names };
	};

	await check(
		'regular mode: n8n SIGKILLed mid-node and restarted; recovery by re-sending with the business key: 0 duplicates, 0 lost',
		async () => {
			const { executionId, items, names } = await crashRegular(bizWf, 'S');
			const retry = await measureRetry({ api: regularApi, executionId, names });
			note(
				`regular mode: Retry of ${executionId} (business keys): ${retry.what}; then ${retry.existing} of 200 exist, ${retry.duplicated} duplicated`,
			);
			assertEqual(
				{ existing: retry.existing, duplicated: retry.duplicated },
				{ existing: 200, duplicated: 0 },
				`items after the Retry of the crashed execution ${executionId} (business keys)`,
			);
			note(
				`regular mode: ${await resendAndProve({ baseUrl: regular.baseUrl, webhookPath: webhookPathOf(bizWf), items, existing: retry.existing })}`,
			);
		},
	);

	await check(
		'regular mode: n8n SIGKILLed mid-node with derived keys, restarted: its Retry creates again what existed (no custom data saved)',
		async () => {
			const { executionId, names } = await crashRegular(derivedWf, 'T');
			const retry = await measureRetry({ api: regularApi, executionId, names });
			note(
				`regular mode: Retry of ${executionId} (derived keys): ${retry.what}; then ${retry.existing} of 200 exist, ${retry.duplicated} duplicated`,
			);
			// The crash came before n8n saved the execution's custom data, so the Retry cannot find the
			// root execution id and derives new keys: what existed is created again. The README's table
			// says so (derived keys do not cover a crash mid-node; a business key does).
			assertEqual(
				{ existing: retry.existing, duplicated: retry.duplicated },
				{ existing: 200, duplicated: retry.existingBefore },
				`items after the Retry of the crashed execution ${executionId} (derived keys)`,
			);
		},
	);
}

try {
	await main();
} catch (e) {
	failed = true;
	if (!steps.results.some((r) => !r.ok)) log(`failed: ${e?.stack ?? e}`);
} finally {
	await regular?.stop().catch(() => {});
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
