#!/usr/bin/env node
// `npm run test:e2e`: the proof in a real n8n 2.x.
//   1. the pinned n8n host (installed or reused), Debian's chromium (installed when missing)
//   2. build + `npm pack` this package, install the tarball into a fresh n8n user folder's
//      community nodes folder
//   3. headless: the sandbox, a credential and example workflows imported with the n8n CLI, run with
//      `n8n execute --id`, asserted on the JSON result and the sandbox's inspection endpoint
//   4. "Retry execution" for real: `n8n start`, owner set up and logged in through the REST API, a
//      failed execution retried through POST /rest/executions/:id/retry after fixing the cause
//   5. the editor in headless Chromium: the node's forms for each operation and the credential,
//      screenshots into docs/screenshots/
// Exits non-zero on any failure; prints the duration of each step.
//
// Environment: E2E_SKIP_BROWSER=1 skips step 5; E2E_KEEP=1 keeps the run's user folder;
// E2E_HOST=n8n1 runs steps 1-3 on n8n 1.123.81 with Node 20 instead (compatibility);
// E2E_UPDATE_SCREENSHOTS=1 writes the editor screenshots into docs/screenshots (else test/e2e/.work);
// E2E_ONLY=<text>[,<text>] runs only the checks whose names contain one of them;
// E2E_INSTALL_MODE=npm installs the tarball with a plain `npm i <tgz>` instead of n8n's way.
import fs from 'node:fs';
import path from 'node:path';

import { ensureChromium, launchBrowser } from './lib/browser.mjs';
import { assertTextsVisible, closeNode, openNode, openWorkflow, signIn } from './lib/editor.mjs';
import { HOST_DIR, HOST_FLAVOR, ensureHost } from './lib/host.mjs';
import { N8nInstance, OWNER, unflatten } from './lib/n8n.mjs';
import { PACKAGE_NAME, buildPackage, installIntoNodesFolder, packPackage } from './lib/pkg.mjs';
import { API_TOKEN, Sandbox, buildSandbox } from './lib/sandbox.mjs';
import {
	REPO_DIR,
	Steps,
	WORK_DIR,
	assert,
	assertEqual,
	fmtMs,
	installCleanupHandlers,
	log,
	pickPort,
} from './lib/util.mjs';
import * as W from './lib/workflows.mjs';

installCleanupHandlers();
const steps = new Steps();
const started = Date.now();
// docs/screenshots (committed, shown in the README) only when asked: `npm run e2e:screenshots`.
const UPDATE_SCREENSHOTS = process.env.E2E_UPDATE_SCREENSHOTS === '1';
const SCREENSHOT_DIR = UPDATE_SCREENSHOTS ? path.join(REPO_DIR, 'docs', 'screenshots') : path.join(WORK_DIR, 'screenshots');

let n8n;
let sandbox;
let failed = false;
let passed = 0;

async function check(name, fn) {
	const only = process.env.E2E_ONLY;
	if (only && !only.split(',').some((o) => name.includes(o))) return log(`(skipped: ${name})`);
	await steps.run(name, fn);
	passed++;
}

// ---------------------------------------------------------------------------------------------
// helpers over the sandbox's inspection endpoint

/** The API requests the sandbox received since `fromSeq` (exclusive). */
async function requestsSince(fromSeq) {
	return (await sandbox.requests()).filter((r) => r.seq > fromSeq && r.operation);
}

async function lastSeq() {
	const reqs = await sandbox.requests();
	return reqs.length ? reqs[reqs.length - 1].seq : 0;
}

/** Applied (fresh, 2xx, not replayed) requests. */
const applied = (reqs) => reqs.filter((r) => r.status >= 200 && r.status < 300 && !r.replayed);

function assertDistinct(list, what) {
	assertEqual(new Set(list).size, list.length, `${what} must be distinct (${list.join(', ')})`);
}

function runOf(result, nodeName) {
	const runs = result.json?.data?.resultData?.runData?.[nodeName];
	assert(Array.isArray(runs) && runs.length > 0, `no run data for node "${nodeName}" in the execute output`);
	return runs;
}

function outputItems(run, output = 0) {
	return (run.data?.main?.[output] ?? []).map((i) => i.json);
}

