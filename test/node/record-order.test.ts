/**
 * Per-record order and concurrency, through n8n's engine against the sandbox: requests that address the
 * same asset or subscription reach the API one after another in input order, whatever the concurrency;
 * requests on different records overlap. The sandbox's request log (start and end of each request)
 * shows what was in flight when.
 */
import type { IDataObject } from 'n8n-workflow';

import type { RecordedRequest } from '../../sandbox/src';
import { nodeOutput } from '../harness/engine';
import {
	createTodoParameters,
	recordAcquisitionParameters,
	subscriptionState,
	updateBillingParameters,
} from '../fixtures';
import { runError, runInventory, useSandbox } from './util';

const env = useSandbox();

/** Every sandbox request waits this long before it is handled, so requests sent together overlap. */
const LATENCY_MS = 40;

/** The most requests that were in flight at the same moment. */
function peakOverlap(requests: RecordedRequest[]): number {
	const edges = requests.flatMap((r) => [
		{ at: r.startedAtMs, step: 1 },
		{ at: r.finishedAtMs, step: -1 },
	]);
	edges.sort((a, b) => a.at - b.at || a.step - b.step);
	let current = 0;
	let peak = 0;
	for (const { step } of edges) {
		current += step;
		peak = Math.max(peak, current);
	}
	return peak;
}

/** Requests of one path, in arrival order; each started after the previous one had finished. */
function expectOneAfterAnother(requests: RecordedRequest[]): void {
	for (let i = 1; i < requests.length; i++)
		expect(requests[i].startedAtMs).toBeGreaterThanOrEqual(requests[i - 1].finishedAtMs);
}

const billingRows = (count: number) =>
	Array.from({ length: count }, (_, row) => ({ row, cost: 100 + row }));

const billingOfRow = {
	...updateBillingParameters({ cost: '={{ $json.cost }}' }),
	subscriptionId: '2001',
};

describe.each([
	['Concurrency 10', {}, { concurrency: 10 }],
	['automatic', {}, {}],
])('%s', (_, node, options) => {
	test("twelve billing updates of one subscription go one at a time, in input order, and the last row's values stay", async () => {
		const { sandbox } = env;
		sandbox.setFaults({ latencyMs: LATENCY_MS });
		const rows = billingRows(12);
		const run = await runInventory(sandbox, rows, { ...billingOfRow, options }, { node });

		const requests = sandbox.requests();
		expect(requests.map((r) => [r.method, r.path, r.status, r.body])).toEqual(
			rows.map(({ cost }) => [
				'PUT',
				'/api/v1/subscriptions/2001/billing',
				200,
				{ price_model: 'lump_sum', cost, billing_frequency: 'monthly' },
			]),
		);
		expectOneAfterAnother(requests);
		const subscription = sandbox.state().subscriptions.find((s) => s.id === 2001);
		expect(subscription?.cost).toBe('111.00');
		expect(
			nodeOutput(run, 'Inventory').map(({ json, pairedItem }) => [json.state, pairedItem]),
		).toEqual(
			rows.map(({ cost, row }) => [
				subscriptionState({
					price_model: 'lump_sum',
					cost: cost.toFixed(2),
					billing_frequency: 'monthly',
					license_count: null,
				}),
				{ item: row },
			]),
		);
	});

	test('eight acquisitions of one asset with rising event dates all succeed', async () => {
		const { sandbox } = env;
		sandbox.setFaults({ latencyMs: LATENCY_MS });
		const dates = Array.from({ length: 8 }, (_, day) => `2026-01-0${day + 1}T10:00:00+00:00`);
		const run = await runInventory(
			sandbox,
			dates.map((eventDate) => ({ eventDate })),
			{
				...recordAcquisitionParameters(
					{ assetId: '1005' },
					{ eventDate: '={{ $json.eventDate }}' },
				),
				options,
			},
			{ node },
		);

		expect(run.status).toBe('success');
		const requests = sandbox.requests();
		// Sent in the workflow's time zone: the same instants, with their offset.
		expect(
			requests.map((r) => [
				r.path,
				r.status,
				Date.parse((r.body as IDataObject).event_date as string),
			]),
		).toEqual(dates.map((date) => ['/api/v1/assets/1005/acquisitions', 201, Date.parse(date)]));
		expectOneAfterAnother(requests);
		expect(sandbox.state().acquisitions.map((a) => Date.parse(a.event_date))).toEqual(
			dates.map((date) => Date.parse(date)),
		);
	});

	test('items on different records run in one go, and each record keeps its input order', async () => {
		const { sandbox } = env;
		sandbox.setFaults({ latencyMs: LATENCY_MS });
		const items = Array.from({ length: 20 }, (_, i) => ({
			assetId: 1001 + (i % 5),
			task: `#${i}`,
		}));
		const run = await runInventory(
			sandbox,
			items,
			{
				...createTodoParameters({ assetId: '={{ $json.assetId }}', name: '={{ $json.task }}' }),
				options,
			},
			{ node },
		);

		expect(nodeOutput(run, 'Inventory').map(({ json }) => (json.todo as IDataObject).name)).toEqual(
			items.map(({ task }) => task),
		);
		// That they overlap at the server depends on the machine's speed; that they start together is
		// the scheduler's (record-order-scheduler.test.ts), here each record's order is.
		const requests = sandbox.requests();
		for (let asset = 1001; asset <= 1005; asset++) {
			const ofAsset = requests.filter((r) => r.path === `/api/v1/assets/${asset}/todos`);
			expect(ofAsset.map((r) => (r.body as IDataObject).name)).toEqual(
				items.filter((item) => item.assetId === asset).map(({ task }) => task),
			);
			expectOneAfterAnother(ofAsset);
		}
	});
});

