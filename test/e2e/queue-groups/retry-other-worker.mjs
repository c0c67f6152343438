// A failed execution (rate limit) retried while the worker that ran it is stopped: the retry runs on
// the other worker and replays what the first run created.
import { applied, lastSeq, requestsSince } from '../lib/checks.mjs';
import { batchItems, listExecutions, postWebhook } from '../lib/queue.mjs';
import { lostAndDuplicated, workerThatStarted } from '../lib/recovery.mjs';
import { assert, assertEqual, fmtMs } from '../lib/util.mjs';

export async function retryOnOtherWorker(
	{ sandbox, api, mainN8n, workers, derivedWf, webhookPathOf, note },
	check,
) {
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
			const failedExec = await api.waitForExecution(first.id, { customData: true });
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
			const retryExec = await api.waitForExecution(retry.id, { customData: true });
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
}
