#!/usr/bin/env node
// `npm run n8n`: a local real n8n 2.x with this package installed (built, packed and installed the
// way n8n installs community packages), the Inventory API sandbox running, an "Inventory sandbox"
// credential, a workflow with the node for each operation, the procurement-intake and Google Sheets
// examples and two spreadsheet workflows (purchases.csv and purchases.xlsx, written into the user
// folder's ~/.n8n-files) imported, and the owner account set up. Prints the editor URL and the login; runs until Ctrl+C.
//
// `npm run dev` (this script with --watch) is n8n's own `n8n-node dev` loop on the pinned host: instead
// of a packed tarball, this checkout is linked into the user folder's community nodes folder,
// `n8n-node dev --external-n8n` recompiles on every change (tsc --watch), and n8n runs with
// N8N_DEV_RELOAD=true so it reloads the node. (`n8n-node dev` alone would start `npx n8n@latest`,
// which needs Node 24 and a release this registry lacks; the pinned n8n 2.40.7 runs on the host's Node 24.)
//
// Options (environment): N8N_PORT (default 5678, or a free port when taken), SANDBOX_PORT (default
// 8080, or a free port when taken), E2E_DEV_FOLDER (default $TMPDIR/n8n-nodes-inventory-e2e/dev: the n8n user
// folder, kept between runs; with --watch ~/.n8n-node-cli/n8n-nodes-inventory, outside the checkout:
// it links back to the checkout, and n8n-node build's copy of static files follows links, so a link
// inside the checkout would send it round in circles).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import {
	EXECUTE_STEP_WORKFLOW_ID,
	PROCUREMENT_WORKFLOW_ID,
	exampleWorkflows,
} from '../test/e2e/groups/examples.mjs';
import {
	CSV_WORKFLOW_ID,
	GOOGLE_SHEETS_WORKFLOW_ID,
	XLSX_WORKFLOW_ID,
	spreadsheetWorkflows,
} from '../test/e2e/groups/spreadsheet.mjs';
import { ensureHost } from '../test/e2e/lib/host.mjs';
import { N8nInstance, OWNER } from '../test/e2e/lib/n8n.mjs';
import {
	buildAndPackPackage,
	buildPackage,
	installIntoNodesFolder,
	linkIntoNodesFolder,
} from '../test/e2e/lib/pkg.mjs';
import { API_TOKEN, DEFAULT_ADMIN_TOKEN, startSandbox } from '../test/e2e/lib/sandbox.mjs';
import { TOKENS } from '../test/fixtures/index.js';
import {
	REPO_DIR,
	Steps,
	WORK_DIR,
	installCleanupHandlers,
	log,
	pickPort,
	sleep,
	spawnService,
	waitFor,
} from '../test/e2e/lib/util.mjs';
import * as W from '../test/e2e/lib/workflows.mjs';

installCleanupHandlers();
const steps = new Steps();
const watch = process.argv.includes('--watch');
/** Where n8n-node dev keeps its user folders by default. */
const NODE_CLI_HOME = path.join(os.homedir(), '.n8n-node-cli');

const host = await steps.run('n8n host: install or reuse', () => ensureHost());
const pack = await steps.run(watch ? 'package: build' : 'package: build and pack', () =>
	watch ? buildPackage() : buildAndPackPackage(),
);
const sandbox = await steps.run('sandbox: build and start', async () => {
	return await startSandbox({
		port: await pickPort(Number(process.env.SANDBOX_PORT ?? 8080)),
		logFile: path.join(WORK_DIR, 'dev-sandbox.log'),
		// As sandbox/README.md states it: the CLI's admin token, and its log of every request.
		adminToken: DEFAULT_ADMIN_TOKEN,
		requestLog: true,
	});
});

const n8n = new N8nInstance({
	name: 'dev',
	userFolder:
		process.env.E2E_DEV_FOLDER ??
		(watch ? path.join(NODE_CLI_HOME, 'n8n-nodes-inventory') : path.join(WORK_DIR, 'dev')),
});
n8n.port = await pickPort(Number(process.env.N8N_PORT ?? 5678));

