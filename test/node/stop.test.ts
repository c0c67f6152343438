/**
 * Stop, through n8n's engine against the sandbox: n8n cancels the execution (the editor's Stop, a
 * timeout) while the node waits — a back-off, the server's pause, a record's turn, a place in its run,
 * the pacing of automatic concurrency. The node's execution ends at once, sends nothing more, and gives
 * its records back, so the next execution on them runs at once. Every wait here is minutes long: a wait
 * that went on after the stop would outlast the test's timeout, whatever the machine's speed.
 */
import type { IDataObject, INode } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { SandboxHandle } from '../../sandbox/src';
import { createTodoParameters, TOKENS } from '../fixtures';
import {
	inventoryWorkflow,
	nodeOutput,
	startWorkflow,
	type StartedExecution,
} from '../harness/engine';
import { runInventory, useSandbox } from './util';

const env = useSandbox();

/** Every execution a test started: one a failed test left waiting is stopped, so nothing outlives it. */
const started: StartedExecution[] = [];
afterEach(async () => {
	for (const execution of started.splice(0)) {
		execution.stop();
		await execution.engineDone;
	}
});

const TEN_MINUTES = 10 * 60 * 1000;

const todoParameters = (options: IDataObject = {}) => ({
	...createTodoParameters({ assetId: '={{ $json.assetId }}', name: '={{ $json.task }}' }),
	options: { retryDelay: TEN_MINUTES, maxRetryWait: 6 * TEN_MINUTES, ...options },
});

/** Starts an execution of the node; `sent()` counts the requests it sent so far. */
async function start(
	sandbox: SandboxHandle,
	items: IDataObject[],
	parameters: INode['parameters'],
) {
	let sent = 0;
	const execution = await startWorkflow(inventoryWorkflow(items, parameters), {
		credentials: { baseUrl: sandbox.baseUrl, apiToken: TOKENS.fullAccess },
		onRequest: () => sent++,
	});
	started.push(execution);
	return { ...execution, sent: () => sent };
}

/**
 * The requests for these tasks, as the sandbox answered them. A stopped execution's requests that were
 * on the wire may reach the sandbox after its test: each test looks at its own tasks only.
 */
function requestsFor(sandbox: SandboxHandle, tasks: Array<{ task: string }>) {
	const names = new Set(tasks.map(({ task }) => task));
	return sandbox.requests().filter(({ body }) => names.has((body as IDataObject)?.name as string));
}

/** Stops the execution and waits for the node to return: it ends as canceled and sends nothing more. */
async function stopAndExpectNothingMore(
	execution: Awaited<ReturnType<typeof start>>,
): Promise<void> {
	const sentBeforeStop = execution.sent();
	execution.stop();
	expect((await execution.finished).status).toBe('canceled');
	await execution.engineDone;
	expect(execution.sent()).toBe(sentBeforeStop);
}

async function until(condition: () => boolean): Promise<void> {
	while (!condition()) await sleep(10);
}

/** The next execution on the same records runs at once: it is not queued behind the stopped one. */
async function expectNextRunsAtOnce(sandbox: SandboxHandle, items: IDataObject[]): Promise<void> {
	sandbox.setFaults(null);
	const next = await runInventory(sandbox, items, todoParameters());
	expect(next.status).toBe('success');
	expect(nodeOutput(next, 'Inventory').map(({ json }) => (json.todo as IDataObject).name)).toEqual(
		items.map(({ task }) => task),
	);
}

test('during a back-off, with items waiting for a place and for their record: the execution ends at once, nothing more is sent, the next execution on its records runs at once', async () => {
	const { sandbox } = env;
	sandbox.setFaults({ serverErrorRate: 1, serverErrorStatus: 503 });
	const items = [
		{ assetId: 1001, task: 'first of 1001' },
		{ assetId: 1002, task: 'waits for a place' },
		{ assetId: 1001, task: 'waits for its record' },
	];
	const execution = await start(sandbox, items, todoParameters({ concurrency: 1 }));
	await until(() => requestsFor(sandbox, items).length > 0);

	await stopAndExpectNothingMore(execution);
	expect(requestsFor(sandbox, items).map((r) => [r.path, r.status])).toEqual([
		['/api/v1/assets/1001/todos', 503],
	]);

	await expectNextRunsAtOnce(sandbox, [
		{ assetId: 1001, task: 'next on 1001' },
		{ assetId: 1002, task: 'next on 1002' },
	]);
	expect(sandbox.state().todos.map(({ name }) => name)).toEqual(['next on 1001', 'next on 1002']);
});

test.each([
	['automatic', {}],
	['Concurrency 5', { concurrency: 5 }],
])(
	"during the server's pause (%s): the execution ends at once and sends nothing more",
	async (name, options) => {
		const { sandbox } = env;
		sandbox.setFaults({
			rateLimit: { requests: 0, windowMs: TEN_MINUTES, retryAfterSeconds: 600 },
		});
		const items = Array.from({ length: 4 }, (__, i) => ({
			assetId: 1001 + i,
			task: `${name} #${i}`,
		}));
		const execution = await start(sandbox, items, todoParameters(options));
		await until(() => requestsFor(sandbox, items).some((r) => r.status === 429));

		await stopAndExpectNothingMore(execution);
		expect(sandbox.state().todos).toEqual([]);
	},
);

test('waiting for a record another execution holds: the stopped one ends at once and gives up its turn; once the holder is stopped too, the next execution on the record runs at once', async () => {
	const { sandbox } = env;
	sandbox.setFaults({ serverErrorRate: 1, serverErrorStatus: 503 });
	const holder = await start(sandbox, [{ assetId: 1001, task: 'holder' }], todoParameters());
	await until(() => requestsFor(sandbox, [{ task: 'holder' }]).length > 0);
	const waiting = await start(sandbox, [{ assetId: 1001, task: 'waiting' }], todoParameters());
	// Give it time to reach the record's queue (were it stopped earlier, it would end all the same).
	await sleep(200);

	await stopAndExpectNothingMore(waiting);
	expect(waiting.sent()).toBe(0);
	await stopAndExpectNothingMore(holder);
	// The holder's (its back-off is a random wait up to ten minutes: rarely, it retried before the stop).
	const names = requestsFor(sandbox, [{ task: 'holder' }, { task: 'waiting' }]).map(
		({ body }) => (body as IDataObject).name,
	);
	expect(names).toEqual(names.map(() => 'holder'));
	expect(names.length).toBeGreaterThan(0);

	await expectNextRunsAtOnce(sandbox, [{ assetId: 1001, task: 'next' }]);
});

test('paced after a rate limit: the stopped import ends at once and sends nothing more', async () => {
	const { sandbox } = env;
	// About one request a second after the first 429: the 200 items would take minutes.
	sandbox.setRateLimit({ ratePerSecond: 1, burst: 3 });
	try {
		const imported = Array.from({ length: 200 }, (_, i) => ({
			assetId: 1001 + (i % 50),
			task: `import #${i}`,
		}));
		const execution = await start(sandbox, imported, todoParameters({ retryDelay: 100 }));
		await until(() => requestsFor(sandbox, imported).some((r) => r.status === 429));
		await stopAndExpectNothingMore(execution);
		expect(execution.sent()).toBeLessThan(imported.length);
	} finally {
		sandbox.setRateLimit(null);
	}
});
