// Many executions at once in one n8n process (regular mode): an active workflow with a production
// webhook, 300 calls sent at once against the sandbox's token bucket (lib/burst.mjs). Every call is
// answered with its own to-do and every to-do is recorded once; the 429 share is printed.
import { activateWorkflow, waitForWebhook } from '../lib/queue.mjs';
import { webhookBurst } from '../lib/burst.mjs';
import { log } from '../lib/util.mjs';
import { WEBHOOK_BURST_PATH, webhookBurstWorkflow } from '../lib/workflows.mjs';

const CALLS = 300;
// Below what n8n itself runs on this machine (about 8 executions/s in regular mode, 12 over two
// workers), so that the limit binds.
const RATE = 5;

export async function webhookBurstRegular({ n8n, sandbox, api }, check) {
	await check(
		`webhook burst: ${CALLS} production webhook calls at once against a ${RATE}/s token bucket, every call answered, every to-do once`,
		async () => {
			await activateWorkflow(api, webhookBurstWorkflow().id);
			await waitForWebhook(n8n.baseUrl, WEBHOOK_BURST_PATH);
			await webhookBurst({
				sandbox,
				baseUrl: n8n.baseUrl,
				calls: CALLS,
				rate: RATE,
				label: 'regular',
				note: (line) => log(`measured: ${line}`),
			});
		},
	);
}