if (watch) {
	await steps.run(
		'n8n-node dev --external-n8n (tsc --watch); the checkout linked into .n8n/nodes',
		async () => {
			// n8n-node dev links the checkout into <its folder>/.n8n/custom, where n8n 2.40 globs every
			// *.node.js below it (node_modules included) and names the node CUSTOM.inventory: its link goes
			// to a folder n8n does not read, and n8n gets the checkout as the community package it is
			// (.n8n/nodes/node_modules/n8n-nodes-inventory), so the node keeps its real type.
			const cliFolder = path.join(NODE_CLI_HOME, 'n8n-nodes-inventory-link');
			const logFile = path.join(n8n.logDir, 'n8n-node-dev.log');
			const earlierRuns = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
			const cli = spawnService(
				'n8n-node dev',
				path.join(REPO_DIR, 'node_modules', '.bin', 'n8n-node'),
				['dev', '--external-n8n', '--custom-user-folder', cliFolder],
				{
					env: process.env,
					cwd: REPO_DIR,
					logFile,
				},
			);
			await waitFor(
				'n8n-node dev: tsc --watch running',
				async () => {
					if (cli.exited)
						throw new Error(`n8n-node dev exited (${cli.exitCode}); see ${cli.logFile}`);
					return fs
						.readFileSync(logFile, 'utf8')
						.slice(earlierRuns)
						.includes('Watching for file changes');
				},
				{ timeoutMs: 120_000, intervalMs: 500 },
			);
			linkIntoNodesFolder(n8n.nodesDir);
		},
	);
}

await steps.run(
	watch
		? 'n8n: import credential and example workflow'
		: 'n8n: install the package, import credential and example workflow',
	async () => {
		if (!watch) await installIntoNodesFolder(pack.tgz, n8n.nodesDir);
		await n8n.importCredentials(
			W.credentialJson({ baseUrl: sandbox.baseUrl, apiToken: API_TOKEN }),
		);
		await n8n.importWorkflows([
			W.editorWorkflow(),
			// The e2e's second copy of the example (for its Execute step check) would only puzzle a user.
			...exampleWorkflows().filter(({ id }) => id !== EXECUTE_STEP_WORKFLOW_ID),
			...spreadsheetWorkflows(n8n),
		]);
	},
);
await steps.run('n8n: start, owner set up', async () => {
	await n8n.start({ env: watch ? { N8N_DEV_RELOAD: 'true' } : {} });
	await n8n.api().setupOwnerAndLogin(OWNER);
});
console.log(steps.summary());

console.log(`
  n8n ${host.version} with ${watch ? `this checkout linked (n8n-node dev: edits recompile, n8n reloads the node)` : path.basename(pack.tgz)} is running.

  Editor:      ${n8n.baseUrl}/workflow/${W.editorWorkflow().id}  ("${W.editorWorkflow().name}")
  Example:     ${n8n.baseUrl}/workflow/${PROCUREMENT_WORKFLOW_ID}  (examples/procurement-intake.workflow.json)
  Sheets:      ${n8n.baseUrl}/workflow/${GOOGLE_SHEETS_WORKFLOW_ID}  (examples/google-sheets-intake.workflow.json, pinned rows)
               ${n8n.baseUrl}/workflow/${CSV_WORKFLOW_ID}, ${n8n.baseUrl}/workflow/${XLSX_WORKFLOW_ID}  (files in ${n8n.filesDir})
  Login:       ${OWNER.email} / ${OWNER.password}
  Credential:  "${W.CREDENTIAL.name}" (Inventory API, ${sandbox.baseUrl}, token ${API_TOKEN})
  Sandbox:     ${sandbox.baseUrl}  (a simulator of the Inventory API, in memory)
               admin token ${DEFAULT_ADMIN_TOKEN}: curl -H 'Authorization: Bearer ${DEFAULT_ADMIN_TOKEN}' ${sandbox.baseUrl}/_sandbox/state
               demo tokens: ${TOKENS.fullAccess} (every permission, the credential's), ${TOKENS.todosOnly},
               ${TOKENS.billingOnly}, ${TOKENS.lifecycleOnly} (one permission each); all listed at the top of the log
  Request log: tail -f ${sandbox.logFile}
               one JSON line per request the node sends: time, method, path, status, Idempotency-Key (key),
               replayed (true: the API answered a key it had seen, nothing booked again), fault
  User folder: ${n8n.userFolder}  (logs in ${n8n.logDir})

  Ctrl+C stops n8n${watch ? ', n8n-node dev' : ''} and the sandbox.
`);

for (;;) {
	if (n8n.server?.exited) {
		log(`n8n exited (${n8n.server.exitCode}); see ${n8n.logDir}`);
		await sandbox.stop();
		process.exit(1);
	}
	await sleep(1000);
}