async function executeOk(workflowId) {
	const r = await n8n.execute(workflowId);
	assert(r.code === 0, `n8n execute --id=${workflowId} exited ${r.code}\n${r.stdout.slice(-4000)}\n${r.stderr.slice(-2000)}`);
	assert(r.json?.data?.resultData, `n8n execute --id=${workflowId}: no JSON result\n${r.stdout.slice(-2000)}`);
	assert(!r.json.data.resultData.error, `workflow ${workflowId} failed: ${String(JSON.stringify(r.json.data.resultData.error)).slice(0, 1500)}`);
	return r;
}

// ---------------------------------------------------------------------------------------------

async function main() {
	const host = await steps.run(`n8n host: install or reuse (${path.relative(REPO_DIR, HOST_DIR)})`, async () => {
		const r = await ensureHost();
		log(`n8n ${r.version} ${r.reused ? 'reused' : 'installed'} (${fmtMs(r.ms)})`);
		return r;
	});

	const skipBrowser = process.env.E2E_SKIP_BROWSER === '1' || HOST_FLAVOR !== 'n8n2';
	if (!skipBrowser) await steps.run('chromium: present or apt-get install', ensureChromium);

	const pack = await steps.run('package: npm run build, npm pack', async () => {
		await buildPackage();
		const p = await packPackage();
		log(`packed ${path.basename(p.tgz)} (${p.files.length} files, ${p.size} bytes)`);
		assert(p.files.every((f) => f === 'package.json' || f.startsWith('dist/') || /^(README|LICENSE)/i.test(f)), `unexpected files in the tarball: ${p.files.join(', ')}`);
		return p;
	});

	await steps.run('sandbox: build and start', async () => {
		await buildSandbox();
		// For the docs' credential screenshot, the sandbox's usual port when it is free.
		const port = UPDATE_SCREENSHOTS ? await pickPort(8080) : undefined;
		sandbox = await new Sandbox().start({ port, logFile: path.join(WORK_DIR, 'sandbox.log') });
		log(`sandbox on ${sandbox.baseUrl}`);
	});

	n8n = new N8nInstance({ name: 'e2e' });
	log(`N8N_USER_FOLDER=${n8n.userFolder}`);

	await steps.run('n8n: install the tarball into .n8n/nodes', async () => {
		const dir = await installIntoNodesFolder(pack.tgz, n8n.nodesDir);
		const pj = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
		assertEqual(pj.name, PACKAGE_NAME, 'installed package name');
		assert(!fs.existsSync(path.join(dir, 'node_modules')) || fs.readdirSync(path.join(dir, 'node_modules')).length === 0, 'the package must bring no runtime dependencies');
	});

	await steps.run('n8n CLI: import credential and workflows', async () => {
		await n8n.importCredentials(W.credentialJson({ baseUrl: sandbox.baseUrl, apiToken: API_TOKEN }));
		await n8n.importWorkflows([
			W.createTodoWorkflow(),
			W.updateBillingWorkflow(),
			W.recordAcquisitionWorkflow(),
			W.errorOutputWorkflow(),
			W.loopWorkflow(),
			W.retryRateLimitWorkflow(),
			W.retryFixWorkflow(),
			W.editorWorkflow(),
		]);
	});

	// ----- headless --------------------------------------------------------------------------
	await check('headless: createTodo (2 items), then the same workflow again', async () => {
		await sandbox.reset();
		const wf = W.createTodoWorkflow();
		const r1 = await executeOk(wf.id);
		const out = outputItems(runOf(r1, 'Create To-Do')[0]);
		assertEqual(out.length, 2, 'output items');
		assertEqual(out.map((o) => o.todo?.name), ['Tag and label', 'Replace battery'], 'to-do names in the output');
		assertEqual(out.map((o) => o.asset_id), [1001, 1002], 'asset ids in the output');
		assertEqual(out[0].todo.due_date, '2026-12-31', 'due_date');
		assertEqual(out[0].todo.assigned_to, 102, 'assigned_to');
		let state = await sandbox.state();
		assertEqual(state.todos.length, 2, 'to-dos in the sandbox after one execution');
		const firstKeys = applied(await requestsSince(0)).map((r) => r.key);
		assertEqual(firstKeys.length, 2, 'applied requests after one execution');
		assertDistinct(firstKeys, 'keys of the two items');

		const seq = await lastSeq();
		await executeOk(wf.id);
		state = await sandbox.state();
		assertEqual(state.todos.length, 4, 'to-dos after running the same workflow again (a new execution creates new records)');
		const secondKeys = applied(await requestsSince(seq)).map((r) => r.key);
		assertEqual(secondKeys.length, 2, 'applied requests of the second execution');
		assertDistinct([...firstKeys, ...secondKeys], 'keys across the two executions');
		assertEqual(state.counters.replays, 0, 'replays');
	});

	await check('headless: updateBilling (per_license)', async () => {
		await sandbox.reset();
		const r = await executeOk(W.updateBillingWorkflow().id);
		const [out] = outputItems(runOf(r, 'Update Billing')[0]);
		assertEqual(out.subscription_id, 2002, 'subscription_id');
		assertEqual(
			[out.state.price_model, out.state.cost, out.state.billing_frequency, out.state.license_count],
			['per_license', '12.50', 'Quarterly', 30],
			'billing state in the output',
		);
		const state = await sandbox.state();
		assertEqual(state.billingChanges.length, 1, 'billing changes in the sandbox');
		const sub = state.subscriptions.find((s) => s.id === 2002);
		assertEqual([sub.price_model, sub.cost, sub.billing_frequency, sub.license_count], ['per_license', '12.50', 'Quarterly', 30], 'subscription 2002 in the sandbox');
	});

	await check('headless: recordAcquisition (purchase; lease with custom fields)', async () => {
		await sandbox.reset();
		const r = await executeOk(W.recordAcquisitionWorkflow().id);
		const [purchase] = outputItems(runOf(r, 'Record Purchase')[0]);
		const [lease] = outputItems(runOf(r, 'Record Lease')[0]);
		assertEqual(purchase.asset_id, 1003, 'purchase asset_id');
		assertEqual(lease.asset_id, 1004, 'lease asset_id');
		const state = await sandbox.state();
		assertEqual(state.acquisitions.length, 2, 'acquisitions in the sandbox');
		const p = state.acquisitions.find((a) => a.asset_id === 1003);
		const l = state.acquisitions.find((a) => a.asset_id === 1004);
		assertEqual([p.event_type_id, p.acquired_from, p.cost, p.price], [301, 'ACME Reseller', '999.99', '999.99'], 'purchase record');
		assertEqual([l.event_type_id, l.payment, l.billing_frequency, l.number_of_payments], [302, '100.00', 'monthly', 24], 'lease record');
		assertEqual(l.field_values, { 401: 'LC-2026-001', 402: 4021 }, 'lease custom field values');
		assertDistinct(state.acquisitions.map((a) => a.idempotency_key), 'keys of the two nodes');
	});

	await check('headless: error output (On Error: Continue using error output)', async () => {
		await sandbox.reset();
		const r = await executeOk(W.errorOutputWorkflow().id);
		const [run] = runOf(r, 'Create To-Do');
		const ok = outputItems(run, 0);
		const bad = outputItems(run, 1);
		assertEqual(ok.map((o) => o.asset_id), [1005, 1006], 'items on the success output');
		assertEqual(bad.length, 1, 'items on the error output');
		assert(typeof bad[0].error === 'string' || typeof bad[0].error === 'object', `the error item carries an error: ${JSON.stringify(bad[0])}`);
		assert(!JSON.stringify(bad[0]).includes(API_TOKEN), 'the API token must not appear in the error item');
		const pairs = (run.data.main[1] ?? []).map((i) => i.pairedItem);
		assertEqual(JSON.stringify(pairs).includes('"item":1'), true, `the error item is paired with input item 1 (${JSON.stringify(pairs)})`);
		assertEqual(outputItems(runOf(r, 'Succeeded')[0]).length, 2, 'Succeeded node items');
		assertEqual(outputItems(runOf(r, 'Failed')[0]).length, 1, 'Failed node items');
		const state = await sandbox.state();
		assertEqual(state.todos.map((t) => t.asset_id).sort(), [1005, 1006], 'to-dos in the sandbox');
	});

	await check('headless: the node runs twice in one execution (loop)', async () => {
		await sandbox.reset();
		const r = await executeOk(W.loopWorkflow().id);
		const runs = runOf(r, 'Create To-Do');
		assertEqual(runs.length, 2, 'runs of the Inventory node');
		const state = await sandbox.state();
		assertEqual(state.todos.map((t) => t.name), ['Loop run 1', 'Loop run 2'], 'to-dos in the sandbox (each once)');
		const keys = applied(await requestsSince(0)).map((r) => r.key);
		assertEqual(keys.length, 2, 'applied requests');
		assertDistinct(keys, 'keys of run 0 and run 1 (same item index)');
	});

	// n8n 1.x (E2E_HOST=n8n1): the headless part only (the REST API and editor checks are 2.x's).
	if (HOST_FLAVOR !== 'n8n2') {
		log(`host n8n ${host.version}: headless part only`);
		return;
	}

	// ----- retry execution through the running instance ---------------------------------------
	const api = await steps.run('n8n start: server up, owner set up and logged in (REST)', async () => {
		await n8n.start();
		log(`n8n at ${n8n.baseUrl} (start took ${fmtMs(n8n.startMs)})`);
		const client = n8n.api();
		await client.setupOwnerAndLogin(OWNER);
		const types = await client.get('/node-types').catch(() => null);
		void types;
		return client;
	});

	await check('retry execution: rate limit on item 3, retried with the original workflow', async () => {
		await sandbox.reset();
		const wf = W.retryRateLimitWorkflow();
		await sandbox.setFaults({ operations: ['createTodo'], rateLimit: { requests: 2, windowMs: 600_000, retryAfterSeconds: 600 } });
		const execId = await api.runManually(wf.id, W.TRIGGER);
		const failedExec = await api.waitForExecution(execId);
		assertEqual(failedExec.status, 'error', `status of the first execution ${execId}`);
		let state = await sandbox.state();
		assertEqual(state.todos.map((t) => t.asset_id), [1010, 1011], 'to-dos created before the failure');
		const originalKeys = applied(await requestsSince(0)).map((r) => r.key);
		assertEqual(originalKeys.length, 2, 'applied requests of the first execution');
		assertEqual(failedExec.customData?.inventoryRootExecutionId, execId, 'the failed execution records its id in custom data');

		await sandbox.setFaults(null); // the cause is gone
		const seq = await lastSeq();
		const retry = await api.retry(execId, { loadWorkflow: false });
		const retryExec = await api.waitForExecution(retry.id);
		assertEqual(retryExec.status, 'success', `status of the retry ${retry.id}`);
		assertEqual(String(retryExec.retryOf), execId, 'retryOf of the retry');
		state = await sandbox.state();
		assertEqual(state.todos.map((t) => t.asset_id), [1010, 1011, 1012], 'to-dos after the retry: items 1 and 2 not created again');
		assertEqual(retryExec.customData?.inventoryRootExecutionId, execId, 'the retry inherited the custom data');
		const reqs = await requestsSince(seq);
		assertEqual(reqs.map((r) => [r.key, r.replayed]), [[originalKeys[0], true], [originalKeys[1], true], [reqs[2]?.key, false]], 'the retry resent items 1 and 2 with their keys (replays)');
		const data = await unflatten(retryExec.data);
		const out = data.resultData.runData['Create To-Do'].at(-1).data.main[0].map((i) => i.json.asset_id);
		assertEqual(out, [1010, 1011, 1012], 'the retry outputs all three items');
	});

	await check('retry execution: item 3 fails (404), workflow fixed, retried with the saved workflow', async () => {
		await sandbox.reset();
		const wf = W.retryFixWorkflow();
		const execId = await api.runManually(wf.id, W.TRIGGER);
		const failedExec = await api.waitForExecution(execId);
		assertEqual(failedExec.status, 'error', `status of the first execution ${execId}`);
		assertEqual((await sandbox.state()).todos.map((t) => t.asset_id), [1013, 1014], 'to-dos created before the failure');
		const originalKeys = applied(await requestsSince(0)).map((r) => r.key);

		// Fix the node in the saved workflow, as a user does in the editor (PATCH /rest/workflows/:id).
		const saved = await api.get(`/workflows/${wf.id}`);
		const nodes = saved.nodes.map((n) => (n.name === 'Create To-Do' ? { ...n, parameters: { ...n.parameters, assetId: W.RETRY_FIX_FIXED_ASSET } } : n));
		await api.patch(`/workflows/${wf.id}`, { versionId: saved.versionId, nodes, connections: saved.connections, name: saved.name, settings: saved.settings });

		const seq = await lastSeq();
		const retry = await api.retry(execId, { loadWorkflow: true });
		const retryExec = await api.waitForExecution(retry.id);
		assertEqual(retryExec.status, 'success', `status of the retry ${retry.id}`);
		const state = await sandbox.state();
		assertEqual(state.todos.map((t) => t.asset_id), [1013, 1014, 1015], 'to-dos after the retry: items 1 and 2 not created again');
		const reqs = await requestsSince(seq);
		assertEqual(reqs.slice(0, 2).map((r) => [r.key, r.replayed]), [[originalKeys[0], true], [originalKeys[1], true]], 'items 1 and 2 replayed with their original keys');
	});

	// ----- the editor ----------------------------------------------------------------------------
	if (!skipBrowser) {
		await check('editor: node forms and credential in headless Chromium, screenshots', async () => {
			fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
			const b = await launchBrowser({ viewport: { width: 1280, height: 800 } });
			const page = b.page;
			try {
				await signIn(page, n8n.baseUrl);
				const wf = W.editorWorkflow();
				await openWorkflow(page, n8n.baseUrl, wf.id);
				const names = await page.$$eval('[data-test-id="canvas-node"]', (els) => els.map((e) => e.getAttribute('data-node-name')));
				for (const n of ['Create To-Do', 'Update Billing', 'Record Acquisition']) assert(names.includes(n), `canvas shows node "${n}" (has ${names.join(', ')})`);
				await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'workflow.png') });

				const forms = [
					['Create To-Do', 'create-todo.png', ['Credential', 'Resource', 'Operation', 'Asset ID', 'Name']],
					['Update Billing', 'update-billing.png', ['Subscription ID', 'Price Model', 'Cost', 'Billing Frequency', 'License Count']],
					['Record Acquisition', 'record-acquisition.png', ['Asset ID', 'Event Type ID']],
				];
				for (const [node, file, labels] of forms) {
					await openNode(page, node);
					await assertTextsVisible(page, '[data-test-id="ndv"] [data-test-id="node-parameters"]', labels, `node "${node}"`);
					await page.screenshot({ path: path.join(SCREENSHOT_DIR, file) });
					await closeNode(page);
				}

				await page.goto(`${n8n.baseUrl}/home/credentials/${W.CREDENTIAL.id}`);
				await page.waitForSelector('[data-test-id="editCredential-modal"]', { timeout: 30_000 });
				await page.waitForTimeout(800);
				await assertTextsVisible(page, '[data-test-id="editCredential-modal"]', ['Base URL', 'API Token'], 'credential "Inventory sandbox"');
				await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'credential.png') });
			} catch (e) {
				fs.mkdirSync(WORK_DIR, { recursive: true });
				await page.screenshot({ path: path.join(WORK_DIR, 'editor-failure.png') }).catch(() => {});
				throw new Error(`${e.message}\n(screenshot of the failure: ${path.join(WORK_DIR, 'editor-failure.png')})`);
			} finally {
				await b.close();
			}
		});
	}

	log(`host n8n ${host.version}`);
}

try {
	await main();
} catch (e) {
	failed = true;
	if (!steps.results.some((r) => !r.ok)) log(`failed: ${e?.stack ?? e}`);
} finally {
	await n8n?.stop().catch(() => {});
	await sandbox?.stop().catch(() => {});
	if (n8n && !failed && process.env.E2E_KEEP !== '1') fs.rmSync(n8n.userFolder, { recursive: true, force: true });
	else if (n8n) log(`kept ${n8n.userFolder} (logs in ${n8n.logDir})`);
	console.log(steps.summary());
	console.log(`\ne2e wall time: ${fmtMs(Date.now() - started)}`);
	console.log(`e2e: ${passed} passed, ${failed ? 1 : 0} failed`);
	process.exit(failed ? 1 : 0);
}
