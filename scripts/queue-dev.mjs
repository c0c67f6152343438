#!/usr/bin/env node
// `npm run n8n:queue`: n8n 2.40.7 in queue mode on this machine, the way it runs at scale: Redis,
// PostgreSQL, one main (`n8n start`: editor, REST API, webhooks; it enqueues executions) and two
// workers (`n8n worker`: they run them), each n8n process with this package (built, packed and
// installed the way n8n installs community packages) in its own user folder, all sharing the
// encryption key and the database. Also the Inventory API sandbox, an "Inventory sandbox"
// credential, the example workflow and an activated webhook workflow (business keys). Prints the
// editor URL and the login; Ctrl+C stops everything.
//
// Options (environment): N8N_PORT (main, default 5678, or a free port when taken), SANDBOX_PORT
// (default 8080, or a free port when taken), E2E_QUEUE_DEV_FOLDER (default
// $TMPDIR/n8n-nodes-inventory-e2e/queue-dev: the user folders and the database, kept between runs).
import path from 'node:path';

import { ensureHost } from '../test/e2e/lib/host.mjs';
import { ENCRYPTION_KEY, OWNER } from '../test/e2e/lib/n8n.mjs';
import { buildAndPackPackage } from '../test/e2e/lib/pkg.mjs';
import {
	activateWorkflow,
	businessKeyWebhookWorkflow,
	startQueueStack,
	waitForWebhook,
} from '../test/e2e/lib/queue.mjs';
import { ADMIN_TOKEN, API_TOKEN, startSandbox } from '../test/e2e/lib/sandbox.mjs';
import {
	Steps,
	WORK_DIR,
	installCleanupHandlers,
	log,
	pickPort,
	sleep,
} from '../test/e2e/lib/util.mjs';
import * as W from '../test/e2e/lib/workflows.mjs';

installCleanupHandlers();
const steps = new Steps();
const dir = process.env.E2E_QUEUE_DEV_FOLDER ?? path.join(WORK_DIR, 'queue-dev');

const host = await steps.run('n8n host: install or reuse', () => ensureHost());
const pack = await steps.run('package: build and pack', buildAndPackPackage);
const sandbox = await steps.run('sandbox: build and start', async () => {
	return await startSandbox({
		port: await pickPort(Number(process.env.SANDBOX_PORT ?? 8080)),
		logFile: path.join(dir, 'sandbox.log'),
	});
});
const webhookWf = businessKeyWebhookWorkflow();
const stack = await startQueueStack({
	tgz: pack.tgz,
	dir,
	mainPort: await pickPort(Number(process.env.N8N_PORT ?? 5678)),
	steps,
	beforeStart: async (main) => {
		await main.importCredentials(
			W.credentialJson({ baseUrl: sandbox.baseUrl, apiToken: API_TOKEN }),
		);
		await main.importWorkflows([W.editorWorkflow(), webhookWf]);
	},
});
const webhookPath = webhookWf.nodes.find((n) => n.name === 'Webhook').parameters.path;
await steps.run('activate the webhook workflow', async () => {
	await activateWorkflow(stack.api, webhookWf.id);
	await waitForWebhook(stack.main.baseUrl, webhookPath);
});
console.log(steps.summary());

const { main, workers, redis, postgres } = stack;
console.log(`
  n8n ${host.version} in queue mode with ${path.basename(pack.tgz)} is running.

  Editor:      ${main.baseUrl}/workflow/${W.editorWorkflow().id}
  Login:       ${OWNER.email} / ${OWNER.password}
  Webhook:     curl -X POST ${main.baseUrl}/webhook/${webhookPath} -H 'Content-Type: application/json' \\
                 -d '{"items":[{"orderId":"order-1","assetId":1001,"name":"order-1"}]}'
               ("${webhookWf.name}": Create Todo keyed by orderId; a worker runs it)
  Credential:  "${W.CREDENTIAL.name}" (Inventory API, ${sandbox.baseUrl}, token ${API_TOKEN})
  Sandbox:     ${sandbox.baseUrl}  (inspect: curl -H 'Authorization: Bearer ${ADMIN_TOKEN}' ${sandbox.baseUrl}/_sandbox/state)
  Main:        ${main.userFolder}  (log: ${main.logDir}/n8n-start.log)
${workers.map((w) => `  ${w.name}:     ${w.userFolder}  (log: ${w.workerLog})`).join('\n')}
  Redis:       127.0.0.1:${redis.port}    PostgreSQL: 127.0.0.1:${postgres.port} (user postgres, database postgres)
  Every n8n process: EXECUTIONS_MODE=queue, N8N_ENCRYPTION_KEY=${ENCRYPTION_KEY}

  Ctrl+C stops n8n, the workers, Redis, PostgreSQL and the sandbox.
`);

for (;;) {
	const down = [main, ...workers].find((n) => n.server?.exited);
	if (down) {
		log(`${down.name} exited (${down.server.exitCode}); see ${down.logDir}`);
		await stack.stop();
		await sandbox.stop();
		process.exit(1);
	}
	await sleep(1000);
}
