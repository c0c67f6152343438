// Retry group: n8n's "Retry execution" through the running instance's REST API, as the editor does it.
import { applied, lastSeq, requestsSince } from '../lib/checks.mjs';
import { unflatten } from '../lib/n8n.mjs';
import { assertEqual } from '../lib/util.mjs';
import * as W from '../lib/workflows.mjs';

export async function retryExecution({ sandbox, api }, check) {
	await check(
		'retry execution: rate limit on item 3, retried with the original workflow',
		async () => {
			await sandbox.reset();
			const wf = W.retryRateLimitWorkflow();
			await sandbox.setFaults({
				operations: ['createTodo'],
				rateLimit: { requests: 2, windowMs: 600_000, retryAfterSeconds: 600 },
			});
			const execId = await api.runManually(wf.id, W.TRIGGER);
			const failedExec = await api.waitForExecution(execId, { customData: true });
			assertEqual(failedExec.status, 'error', `status of the first execution ${execId}`);
			let state = await sandbox.state();
			assertEqual(
				state.todos.map((t) => t.asset_id),
				[1010, 1011],
				'to-dos created before the failure',
			);
			const originalKeys = applied(await requestsSince(sandbox, 0)).map((r) => r.key);
			assertEqual(originalKeys.length, 2, 'applied requests of the first execution');
			assertEqual(
				failedExec.customData?.inventoryRootExecutionId,
				execId,
				'the failed execution records its id in custom data',
			);

			await sandbox.setFaults(null); // the cause is gone
			const seq = await lastSeq(sandbox);
			const retry = await api.retry(execId, { loadWorkflow: false });
			const retryExec = await api.waitForExecution(retry.id, { customData: true });
			assertEqual(retryExec.status, 'success', `status of the retry ${retry.id}`);
			assertEqual(String(retryExec.retryOf), execId, 'retryOf of the retry');
			state = await sandbox.state();
			assertEqual(
				state.todos.map((t) => t.asset_id),
				[1010, 1011, 1012],
				'to-dos after the retry: items 1 and 2 not created again',
			);
			assertEqual(
				retryExec.customData?.inventoryRootExecutionId,
				execId,
				'the retry inherited the custom data',
			);
			const reqs = await requestsSince(sandbox, seq);
			assertEqual(
				reqs.map((r) => [r.key, r.replayed]),
				[
					[originalKeys[0], true],
					[originalKeys[1], true],
					[reqs[2]?.key, false],
				],
				'the retry resent items 1 and 2 with their keys (replays)',
			);
			const data = await unflatten(retryExec.data);
			const out = data.resultData.runData['Create Todo']
				.at(-1)
				.data.main[0].map((i) => i.json.asset_id);
			assertEqual(out, [1010, 1011, 1012], 'the retry outputs all three items');
		},
	);

	await check(
		'retry execution: item 3 fails (404), workflow fixed, retried with the saved workflow',
		async () => {
			await sandbox.reset();
			const wf = W.retryFixWorkflow();
			const execId = await api.runManually(wf.id, W.TRIGGER);
			const failedExec = await api.waitForExecution(execId, { customData: true });
			assertEqual(failedExec.status, 'error', `status of the first execution ${execId}`);
			assertEqual(
				(await sandbox.state()).todos.map((t) => t.asset_id),
				[1013, 1014],
				'to-dos created before the failure',
			);
			const originalKeys = applied(await requestsSince(sandbox, 0)).map((r) => r.key);

			// Fix the node in the saved workflow, as a user does in the editor (PATCH /rest/workflows/:id).
			const saved = await api.get(`/workflows/${wf.id}`);
			const nodes = saved.nodes.map((n) =>
				n.name === 'Create Todo'
					? { ...n, parameters: { ...n.parameters, assetId: W.RETRY_FIX_FIXED_ASSET } }
					: n,
			);
			await api.patch(`/workflows/${wf.id}`, {
				versionId: saved.versionId,
				nodes,
				connections: saved.connections,
				name: saved.name,
				settings: saved.settings,
			});

			const seq = await lastSeq(sandbox);
			const retry = await api.retry(execId, { loadWorkflow: true });
			const retryExec = await api.waitForExecution(retry.id, { customData: true });
			assertEqual(retryExec.status, 'success', `status of the retry ${retry.id}`);
			const state = await sandbox.state();
			assertEqual(
				state.todos.map((t) => t.asset_id),
				[1013, 1014, 1015],
				'to-dos after the retry: items 1 and 2 not created again',
			);
			const reqs = await requestsSince(sandbox, seq);
			assertEqual(
				reqs.slice(0, 2).map((r) => [r.key, r.replayed]),
				[
					[originalKeys[0], true],
					[originalKeys[1], true],
				],
				'items 1 and 2 replayed with their original keys',
			);
		},
	);
}
