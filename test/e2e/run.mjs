#!/usr/bin/env node
// `npm run test:e2e`: the proof in a real n8n 2.x.
//   1. the pinned n8n host (installed or reused), Debian's chromium (installed when missing)
//   2. build + `npm pack` this package, install the tarball into a fresh n8n user folder's
//      community nodes folder
//   3. headless: the sandbox, a credential and example workflows imported with the n8n CLI, run with
//      `n8n execute --id`, asserted on the JSON result and the sandbox's inspection endpoint; then
//      bulk intake at automatic concurrency over HTTPS against a second, throttled sandbox
//   4. "Retry execution" for real: `n8n start`, owner set up and logged in through the REST API, a
//      failed execution retried through POST /rest/executions/:id/retry after fixing the cause
//   5. the node as an AI agent's tool and as a tool of the MCP Server Trigger (the official MCP
//      client); many executions at once: 300 production webhook calls against a throttled sandbox
//   6. the editor in headless Chromium: the node's forms for each operation and the credential,
//      screenshots into .github/screenshots/
// Steps 3-6 are the named groups in groups/ (headless.mjs, one-action.mjs, examples.mjs, bulk-tls.mjs, retry.mjs, stop.mjs, execute-step.mjs, spreadsheet.mjs, credential-test.mjs, agent.mjs, mcp.mjs, webhook-burst.mjs, editor.mjs); this file sets up
// what they share. Exits non-zero on any failure; prints the duration of each step.
//
// Environment: E2E_SKIP_BROWSER=1 skips step 6; E2E_KEEP=1 keeps the run's user folder;
// E2E_HOST=n8n1 runs steps 1-3 on n8n 1.123.81 with Node 20 instead (compatibility);
// E2E_UPDATE_SCREENSHOTS=1 writes the editor screenshots into .github/screenshots (else the e2e work folder, $TMPDIR/n8n-nodes-inventory-e2e);
// E2E_ONLY=<text>[,<text>] runs only the checks whose names contain one of them;
// E2E_INSTALL_MODE=npm installs the tarball with a plain `npm i <tgz>` instead of n8n's way.
import fs from 'node:fs';
import path from 'node:path';

import { agent, agentWorkflows } from './groups/agent.mjs';
import { bulkTls } from './groups/bulk-tls.mjs';
import { credentialTest } from './groups/credential-test.mjs';
import { editor } from './groups/editor.mjs';
import { exampleWorkflows, examples } from './groups/examples.mjs';
import { headless } from './groups/headless.mjs';
import { oneAction, oneActionWorkflows } from './groups/one-action.mjs';
import { mcp, mcpCredentials, mcpWorkflows } from './groups/mcp.mjs';
import { executeStep } from './groups/execute-step.mjs';
import { retryExecution } from './groups/retry.mjs';
import { fileAccessWorkflows, spreadsheet, spreadsheetWorkflows } from './groups/spreadsheet.mjs';
import { stopExecution } from './groups/stop.mjs';
import { webhookBurstRegular } from './groups/webhook-burst.mjs';
import { ensureChromium } from './lib/browser.mjs';
import { HOST_DIR, HOST_FLAVOR, ensureHost } from './lib/host.mjs';
import { N8nInstance, OWNER } from './lib/n8n.mjs';
import { PACKAGE_NAME, buildAndPackPackage, installIntoNodesFolder } from './lib/pkg.mjs';
import { API_TOKEN, startSandbox } from './lib/sandbox.mjs';
import { ScriptedChatModel } from './lib/scripted-openai.mjs';
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
	pickPort,
} from './lib/util.mjs';
import * as W from './lib/workflows.mjs';

installCleanupHandlers();
const steps = new Steps();
const started = Date.now();
// .github/screenshots (committed, shown in the README) only when asked: `npm run e2e:screenshots`. Not under
// docs/: `n8n-node build` copies every .png and .svg outside dot-folders into dist/, so the tarball would carry them.
const UPDATE_SCREENSHOTS = process.env.E2E_UPDATE_SCREENSHOTS === '1';
const SCREENSHOT_DIR = UPDATE_SCREENSHOTS
	? path.join(REPO_DIR, '.github', 'screenshots')
	: path.join(WORK_DIR, 'screenshots');

let n8n;
let sandbox;
let model;
let failed = false;
const checks = checkRunner(steps);
const check = checks.check;

