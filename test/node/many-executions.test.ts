/**
 * Many executions at once in one process, through n8n's engine against the sandbox: they share the
 * server's rate limit (one controller per server and credential), take turns in rotation, never change
 * one record at the same time, and an idle controller is forgotten. What they come to (each record
 * once, no execution failed, who waited for whom) is asserted here; how many 429s and how long, which
 * depend on the machine's speed, are the bench's (`BENCH_ONLY=executions`) and, under a fake clock,
 * server-controller.test.ts's.
 */
import type { IDataObject, INodeParameters, IRun } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import {
	DEFAULT_SEED_FILE,
	loadSeedFile,
	startSandbox,
	type RecordedRequest,
	type SandboxHandle,
} from '../../sandbox/src';
import { createTodoParameters, TOKENS, updateBillingParameters } from '../fixtures';
import { captureOutput, type Capture } from '../faults/helpers';
import {
	forgetServerControllers,
	inventoryWorkflow,
	nodeOutput,
	runWorkflow,
} from '../harness/engine';

/** Assets added to the seed's organization, so that items can address many records. */
const FIRST_EXTRA_ASSET = 5001;
const EXTRA_ASSETS = 300;

let sandbox: SandboxHandle;
let capture: Capture;

beforeAll(async () => {
	capture = captureOutput();
	const seed = loadSeedFile(DEFAULT_SEED_FILE);
	const organization = seed.organizations[0];
	const template = organization.assets[0];
	for (let i = 0; i < EXTRA_ASSETS; i++)
		organization.assets.push({ ...template, id: FIRST_EXTRA_ASSET + i, name: `Extra ${i}` });
	sandbox = await startSandbox({ log: false, seed });
});
afterAll(async () => {
	await sandbox.close();
	capture.stop();
});
beforeEach(() => {
	sandbox.reset();
	sandbox.setFaults(null);
	sandbox.setRateLimit(null);
	forgetServerControllers();
	capture.lines.length = 0;
});

const todoOfItem = createTodoParameters({
	assetId: '={{ $json.assetId }}',
	name: '={{ $json.task }}',
});

/** `options`: the node's Options (none: automatic concurrency). */
function execution(items: IDataObject[], options: INodeParameters = {}, token = TOKENS.fullAccess) {
	return runWorkflow(inventoryWorkflow(items, { ...todoOfItem, options }), {
		credentials: { baseUrl: sandbox.baseUrl, apiToken: token },
	});
}

/** Every to-do the executions asked for exists once, and each execution output its own. */
function expectEachRecordOnce(runs: IRun[], itemsOfRuns: IDataObject[][]): void {
	expect(runs.map((run) => run.status)).toEqual(runs.map(() => 'success'));
	runs.forEach((run, index) =>
		expect(
			nodeOutput(run, 'Inventory').map(({ json }) => [
				json.asset_id,
				(json.todo as IDataObject).name,
			]),
		).toEqual(itemsOfRuns[index].map(({ assetId, task }) => [assetId, task])),
	);
	const asked = itemsOfRuns.flat().map(({ assetId, task }) => `${String(assetId)} ${String(task)}`);
	const created = sandbox.state().todos.map(({ asset_id, name }) => `${asset_id} ${name}`);
	expect(created.sort()).toEqual(asked.sort());
}

const logged = (message: string) => capture.lines.some((line) => line.includes(message));

function throttledCount(requests: RecordedRequest[]): number {
	const throttled = requests.filter((r) => r.status === 429).length;
	expect(throttled).toBe(sandbox.state().counters.rateLimited);
	return throttled;
}

test('120 one-item executions started at once against a token bucket (40/s, burst 10): none fails, each record once, a 429 applied nothing', async () => {
	sandbox.setRateLimit({ ratePerSecond: 40, burst: 10 });
	const burst = Array.from({ length: 120 }, (_, i) => [
		{ assetId: FIRST_EXTRA_ASSET + i, task: `webhook #${i}` },
	]);
	const runs = await Promise.all(burst.map((items) => execution(items)));

	expectEachRecordOnce(runs, burst);
	const requests = sandbox.requests();
	const throttled = throttledCount(requests);
	expect(requests.length).toBe(burst.length + throttled);
	console.log(
		`${burst.length} one-item executions: ${throttled} of ${requests.length} requests answered 429`,
	);
});

