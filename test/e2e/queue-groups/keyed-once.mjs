// "Each Row Once, Keyed by Columns" in queue mode: the rows a worker recorded are
// known as replayed on the other worker (n8n's deduplication store is the shared database). Round 1
// sends two sheets at once (one execution per worker, `--concurrency=1`); round 2 sends both sheets
// as one, so one worker meets the rows the other recorded.
import { requestsSince } from '../lib/checks.mjs';
import { unflatten } from '../lib/n8n.mjs';
import { batchItems, listExecutions, postWebhook } from '../lib/queue.mjs';
import { lostAndDuplicated, workerThatStarted } from '../lib/recovery.mjs';
import { assertEqual } from '../lib/util.mjs';

async function executionData(api, executionId) {
	return await unflatten((await api.execution(executionId)).data);
}

export async function keyedOnceOverWorkers(
	{ sandbox, api, mainN8n, workers, keyedOnceWf, webhookPathOf },
	check,
) {
	await check(
		'queue mode: the same rows sent again over two workers are booked once and marked replayed',
		async () => {
			await sandbox.reset();
			// A little latency so that round 1's two executions overlap, one on each worker.
			await sandbox.setFaults({ operations: ['createTodo'], latencyMs: 20 });
			const sheetA = { batch: 'KA', items: batchItems('KA', 10) };
			const sheetB = { batch: 'KB', items: batchItems('KB', 10) };
			const both = { batch: 'KAB', items: [...sheetA.items, ...sheetB.items] };
			const known = new Set((await listExecutions(api, keyedOnceWf.id)).map((e) => String(e.id)));
			const newExecutions = async () =>
				(await listExecutions(api, keyedOnceWf.id)).filter((e) => !known.has(String(e.id)));
			const send = (body) => postWebhook(mainN8n.baseUrl, webhookPathOf(keyedOnceWf), body);

			const round1 = await Promise.all([send(sheetA), send(sheetB)]);
			const round1Executions = await newExecutions();
			round1Executions.forEach((e) => known.add(String(e.id)));
			const seq = Math.max(0, ...(await sandbox.requests()).map((r) => r.seq));
			const round2 = await send(both);
			const round2Executions = await newExecutions();
			await sandbox.setFaults(null);

			[...round1, round2].forEach((r) =>
				assertEqual(r.status, 200, `webhook answer (${r.body.slice(0, 200)})`),
			);
			assertEqual(round1Executions.length, 2, 'executions of round 1');
			assertEqual(round2Executions.length, 1, 'executions of round 2');
			const ranOn = round1Executions.map((e) => workerThatStarted(workers, e.id));
			assertEqual(
				ranOn.flat().sort(),
				['worker1', 'worker2'],
				'round 1: one execution on each worker',
			);

			const outcomes = async (execution) =>
				(await executionData(api, execution.id)).resultData.runData[
					'Create Todo'
				][0].data.main[0].map((item) => item.json.repeatCheck?.outcome);
			for (const execution of round1Executions) {
				assertEqual(execution.status, 'success', `status of execution ${execution.id}`);
				assertEqual(
					await outcomes(execution),
					Array(10).fill('recorded'),
					`round 1, execution ${execution.id}: every row recorded`,
				);
			}
			assertEqual(round2Executions[0].status, 'success', 'status of round 2');
			assertEqual(
				await outcomes(round2Executions[0]),
				Array(20).fill('replayed'),
				`round 2 on ${workerThatStarted(workers, round2Executions[0].id)}: every row replayed, those the other worker recorded too`,
			);

			const again = await requestsSince(sandbox, seq);
			assertEqual(
				again.map((request) => request.replayed),
				Array(20).fill(true),
				'the sandbox replayed all of round 2',
			);
			const { todos } = await sandbox.state();
			const { lost, duplicated } = lostAndDuplicated(
				todos,
				both.items.map((item) => item.name),
			);
			assertEqual(
				{ todos: todos.length, lost: lost.length, duplicated: duplicated.length },
				{ todos: 20, lost: 0, duplicated: 0 },
				'to-dos in the sandbox: each row once',
			);
		},
	);
}