async function main() {
	const host = await steps.run(
		`n8n host: install or reuse (${path.relative(REPO_DIR, HOST_DIR)})`,
		async () => {
			const r = await ensureHost();
			log(`n8n ${r.version} ${r.reused ? 'reused' : 'installed'} (${fmtMs(r.ms)})`);
			return r;
		},
	);

	const skipBrowser = process.env.E2E_SKIP_BROWSER === '1' || HOST_FLAVOR !== 'n8n2';
	if (!skipBrowser) await steps.run('chromium: present or apt-get install', ensureChromium);

	const pack = await steps.run('package: npm run build, npm pack', async () => {
		const p = await buildAndPackPackage();
		log(`packed ${path.basename(p.tgz)} (${p.files.length} files, ${p.size} bytes)`);
		assert(
			p.files.every(
				(f) =>
					f === 'package.json' || f.startsWith('dist/') || /^(README|LICENSE|CHANGELOG)/i.test(f),
			),
			`unexpected files in the tarball: ${p.files.join(', ')}`,
		);
		return p;
	});

	await steps.run('sandbox: build and start', async () => {
		// For the docs' credential screenshot, the sandbox's usual port when it is free.
		const port = UPDATE_SCREENSHOTS ? await pickPort(8080) : undefined;
		sandbox = await startSandbox({ port, logFile: path.join(WORK_DIR, 'sandbox.log') });
		log(`sandbox on ${sandbox.baseUrl}`);
	});

	n8n = new N8nInstance({ name: 'e2e' });
	log(`N8N_USER_FOLDER=${n8n.userFolder}`);

	await steps.run('n8n: install the tarball into .n8n/nodes', async () => {
		const dir = await installIntoNodesFolder(pack.tgz, n8n.nodesDir);
		const pj = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
		assertEqual(pj.name, PACKAGE_NAME, 'installed package name');
		assert(
			!fs.existsSync(path.join(dir, 'node_modules')) ||
				fs.readdirSync(path.join(dir, 'node_modules')).length === 0,
			'the package must bring no runtime dependencies',
		);
	});

	await steps.run('n8n CLI: import credential and workflows', async () => {
		await n8n.importCredentials([
			...W.credentialJson({ baseUrl: sandbox.baseUrl, apiToken: API_TOKEN }),
			// The MCP Server Trigger's bearer token (n8n 2.x part).
			...(HOST_FLAVOR === 'n8n2' ? mcpCredentials() : []),
		]);
		await n8n.importWorkflows([
			W.createTodoWorkflow(),
			W.updateBillingWorkflow(),
			W.recordAcquisitionWorkflow(),
			W.errorOutputWorkflow(),
			W.errorDetailsWorkflow(),
			W.loopWorkflow(),
			W.retryRateLimitWorkflow(),
			W.retryFixWorkflow(),
			W.stopImportWorkflow(),
			W.editorWorkflow(),
			...exampleWorkflows(),
			W.webhookBurstWorkflow(),
			...oneActionWorkflows(),
			// Run through the REST API (n8n 2.x part): pinned data counts in manual runs only; the MCP
			// Server Trigger answers once its workflow is active.
			...(HOST_FLAVOR === 'n8n2'
				? [...spreadsheetWorkflows(n8n), ...fileAccessWorkflows(n8n), ...mcpWorkflows()]
				: []),
		]);
	});

	if (HOST_FLAVOR === 'n8n2') {
		await steps.run(
			'agent: scripted chat model up; n8n CLI: import its credential and the agent workflows',
			async () => {
				model = await new ScriptedChatModel(() => {
					throw new Error('no script set');
				}).start();
				log(`scripted chat model on ${model.baseUrl}`);
				await n8n.importCredentials(W.openAiCredentialJson({ url: model.baseUrl }));
				await n8n.importWorkflows(agentWorkflows());
			},
		);
	}

	// ----- headless --------------------------------------------------------------------------
	await headless({ n8n, sandbox }, check);
	await oneAction({ n8n, sandbox }, check);
	await examples({ n8n, sandbox }, check);
	await bulkTls({ n8n }, check);

	// n8n 1.x (E2E_HOST=n8n1): the headless part only (the REST API and editor checks are 2.x's).
	if (HOST_FLAVOR !== 'n8n2') {
		log(`host n8n ${host.version}: headless part only`);
		return;
	}

	// ----- retry execution through the running instance ---------------------------------------
	const api = await steps.run(
		'n8n start: server up, owner set up and logged in (REST)',
		async () => {
			await n8n.start();
			log(`n8n at ${n8n.baseUrl} (start took ${fmtMs(n8n.startMs)})`);
			const client = n8n.api();
			await client.setupOwnerAndLogin(OWNER);
			return client;
		},
	);

	await retryExecution({ sandbox, api }, check);
	await stopExecution({ sandbox, api }, check);
	await executeStep({ sandbox, api }, check);

	// ----- the credential test through n8n's endpoint -------------------------------------------
	await credentialTest({ n8n, sandbox, api }, check);

	// ----- the node as an AI agent's tool (scripted chat model) --------------------------------------
	await agent({ n8n, sandbox, api, model, screenshotDir: SCREENSHOT_DIR, skipBrowser }, check);

	// ----- the node as a tool of the MCP Server Trigger (the official MCP client) ----------------
	await mcp({ n8n, sandbox, api }, check);

	// ----- many executions at once: a burst of production webhook calls ------------------------
	await webhookBurstRegular({ n8n, sandbox, api }, check);

	// ----- the editor ----------------------------------------------------------------------------
	if (!skipBrowser) {
		await editor({ n8n, screenshotDir: SCREENSHOT_DIR }, check);
	}

	// ----- from a spreadsheet: files in ~/.n8n-files, the Google Sheets example -------------------
	await spreadsheet({ sandbox, api }, check);

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
	await model?.stop().catch(() => {});
	if (n8n && !failed && process.env.E2E_KEEP !== '1')
		fs.rmSync(n8n.userFolder, { recursive: true, force: true });
	else if (n8n) log(`kept ${n8n.userFolder} (logs in ${n8n.logDir})`);
	console.log(steps.summary());
	console.log(`\ne2e wall time: ${fmtMs(Date.now() - started)}`);
	console.log(`e2e: ${checks.passed} passed, ${failed ? 1 : 0} failed`);
	process.exit(failed ? 1 : 0);
}