describe.each([
	['automatic', {}],
	['Concurrency 1', { concurrency: 1 }],
])("a 429's pause holds back every execution (%s)", (_, options) => {
	test('an execution started during the pause waits it out instead of meeting a 429 of its own', async () => {
		sandbox.setRateLimit({ ratePerSecond: 2, burst: 2 });
		const first = Array.from({ length: 3 }, (__, i) => ({
			assetId: 1001 + i,
			task: `first #${i}`,
		}));
		const later = [{ assetId: 1010, task: 'later' }];
		const firstRun = execution(first, options);
		// The later execution starts once the node has the 429's pause (not merely once the sandbox sent it).
		while (!logged('every request to the server held back')) await sleep(10);
		expect(sandbox.requests().filter((r) => r.status === 429)).toHaveLength(1);
		const runs = await Promise.all([firstRun, execution(later, options)]);

		expectEachRecordOnce(runs, [first, later]);
		const requests = sandbox.requests();
		expect(throttledCount(requests)).toBe(1);
		expect(
			requests.filter((r) => r.path === '/api/v1/assets/1010/todos').map((r) => r.status),
		).toEqual([201]);
	});
});

test('one-item executions arriving during a large import all succeed beside it, each record once', async () => {
	sandbox.setRateLimit({ ratePerSecond: 50, burst: 5 });
	const imported = Array.from({ length: 250 }, (_, i) => ({
		assetId: FIRST_EXTRA_ASSET + i,
		task: `import #${i}`,
	}));
	const arrivals = Array.from({ length: 5 }, (_, i) => [
		{ assetId: FIRST_EXTRA_ASSET + 250 + i, task: `arrival #${i}` },
	]);
	const importRun = execution(imported);
	// They arrive once the import is well under way, with its items queued for their turns.
	while (sandbox.requests().filter((r) => r.status === 201).length < 30) await sleep(20);
	const arrivedAt = performance.timeOrigin + performance.now();
	const arrivalRuns = await Promise.all(arrivals.map((items) => execution(items)));
	const runs = [await importRun, ...arrivalRuns];

	expectEachRecordOnce(runs, [imported, ...arrivals]);
	const requests = [...sandbox.requests()].sort((a, b) => a.startedAtMs - b.startedAtMs);
	const importSentAfterArrival = (arrival: IDataObject) => {
		const path = `/api/v1/assets/${String(arrival.assetId)}/todos`;
		const sent = requests.find((r) => r.path === path && r.status === 201) as RecordedRequest;
		return requests.filter(
			(r) =>
				r.startedAtMs > arrivedAt &&
				r.startedAtMs < sent.startedAtMs &&
				(r.body as IDataObject).name?.toString().startsWith('import'),
		).length;
	};
	// How many import requests went before each arrival's is timing (the bench's figure); the order of
	// turns itself is asserted under a fake clock (server-controller.test.ts).
	const waited = arrivals.map(([arrival]) => importSentAfterArrival(arrival));
	const after = requests.filter((r) => r.startedAtMs > arrivedAt).length;
	console.log(
		`import requests sent between the arrivals and their own: ${waited.join(', ')} (of ${after} after the arrivals)`,
	);
});

