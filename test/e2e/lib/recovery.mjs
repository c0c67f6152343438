// What the queue-mode e2e (queue.mjs and its groups in queue-groups/) measures after a crash or a
// failure: which worker ran an execution, the statuses it went through, what n8n stored of it, what
// its Retry did, and the user's recovery by re-sending the input with business keys.
import { applied, lastSeq, requestsSince } from './checks.mjs';
import { unflatten } from './n8n.mjs';
import { batchItems, postWebhook } from './queue.mjs';
import { assertEqual, sleep, waitFor } from './util.mjs';

/** To-dos per name in the sandbox: [missing names, names created more than once]. */
export function lostAndDuplicated(todos, names) {
	const count = new Map(names.map((n) => [n, 0]));
	for (const t of todos) if (count.has(t.name)) count.set(t.name, count.get(t.name) + 1);
	return {
		lost: names.filter((n) => count.get(n) === 0),
		duplicated: names.filter((n) => count.get(n) > 1),
	};
}

/** The error message an execution ended with, if any. */
export async function errorOf(execution) {
	const data = execution.data ? await unflatten(execution.data) : null;
	const message = data?.resultData?.error?.message;
	return message ? `: "${String(message).slice(0, 300)}"` : '';
}

export function workerThatStarted(workers, executionId) {
	return workers
		.filter((w) => w.executionsInLog().started.includes(String(executionId)))
		.map((w) => w.name);
}

/** Waits until the execution leaves new/running; returns [{status, atMs}] transitions seen. */
export async function statusTimeline(api, executionId, { timeoutMs }) {
	const t0 = Date.now();
	const seen = [];
	while (Date.now() - t0 < timeoutMs) {
		const e = await api
			.execution(executionId)
			.catch((err) => ({ status: `(REST error: ${err.message.slice(0, 80)})` }));
		if (seen.at(-1)?.status !== e.status)
			seen.push({ status: e.status, atMs: Date.now() - t0, execution: e });
		if (!['new', 'running', 'waiting'].includes(e.status) && !String(e.status).startsWith('('))
			break;
		await sleep(500);
	}
	return seen;
}

/**
 * Sends 200 items to `webhookPath` in the background with the sandbox slowed down (30 ms a request),
 * calls `kill()` once 40 of them exist, lifts the latency; returns the items and what happened.
 */
export async function crashMidNode({ sandbox, baseUrl, webhookPath, batch, kill }) {
	await sandbox.reset();
	await sandbox.setFaults({ operations: ['createTodo'], latencyMs: 30 });
	const items = batchItems(batch, 200);
	const names = items.map((i) => i.name);
	const pending = postWebhook(baseUrl, webhookPath, { batch, items }, { timeoutMs: 180_000 }).catch(
		(e) => ({ error: e.message }),
	);
	await waitFor(
		'40 to-dos of the batch at the sandbox',
		async () => {
			const todos = (await sandbox.state()).todos.filter((t) => names.includes(t.name));
			return todos.length >= 40;
		},
		{ timeoutMs: 120_000, intervalMs: 100 },
	);
	await kill();
	await sleep(1000);
	await sandbox.setFaults(null);
	const createdBeforeKill = (await sandbox.state()).todos.filter((t) =>
		names.includes(t.name),
	).length;
	return { items, names, pending, createdBeforeKill };
}

/** What n8n stored of a killed execution (the data a Retry starts from). */
export async function describeStored(execution) {
	const data = execution.data ? await unflatten(execution.data) : null;
	const runData = data
		? `runData of [${Object.keys(data.resultData?.runData ?? {}).join(', ')}], executionData ${data.executionData ? 'present' : 'absent'}`
		: 'no data';
	return `${runData}; custom data ${JSON.stringify(execution.customData ?? {})}`;
}

/** "Retry" of a killed execution (REST, as the editor does it): what it sent and created, measured. */
export async function measureRetry({ sandbox, api, executionId, names, workers }) {
	const existingBefore =
		names.length - lostAndDuplicated((await sandbox.state()).todos, names).lost.length;
	const seq = await lastSeq(sandbox);
	const retry = await api.retry(executionId).then(
		(r) => ({ id: r.id }),
		(e) => ({ error: e.message }),
	);
	let what;
	let reqs = [];
	let retryExec;
	if (retry.error) what = `refused: ${retry.error.slice(0, 300)}`;
	else {
		retryExec = await api.waitForExecution(retry.id, { timeoutMs: 120_000, customData: true });
		reqs = await requestsSince(sandbox, seq);
		const where = workers ? ` on ${workerThatStarted(workers, retry.id).join(',') || '?'}` : '';
		what = `execution ${retry.id} ${retryExec.status}${await errorOf(retryExec)}${where}: ${reqs.length} requests, ${applied(reqs).length} created, ${reqs.filter((q) => q.replayed).length} replayed`;
	}
	const { lost, duplicated } = lostAndDuplicated((await sandbox.state()).todos, names);
	return {
		what,
		execution: retryExec,
		sent: reqs.length,
		existingBefore,
		existing: names.length - lost.length,
		duplicated: duplicated.length,
	};
}

/** The user's recovery: the same input sent again, keyed by its business id: 0 duplicates, 0 lost. */
export async function resendAndProve({ sandbox, baseUrl, webhookPath, items, existing }) {
	const names = items.map((i) => i.name);
	const seq = await lastSeq(sandbox);
	const resend = await postWebhook(baseUrl, webhookPath, { batch: names[0].split('-')[0], items });
	assertEqual(
		resend.status,
		200,
		`webhook answer of the re-sent batch (${resend.body.slice(0, 300)})`,
	);
	const reqs = await requestsSince(sandbox, seq);
	const { todos } = await sandbox.state();
	const { lost, duplicated } = lostAndDuplicated(todos, names);
	assertEqual(
		{ lost: lost.length, duplicated: duplicated.length, todos: todos.length },
		{ lost: 0, duplicated: 0, todos: names.length },
		'to-dos after re-sending the input',
	);
	assertEqual(
		reqs.filter((q) => q.replayed).length,
		existing,
		'the re-sent items that already existed were replayed',
	);
	assertEqual(
		applied(reqs).length,
		names.length - existing,
		'the re-sent items that did not exist were created',
	);
	return `re-sent the ${names.length} items with business keys: ${existing} replayed, ${names.length - existing} created: 0 duplicates, 0 lost`;
}