describe('a failed item in the middle of a record', () => {
	// Item 2 is dated before item 1, which has already changed the subscription: the API answers 409.
	const rows = [
		{ subscriptionId: '2003', cost: 1, eventDate: '2026-02-01T10:00:00+00:00' },
		{ subscriptionId: '2003', cost: 2, eventDate: '2026-02-03T10:00:00+00:00' },
		{ subscriptionId: '2003', cost: 3, eventDate: '2026-02-02T10:00:00+00:00' },
		{ subscriptionId: '2004', cost: 4, eventDate: '2026-02-01T10:00:00+00:00' },
		{ subscriptionId: '2003', cost: 5, eventDate: '2026-02-04T10:00:00+00:00' },
		{ subscriptionId: '2003', cost: 6, eventDate: '2026-02-05T10:00:00+00:00' },
	];
	const parameters = {
		...updateBillingParameters(
			{ subscriptionId: '={{ $json.subscriptionId }}', cost: '={{ $json.cost }}' },
			{ eventDate: '={{ $json.eventDate }}' },
		),
		options: { concurrency: 10 },
	};
	const REFUSED_AS_OLDER =
		'The Event Date sent, 2026-02-02T05:00:00-05:00, is before the last change of Subscription 2003 (2026-02-03T10:00:00.000000Z): the Inventory API refused it (409) [item 2]';
	const costsSentTo = (requests: RecordedRequest[], subscription: string) =>
		requests
			.filter((r) => r.path === `/api/v1/subscriptions/${subscription}/billing`)
			.map((r) => [(r.body as IDataObject).cost, r.status]);

	test('Continue On Fail: the failed item becomes an error item and the later items of its record still go, in order', async () => {
		const { sandbox } = env;
		sandbox.setFaults({ latencyMs: LATENCY_MS });
		const run = await runInventory(sandbox, rows, parameters, {
			node: { onError: 'continueRegularOutput' },
		});

		const output = nodeOutput(run, 'Inventory');
		expect(
			output.map(({ json }) => (json.state as IDataObject | undefined)?.cost ?? json.error),
		).toEqual(['1.00', '2.00', REFUSED_AS_OLDER, '4.00', '5.00', '6.00']);
		expect(output.map(({ pairedItem }) => pairedItem)).toEqual(rows.map((_, item) => ({ item })));
		const requests = sandbox.requests();
		expect(costsSentTo(requests, '2003')).toEqual([
			[1, 200],
			[2, 200],
			[3, 409],
			[5, 200],
			[6, 200],
		]);
		expectOneAfterAnother(requests.filter((r) => r.path.includes('/2003/')));
		expect(sandbox.state().subscriptions.find((s) => s.id === 2003)?.cost).toBe('6.00');
	});

	test('without Continue On Fail: the run fails on that item and nothing after it is started', async () => {
		const { sandbox } = env;
		sandbox.setFaults({ latencyMs: LATENCY_MS });
		const run = await runInventory(sandbox, rows, parameters);

		expect(runError(run).message).toBe(REFUSED_AS_OLDER);
		const requests = sandbox.requests();
		expect(costsSentTo(requests, '2003')).toEqual([
			[1, 200],
			[2, 200],
			[3, 409],
		]);
		// Item 3 (another subscription) may have been under way already; items 4 and 5 were never sent.
		expect(requests.map((r) => (r.body as IDataObject).cost)).not.toContain(5);
		expect(requests.map((r) => (r.body as IDataObject).cost)).not.toContain(6);
	});
});

