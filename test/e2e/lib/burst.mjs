// A burst of production webhook calls sent at once, each one execution of W.webhookBurstWorkflow
// (one to-do), against the sandbox's token bucket at a 20 ms server: every call answered with its
// own to-do, every to-do recorded once. The share of requests the sandbox answered 429 and the time
// against N/R are measured and printed (figures, not asserted: timings belong in the bench).
import { requestsSince } from './checks.mjs';
import { lostAndDuplicated } from './recovery.mjs';
import { postWebhook } from './queue.mjs';
import { assertEqual, fmtMs } from './util.mjs';
import { WEBHOOK_BURST_PATH } from './workflows.mjs';

/** "created/429" for each second from `startedMs` on, from the sandbox's request log. */
function perSecond(requests, startedMs) {
	const bins = [];
	for (const request of requests) {
		const second = Math.max(0, Math.floor((request.startedAtMs - startedMs) / 1000));
		while (bins.length <= second) bins.push({ created: 0, rateLimited: 0 });
		if (request.status === 429) bins[second].rateLimited++;
		else if (request.status === 201) bins[second].created++;
	}
	return bins.map((bin) => `${bin.created}/${bin.rateLimited}`).join(' ');
}

/** The seed's assets of the API token's organization (1001-1020). */
const ASSETS = 20;

/**
 * Sends `calls` webhook calls at once to `baseUrl` (main); the sandbox's limit is `rate`/s (burst
 * `rate`) while they run. Returns the figures; `note` gets a line of them.
 */
export async function webhookBurst({ sandbox, baseUrl, calls, rate, label, note }) {
	await sandbox.reset();
	await sandbox.setRateLimit({ ratePerSecond: rate, burst: rate });
	await sandbox.setFaults({ operations: ['createTodo'], latencyMs: 20 });
	const sent = Array.from({ length: calls }, (_, i) => ({
		assetId: 1001 + (i % ASSETS),
		name: `${label}-${i + 1}`,
	}));
	const started = Date.now();
	let answers;
	try {
		answers = await Promise.all(
			sent.map((body) => postWebhook(baseUrl, WEBHOOK_BURST_PATH, body, { timeoutMs: 600_000 })),
		);
	} finally {
		await sandbox.setRateLimit(null);
		await sandbox.setFaults(null);
	}
	const wallMs = Date.now() - started;
	const { todos, counters } = await sandbox.state();
	const requests = await requestsSince(sandbox, 0);
	const figures = {
		calls,
		rate,
		wallMs,
		idealMs: (calls / rate) * 1000,
		requests: counters.requestsTotal,
		rateLimited: counters.rateLimited,
		slowestAnswerMs: Math.max(...answers.map((a) => a.ms)),
		perSecond: perSecond(requests, started),
	};
	const share = figures.rateLimited / Math.max(1, figures.requests);
	note(
		`${label}: ${calls} webhook calls at once, R = ${rate}/s: ${figures.requests} requests, ${figures.rateLimited} answered 429 (${(share * 100).toFixed(1)} %), ${fmtMs(wallMs)} wall vs N/R ${fmtMs(figures.idealMs)} (${(wallMs / figures.idealMs).toFixed(2)}x), slowest answer ${fmtMs(figures.slowestAnswerMs)}; created/429 per second: ${figures.perSecond}`,
	);

	const wrongAnswers = answers
		.map((answer, i) => {
			let todoName;
			try {
				todoName = JSON.parse(answer.body).todo?.name;
			} catch {
				todoName = undefined;
			}
			return answer.status === 200 && todoName === sent[i].name
				? null
				: `${sent[i].name}: ${answer.status} ${answer.body.slice(0, 200)}`;
		})
		.filter((wrong) => wrong !== null);
	assertEqual(
		wrongAnswers.slice(0, 5),
		[],
		`calls not answered 200 with their own to-do (${wrongAnswers.length} of ${calls})`,
	);
	const { lost, duplicated } = lostAndDuplicated(
		todos,
		sent.map((body) => body.name),
	);
	assertEqual(
		{ todos: todos.length, lost: lost.slice(0, 5), duplicated: duplicated.slice(0, 5) },
		{ todos: calls, lost: [], duplicated: [] },
		'to-dos at the sandbox: each call once',
	);
	return figures;
}
