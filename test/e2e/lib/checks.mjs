// Assertions shared by the e2e groups: what the sandbox received, and what `n8n execute` returned.
import { assert, assertEqual, log } from './util.mjs';

/** The API requests the sandbox received since `fromSeq` (exclusive). */
export async function requestsSince(sandbox, fromSeq) {
	return (await sandbox.requests()).filter((r) => r.seq > fromSeq && r.operation);
}

export async function lastSeq(sandbox) {
	const reqs = await sandbox.requests();
	return reqs.length ? reqs[reqs.length - 1].seq : 0;
}

/** Applied (fresh, 2xx, not replayed) requests. */
export const applied = (reqs) =>
	reqs.filter((r) => r.status >= 200 && r.status < 300 && !r.replayed);

export function assertDistinct(list, what) {
	assertEqual(new Set(list).size, list.length, `${what} must be distinct (${list.join(', ')})`);
}

export function runOf(result, nodeName) {
	const runs = result.json?.data?.resultData?.runData?.[nodeName];
	assert(
		Array.isArray(runs) && runs.length > 0,
		`no run data for node "${nodeName}" in the execute output`,
	);
	return runs;
}

export function outputItems(run, output = 0) {
	return (run.data?.main?.[output] ?? []).map((i) => i.json);
}

export async function executeOk(n8n, workflowId) {
	const r = await n8n.execute(workflowId);
	// Seen once in CI: n8n 2.40's CLI printed its complete, successful result and then died by a signal
	// on its way out. The result is what is checked (with the sandbox's records); the signal is reported.
	const finishedThenSignalled =
		r.code === null && r.json?.finished === true && r.json?.status === 'success';
	if (finishedThenSignalled)
		log(`n8n execute --id=${workflowId}: complete result, then the CLI ended by ${r.signal}`);
	else
		assert(
			r.code === 0,
			`n8n execute --id=${workflowId} exited ${r.code ?? r.signal}\n${r.stdout.slice(-4000)}\n${r.stderr.slice(-2000)}`,
		);
	assert(
		r.json?.data?.resultData,
		`n8n execute --id=${workflowId}: no JSON result\n${r.stdout.slice(-2000)}`,
	);
	assert(
		!r.json.data.resultData.error,
		`workflow ${workflowId} failed: ${String(JSON.stringify(r.json.data.resultData.error)).slice(0, 1500)}`,
	);
	return r;
}
