// Production executions in queue mode: 4 webhook calls of 250 items sent at once, run by two workers
// (`--concurrency=1`, so both take some): one record per item, every key the one derived from
// (instance, workflow, execution, node, run, item), distinct.
import { createRequire } from 'node:module';
import path from 'node:path';

import { applied, assertDistinct, requestsSince } from '../lib/checks.mjs';
import { unflatten } from '../lib/n8n.mjs';
import { WEBHOOK_NODE_ID, batchItems, listExecutions, postWebhook } from '../lib/queue.mjs';
import { lostAndDuplicated, workerThatStarted } from '../lib/recovery.mjs';
import { REPO_DIR, assertEqual, fmtMs } from '../lib/util.mjs';

/** The node's own key derivation, from the built package (what both workers run). */
function derivedKey(identity) {
	const require = createRequire(import.meta.url);
	return require(
		path.join(REPO_DIR, 'dist', 'nodes', 'Inventory', 'idempotency', 'keys.js'),
	).deriveIdempotencyKey(identity);
}

/** The batch a webhook execution received (its Webhook node's output). */
async function batchOf(api, executionId) {
	const e = await api.execution(executionId);
	const data = await unflatten(e.data);
	return data.resultData.runData.Webhook[0].data.main[0][0].json.body.batch;
}

export async function productionExecutions(
	{ sandbox, api, mainN8n, workers, derivedWf, webhookPathOf, instanceId, note },
	check,
) {
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
}
