// A worker SIGKILLed mid-node: what n8n does (measured and printed), then the user's recovery,
// re-sending the input with the Idempotency Key option set from the business id: 0 duplicates,
// 0 lost.
import { listExecutions } from '../lib/queue.mjs';
import {
	crashMidNode,
	describeStored,
	errorOf,
	measureRetry,
	resendAndProve,
	statusTimeline,
} from '../lib/recovery.mjs';
import { assert, assertEqual, fmtMs } from '../lib/util.mjs';

export async function workerCrash(
	{ sandbox, api, mainN8n, workers, bizWf, webhookPathOf, note },
	check,
) {
	await check(
		'queue mode: a worker SIGKILLed mid-node; recovery by re-sending with the business key: 0 duplicates, 0 lost',
		async () => {
			const before = new Set((await listExecutions(api, bizWf.id)).map((e) => String(e.id)));
			let victim;
			let executionId;
			const { items, names, ...crash } = await crashMidNode({
				sandbox,
				baseUrl: mainN8n.baseUrl,
				webhookPath: webhookPathOf(bizWf),
				batch: 'K',
				kill: async () => {
					[{ id: executionId }] = (await listExecutions(api, bizWf.id)).filter(
						(e) => !before.has(String(e.id)),
					);
					[victim] = workers.filter((w) =>
						w.executionsInLog().started.includes(String(executionId)),
					);
					assert(victim, `a worker that started execution ${executionId}`);
					victim.killHard();
				},
			});
			note(
				`execution ${executionId} on ${victim.name}: SIGKILL after ${crash.createdBeforeKill} of 200 to-dos were created`,
			);
			const timeline = await statusTimeline(api, executionId, { timeoutMs: 90_000 });
			note(
				`status of ${executionId} after the kill${await errorOf(timeline.at(-1).execution)}: ${timeline.map((s) => `${s.status} (+${fmtMs(s.atMs)})`).join(' -> ')}`,
			);
			const answer = await crash.pending;
			note(
				`the webhook call of the killed execution: ${answer.error ? `error ${answer.error}` : `HTTP ${answer.status} after ${fmtMs(answer.ms)} ${answer.body.slice(0, 200)}`}`,
			);
			const last = timeline.at(-1).execution;
			assert(
				last.status !== 'success',
				`the killed execution ${executionId} must not be reported as successful`,
			);
			note(`stored data of ${executionId}: ${await describeStored(last)}`);
			const retry = await measureRetry({ sandbox, api, executionId, names, workers });
			note(
				`Retry of ${executionId} (business keys): ${retry.what}; then ${retry.existing} of 200 exist, ${retry.duplicated} duplicated`,
			);
			// n8n keeps the stall error in the retried data (no node had finished, so nothing is popped):
			// the Retry ends at once and runs no node. The README's table says so.
			assertEqual(
				retry.sent,
				0,
				`requests sent by the Retry of the killed execution ${executionId}`,
			);
			note(
				await resendAndProve({
					sandbox,
					baseUrl: mainN8n.baseUrl,
					webhookPath: webhookPathOf(bizWf),
					items,
					existing: retry.existing,
				}),
			);
			await victim.stop(); // its process group's leftovers
		},
	);
}
