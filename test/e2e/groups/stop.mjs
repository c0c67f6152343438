// Stop group: the editor's Stop (POST /rest/executions/:id/stop) during a bulk import whose items
// wait out a ten-minute back-off; the next execution on the same assets must not wait for it.
import { applied, lastSeq, requestsSince } from '../lib/checks.mjs';
import { assert, assertEqual, log } from '../lib/util.mjs';
import * as W from '../lib/workflows.mjs';

const ASSETS = new Set(W.STOP_IMPORT_ITEMS.map((item) => item.assetId)).size;

export async function stopExecution({ sandbox, api }, check) {
	await check(
		'stop: a bulk import stopped during its back-offs ends at once, sends nothing more, and the next execution on its assets runs at once',
		async () => {
			await sandbox.reset();
			const wf = W.stopImportWorkflow();
			// Every first attempt answered 503: each asset's first item waits out its ten-minute back-off,
			// the other items wait for their asset.
			await sandbox.setFaults({ operations: ['createTodo'], serverErrorRate: 1 });
			const execId = await api.runManually(wf.id, W.TRIGGER);
			const deadline = Date.now() + 60_000;
			while ((await requestsSince(sandbox, 0)).length < ASSETS) {
				assert(Date.now() < deadline, 'the import did not send its first requests within 60 s');
				await new Promise((resolve) => setTimeout(resolve, 200));
			}

			const stopAt = Date.now();
			await api.post(`/executions/${execId}/stop`, {});
			const stopped = await api.waitForExecution(execId, { timeoutMs: 30_000 });
			assertEqual(stopped.status, 'canceled', `status of the stopped execution ${execId}`);
			const seqAtStop = await lastSeq(sandbox);
			const sentBeforeStop = await requestsSince(sandbox, 0);
			// Each back-off is a random wait up to ten minutes: now and then one is short enough for a
			// retry (answered 503 again) before the stop.
			assertEqual(
				sentBeforeStop.filter((r) => r.status !== 503).length,
				0,
				'before the stop: requests not answered 503',
			);
			assertEqual(
				new Set(sentBeforeStop.map((r) => r.key)).size,
				ASSETS,
				'before the stop: the first item of each asset, and no other item',
			);

			await sandbox.setFaults(null);
			const nextId = await api.runManually(wf.id, W.TRIGGER);
			// Had the stopped execution kept its assets, this one would wait ten minutes for them.
			const next = await api.waitForExecution(nextId, { timeoutMs: 60_000 });
			assertEqual(next.status, 'success', `status of the next execution ${nextId}`);
			const sentAfter = await requestsSince(sandbox, seqAtStop);
			const keysBefore = new Set(sentBeforeStop.map((r) => r.key));
			assertEqual(
				sentAfter.filter((r) => keysBefore.has(r.key)).length,
				0,
				'requests of the stopped execution after the stop',
			);
			assertEqual(
				applied(sentAfter).length,
				W.STOP_IMPORT_ITEMS.length,
				'to-dos created by the next execution',
			);
			assertEqual(
				(await sandbox.state()).todos.length,
				W.STOP_IMPORT_ITEMS.length,
				'to-dos in the sandbox: each item of the next execution once, none of the stopped one',
			);
			log(
				`stopped after ${ASSETS} requests; canceled ${Date.now() - stopAt} ms after the stop request at the latest; the next execution took ${next.waitedMs} ms (polled)`,
			);
		},
	);
}