describe('how many requests are in flight', () => {
	const todos = Array.from({ length: 24 }, (_, i) => ({ assetId: 1001 + (i % 12), task: `#${i}` }));
	const parameters = (options: Record<string, number>) => ({
		...createTodoParameters({ assetId: '={{ $json.assetId }}', name: '={{ $json.task }}' }),
		options,
	});

	test.each([
		['Concurrency 1', { concurrency: 1 }, 1],
		['automatic with Max Concurrency 4', { maxConcurrency: 4 }, 4],
	])('%s: never more than the limit, every item created once', async (_, options, limit) => {
		const { sandbox } = env;
		sandbox.setFaults({ latencyMs: LATENCY_MS });
		const run = await runInventory(sandbox, todos, parameters(options), {});

		expect(nodeOutput(run, 'Inventory').map(({ json }) => (json.todo as IDataObject).name)).toEqual(
			todos.map(({ task }) => task),
		);
		const requests = sandbox.requests();
		expect(requests).toHaveLength(todos.length);
		// Never above it; that it is reached depends on the machine's speed, and is asserted under a
		// fake clock (server-controller.test.ts).
		expect(peakOverlap(requests)).toBeLessThanOrEqual(limit);
	});
});

describe('automatic concurrency against a token bucket (20 requests/s, burst 5)', () => {
	test('every item is created once, in input order per asset; the 429s applied nothing', async () => {
		const { sandbox } = env;
		sandbox.setRateLimit({ ratePerSecond: 20, burst: 5 });
		try {
			const todos = Array.from({ length: 60 }, (_, i) => ({
				assetId: 1001 + (i % 20),
				task: `#${i}`,
			}));
			const run = await runInventory(
				sandbox,
				todos,
				createTodoParameters({ assetId: '={{ $json.assetId }}', name: '={{ $json.task }}' }),
			);

			expect(
				nodeOutput(run, 'Inventory').map(({ json, pairedItem }) => [
					json.asset_id,
					(json.todo as IDataObject).name,
					pairedItem,
				]),
			).toEqual(todos.map(({ assetId, task }, item) => [assetId, task, { item }]));
			const state = sandbox.state();
			expect(state.todos.map(({ asset_id, name }) => [asset_id, name]).sort()).toEqual(
				todos.map(({ assetId, task }) => [assetId, task]).sort(),
			);
			const requests = sandbox.requests();
			const throttled = requests.filter((r) => r.status === 429);
			expect(throttled.length).toBe(state.counters.rateLimited);
			expect(throttled.length).toBeGreaterThan(0);
			expect(requests.filter((r) => r.status === 201)).toHaveLength(todos.length);
			expect(state.counters.applied).toBe(todos.length);
			// A 429 stored nothing: the key's later attempt created the to-do, and no key created two.
			const createdKeys = requests.filter((r) => r.status === 201).map((r) => r.key);
			expect(new Set(createdKeys).size).toBe(todos.length);
			for (const { key } of throttled) expect(createdKeys).toContain(key);
		} finally {
			sandbox.setRateLimit(null);
		}
	});
});