test('an execution on an asset the import holds waits for that one change: the import sends it before the items queued ahead of it', async () => {
	sandbox.setRateLimit({ ratePerSecond: 50, burst: 5 });
	const imported = Array.from({ length: 150 }, (_, i) => ({
		assetId: FIRST_EXTRA_ASSET + i,
		task: `import #${i}`,
	}));
	// Item 95 of the import is under way (it holds its asset) and waits for its turn behind 85 to 94.
	const arrival = [{ assetId: FIRST_EXTRA_ASSET + 95, task: 'arrival' }];
	const importRun = execution(imported);
	while (sandbox.requests().filter((r) => r.status === 201).length < 30) await sleep(20);
	const runs = await Promise.all([importRun, execution(arrival)]);

	expectEachRecordOnce(runs, [imported, arrival]);
	const requests = [...sandbox.requests()].sort((a, b) => a.startedAtMs - b.startedAtMs);
	const firstSent = (task: string) =>
		requests.findIndex((r) => (r.body as IDataObject).name === task);
	const queuedAhead = Array.from({ length: 10 }, (_, i) => firstSent(`import #${85 + i}`));
	expect(queuedAhead.filter((sent) => sent < firstSent('import #95'))).toEqual([]);
	// The arrival's change came after the import's change of the asset (one record at a time).
	expect(firstSent('arrival')).toBeGreaterThan(firstSent('import #95'));
});

describe.each([
	['automatic', {}, {}],
	['Concurrency 5', {}, { concurrency: 5 }],
])('two executions changing one subscription at once (%s)', (_, node, options) => {
	test('never overlap at the server, each in its input order, and every change applies', async () => {
		sandbox.setFaults({ latencyMs: 30 });
		const rows = (from: number) => Array.from({ length: 6 }, (__, row) => ({ cost: from + row }));
		const parameters = {
			...updateBillingParameters({ cost: '={{ $json.cost }}' }),
			subscriptionId: '2001',
			options,
		};
		const run = (items: IDataObject[]) =>
			runWorkflow(inventoryWorkflow(items, parameters, { node }), {
				credentials: { baseUrl: sandbox.baseUrl, apiToken: TOKENS.fullAccess },
			});
		const runs = await Promise.all([run(rows(100)), run(rows(500))]);

		expect(runs.map((r) => r.status)).toEqual(['success', 'success']);
		const requests = [...sandbox.requests()].sort((a, b) => a.startedAtMs - b.startedAtMs);
		expect(requests.map((r) => [r.path, r.status])).toEqual(
			requests.map(() => ['/api/v1/subscriptions/2001/billing', 200]),
		);
		for (let i = 1; i < requests.length; i++)
			expect(requests[i].startedAtMs).toBeGreaterThanOrEqual(requests[i - 1].finishedAtMs);
		const costs = requests.map((r) => (r.body as IDataObject).cost as number);
		expect(costs.filter((cost) => cost < 500)).toEqual(rows(100).map(({ cost }) => cost));
		expect(costs.filter((cost) => cost >= 500)).toEqual(rows(500).map(({ cost }) => cost));
		// The last change the server applied is the one it holds.
		const subscription = sandbox.state().subscriptions.find((s) => s.id === 2001);
		expect(subscription?.cost).toBe(costs[costs.length - 1].toFixed(2));
	});
});

test('a controller nobody used for five minutes is forgotten when the next execution looks one up', async () => {
	const loggedLines = (message: string) => capture.lines.filter((line) => line.includes(message));
	await execution([{ assetId: 1001, task: 'first' }]);
	expect(loggedLines('Inventory: rate controller created')).toHaveLength(1);

	// Only the clock moves on: six minutes later, an execution with another credential.
	jest.useFakeTimers({
		now: Date.now() + 6 * 60 * 1000,
		doNotFake: [
			'nextTick',
			'setImmediate',
			'clearImmediate',
			'setTimeout',
			'clearTimeout',
			'setInterval',
			'clearInterval',
			'queueMicrotask',
			'hrtime',
			'performance',
		],
	});
	try {
		await execution([{ assetId: 1002, task: 'later' }], {}, TOKENS.todosOnly);
	} finally {
		jest.useRealTimers();
	}

	expect(loggedLines('Inventory: idle rate controller forgotten')).toHaveLength(1);
	expect(loggedLines('Inventory: rate controller created')).toHaveLength(2);
	// The one still there is found again: no third controller.
	await execution([{ assetId: 1003, task: 'again' }], {}, TOKENS.todosOnly);
	expect(loggedLines('Inventory: rate controller created')).toHaveLength(2);
	for (const token of [TOKENS.fullAccess, TOKENS.todosOnly])
		expect(capture.lines.join('\n')).not.toContain(token);
});
