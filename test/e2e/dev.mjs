#!/usr/bin/env node
// `npm run n8n`: a local real n8n 2.x with this package installed (built, packed and installed the
// way n8n installs community packages), the Inventory API sandbox running, an "Inventory sandbox"
// credential and an example workflow imported, and the owner account set up. Prints the editor URL
// and the login; runs until Ctrl+C.
//
// Options (environment): N8N_PORT (default 5678, or a free port when taken), SANDBOX_PORT (default
// 8080, or a free port when taken), E2E_DEV_FOLDER (default test/e2e/.work/dev: the n8n user
// folder, kept between runs).
import path from 'node:path';

import { ensureHost } from './lib/host.mjs';
import { N8nInstance, OWNER } from './lib/n8n.mjs';
import { buildPackage, installIntoNodesFolder, packPackage } from './lib/pkg.mjs';
import { API_TOKEN, ADMIN_TOKEN, Sandbox, buildSandbox } from './lib/sandbox.mjs';
import { Steps, WORK_DIR, installCleanupHandlers, log, pickPort, sleep } from './lib/util.mjs';
import * as W from './lib/workflows.mjs';

installCleanupHandlers();
const steps = new Steps();

const host = await steps.run('n8n host: install or reuse', () => ensureHost());
const pack = await steps.run('package: build and pack', async () => {
	await buildPackage();
	return await packPackage();
});
const sandbox = await steps.run('sandbox: build and start', async () => {
	await buildSandbox();
	return await new Sandbox().start({
		port: await pickPort(Number(process.env.SANDBOX_PORT ?? 8080)),
		logFile: path.join(WORK_DIR, 'dev-sandbox.log'),
	});
});

const n8n = new N8nInstance({ name: 'dev', userFolder: process.env.E2E_DEV_FOLDER ?? path.join(WORK_DIR, 'dev') });
n8n.port = await pickPort(Number(process.env.N8N_PORT ?? 5678));

await steps.run('n8n: install the package, import credential and example workflow', async () => {
	await installIntoNodesFolder(pack.tgz, n8n.nodesDir);
	await n8n.importCredentials(W.credentialJson({ baseUrl: sandbox.baseUrl, apiToken: API_TOKEN }));
	await n8n.importWorkflow(W.editorWorkflow());
});
await steps.run('n8n: start, owner set up', async () => {
	await n8n.start();
	await n8n.api().setupOwnerAndLogin(OWNER);
});
console.log(steps.summary());

console.log(`
  n8n ${host.version} with ${path.basename(pack.tgz)} is running.

  Editor:      ${n8n.baseUrl}/workflow/${W.editorWorkflow().id}
  Login:       ${OWNER.email} / ${OWNER.password}
  Credential:  "${W.CREDENTIAL.name}" (Inventory API, ${sandbox.baseUrl}, token ${API_TOKEN})
  Sandbox:     ${sandbox.baseUrl}  (inspect: curl -H 'Authorization: Bearer ${ADMIN_TOKEN}' ${sandbox.baseUrl}/_sandbox/state)
  User folder: ${n8n.userFolder}  (logs in ${n8n.logDir})

  Ctrl+C stops n8n and the sandbox.
`);

for (;;) {
	if (n8n.server?.exited) {
		log(`n8n exited (${n8n.server.exitCode}); see ${n8n.logDir}`);
		await sandbox.stop();
		process.exit(1);
	}
	await sleep(1000);
}
