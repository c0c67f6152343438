// The same crash in regular mode (one `n8n start`, SQLite): n8n SIGKILLed mid-node, restarted, what
// n8n and its Retry then do, and the same recovery. The queue-mode stack is stopped first, so that it
// does not share the CPUs with this instance.
import path from 'node:path';

import { N8nInstance, OWNER } from '../lib/n8n.mjs';
import { installIntoNodesFolder } from '../lib/pkg.mjs';
import { activateWorkflow, listExecutions, waitForWebhook } from '../lib/queue.mjs';
import {
	crashMidNode,
	describeStored,
	errorOf,
	measureRetry,
	resendAndProve,
	statusTimeline,
} from '../lib/recovery.mjs';
import { assert, assertEqual, fmtMs, waitFor } from '../lib/util.mjs';

/** Owner set-up and login, retried while n8n is still mounting its REST routes (404). */
async function ownerLogin(n8n) {
	const api = n8n.api();
	await waitFor(
		`owner set-up and login on ${n8n.baseUrl}`,
		async () => {
			await api.setupOwnerAndLogin(OWNER);
			return true;
		},
		{ timeoutMs: 120_000, intervalMs: 1000 },
	);
	return api;
}

export async function regularModeCrashes(
	{ sandbox, stack, pack, runDir, importInto, derivedWf, bizWf, webhookPathOf, note },
	check,
) {
	let regular;
	let regularApi;
	const regularSetUp = async () => {
		if (regular) return;
		await stack.stop();
		regular = new N8nInstance({ name: 'regular', userFolder: path.join(runDir, 'regular') });
		await installIntoNodesFolder(pack.tgz, regular.nodesDir);
		await importInto(regular);
		await regular.start();
		regularApi = await ownerLogin(regular);
		for (const wf of [derivedWf, bizWf]) {
			await activateWorkflow(regularApi, wf.id);
			await waitForWebhook(regular.baseUrl, webhookPathOf(wf));
		}
	};
	/** Sends 200 items, SIGKILLs n8n (and its task runner) mid-node, restarts it; returns what it then reports. */
	const crashRegular = async (wf, batch) => {
		await regularSetUp();
		let executionId;
		const { items, names, ...crash } = await crashMidNode({
			sandbox,
			baseUrl: regular.baseUrl,
			webhookPath: webhookPathOf(wf),
			batch,
			kill: async () => {
				[{ id: executionId }] = await listExecutions(regularApi, wf.id);
				process.kill(-regular.server.child.pid, 'SIGKILL');
			},
		});
		const answer = await crash.pending;
		note(
			`regular mode, ${wf.name}: execution ${executionId} SIGKILLed after ${crash.createdBeforeKill} of 200 to-dos; its webhook call: ${answer.error ?? `HTTP ${answer.status}`}`,
		);
		await regular.stop();
		await regular.start();
		regularApi = await ownerLogin(regular);
		const timeline = await statusTimeline(regularApi, executionId, { timeoutMs: 60_000 });
		const last = timeline.at(-1).execution;
		note(
			`regular mode: status of ${executionId} after the restart${await errorOf(last)}: ${timeline.map((t) => `${t.status} (+${fmtMs(t.atMs)})`).join(' -> ')}`,
		);
		note(`regular mode: stored data of ${executionId}: ${await describeStored(last)}`);
		assert(
			last.status !== 'success',
			`the killed execution ${executionId} must not be reported as successful`,
		);
		return { executionId, items, names };
	};

	// This group's own instance: stopped here, whatever the checks did.
	try {
		await check(
			'regular mode: n8n SIGKILLed mid-node and restarted; recovery by re-sending with the business key: 0 duplicates, 0 lost',
			async () => {
				const { executionId, items, names } = await crashRegular(bizWf, 'S');
				const retry = await measureRetry({ sandbox, api: regularApi, executionId, names });
				note(
					`regular mode: Retry of ${executionId} (business keys): ${retry.what}; then ${retry.existing} of 200 exist, ${retry.duplicated} duplicated`,
				);
				assertEqual(
					{ existing: retry.existing, duplicated: retry.duplicated },
					{ existing: 200, duplicated: 0 },
					`items after the Retry of the crashed execution ${executionId} (business keys)`,
				);
				note(
					`regular mode: ${await resendAndProve({ sandbox, baseUrl: regular.baseUrl, webhookPath: webhookPathOf(bizWf), items, existing: retry.existing })}`,
				);
			},
		);

		await check(
			'regular mode: n8n SIGKILLed mid-node with derived keys, restarted; its Retry derives the killed execution keys: 0 duplicates, 0 lost',
			async () => {
				const { executionId, names } = await crashRegular(derivedWf, 'T');
				const retry = await measureRetry({ sandbox, api: regularApi, executionId, names });
				note(
					`regular mode: Retry of ${executionId} (derived keys): ${retry.what}; then ${retry.existing} of 200 exist, ${retry.duplicated} duplicated`,
				);
				// The crash came before n8n saved the execution's custom data, so the Retry finds no root
				// execution there and takes the execution it retries (n8n 2.x's lifecycle hooks, `retryOf`):
				// what the killed run created is replayed. If a future n8n moves `retryOf`, the node falls
				// back to the retry's own id and this check sees the duplicates.
				assertEqual(retry.execution?.status, 'success', `status of the Retry of ${executionId}`);
				assertEqual(
					retry.execution?.customData?.inventoryRootExecutionId,
					executionId,
					`root execution recorded by the Retry of the killed execution ${executionId} (n8n's retryOf)`,
				);
				assertEqual(
					{ existing: retry.existing, duplicated: retry.duplicated },
					{ existing: 200, duplicated: 0 },
					`items after the Retry of the crashed execution ${executionId} (derived keys)`,
				);
				assert(
					retry.existingBefore > 0 && retry.existingBefore < 200,
					`the kill came mid-node (${retry.existingBefore} of 200 existed before the Retry)`,
				);
			},
		);
	} finally {
		await regular?.stop().catch(() => {});
	}
}
