// Many executions at once over two queue-mode workers: the workers restarted at n8n's default
// concurrency (10 executions each at once), a burst of production webhook calls sent to main against
// the sandbox's token bucket (lib/burst.mjs): nothing failed, every to-do once, the 429 share
// printed. Each worker is a process of its own, so each learns the server's limit on its own.
// The workers go back to concurrency 1 afterwards, as the later groups expect.
import { webhookBurst } from '../lib/burst.mjs';
import { activateWorkflow, waitForWebhook } from '../lib/queue.mjs';
import { WEBHOOK_BURST_PATH, webhookBurstWorkflow } from '../lib/workflows.mjs';

const CALLS = 200;
// Below what n8n itself runs on this machine (about 8 executions/s in regular mode, 12 over two
// workers), so that the limit binds.
const RATE = 5;
/** n8n's default `n8n worker --concurrency`. */
const DEFAULT_WORKER_CONCURRENCY = 10;

async function restartWorkers(workers, concurrency) {
	await Promise.all(
		workers.map(async (worker) => {
			await worker.stop();
			await worker.startWorker({ concurrency });
		}),
	);
}

export async function webhookBurstQueue({ sandbox, api, mainN8n, workers, note }, check) {
	await check(
		`queue mode: webhook burst, ${CALLS} production calls at once over two workers (concurrency ${DEFAULT_WORKER_CONCURRENCY}) against a ${RATE}/s token bucket: nothing failed, every to-do once`,
		async () => {
			await activateWorkflow(api, webhookBurstWorkflow().id);
			await waitForWebhook(mainN8n.baseUrl, WEBHOOK_BURST_PATH);
			await restartWorkers(workers, DEFAULT_WORKER_CONCURRENCY);
			try {
				await webhookBurst({
					sandbox,
					baseUrl: mainN8n.baseUrl,
					calls: CALLS,
					rate: RATE,
					label: 'queue',
					note,
				});
			} finally {
				await restartWorkers(workers, 1);
			}
		},
	);
}
