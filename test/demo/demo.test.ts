import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';

import { startSandbox, type SandboxHandle } from '../../sandbox/src';
import {
	inProcessWorkflow,
	loadExampleWorkflow,
	purchasesOf,
	runDemo,
	type DemoResult,
	type PassSummary,
} from '../../scripts/demo';
import type { IDataObject } from 'n8n-workflow';

import { ALL_OPERATIONS_NODES, TOKENS } from '../fixtures';
import {
	deduplicationStore,
	INVENTORY_TYPE,
	inventoryNodeType,
	itemsNode,
	ITEMS_TYPE,
	runWorkflow,
} from '../harness/engine';

const root = join(__dirname, '..', '..');
/** The node's one version, which the examples show. */
const NODE_VERSION = 1;
const TOOL_TYPE = `${INVENTORY_TYPE}Tool`;
const EXAMPLES = readdirSync(join(root, 'examples')).filter((file) =>
	file.endsWith('.workflow.json'),
);
/**
 * The requests the sandbox answered, each with its status, by path: requests on different assets may
 * go out side by side, so their order is not the workflow's.
 */
const answersByPath = (sandbox: SandboxHandle) =>
	sandbox
		.requests()
		.map(({ method, path, status, body }) => ({ method, path, status, body }))
		.sort((a, b) => a.path.localeCompare(b.path));

describe('the examples (examples/*.workflow.json)', () => {
	test('use the Inventory node, and its tool, in its one version', () => {
		expect(EXAMPLES.sort()).toEqual([
			'google-sheets-intake.workflow.json',
			'inventory-mcp-server.workflow.json',
			'procurement-intake.workflow.json',
			'purchase-email-agent.workflow.json',
		]);
		expect(inventoryNodeType.description.version).toBe(NODE_VERSION);
		expect(inventoryNodeType.description.defaultVersion).toBeUndefined();
		for (const file of EXAMPLES) {
			const { nodes } = loadExampleWorkflow(join(root, 'examples', file));
			const ours = nodes.filter((node) => node.type === INVENTORY_TYPE || node.type === TOOL_TYPE);
			expect(ours.length).toBeGreaterThan(0);
			expect(ours.map((node) => [file, node.name, node.typeVersion])).toEqual(
				ours.map((node) => [file, node.name, NODE_VERSION]),
			);
		}
	});
});

describe('example workflow (examples/procurement-intake.workflow.json)', () => {
	const example = loadExampleWorkflow();

	test('is an n8n workflow with fixed node ids, n8n nodes and our node in the newest version', () => {
		expect(
			Object.keys(
				JSON.parse(readFileSync(join(root, 'examples/procurement-intake.workflow.json'), 'utf8')),
			),
		).toEqual(expect.arrayContaining(['name', 'nodes', 'connections', 'settings']));
		const ids = example.nodes.map((node) => node.id);
		expect(new Set(ids).size).toBe(ids.length);
		for (const id of ids)
			expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
		expect(example.nodes.map((node) => [node.name, node.type, node.typeVersion])).toEqual([
			['When clicking ‘Execute workflow’', 'n8n-nodes-base.manualTrigger', 1],
			['Incoming purchases', 'n8n-nodes-base.code', 2],
			['Record acquisition', INVENTORY_TYPE, NODE_VERSION],
			['Create to-do', INVENTORY_TYPE, NODE_VERSION],
			['Update billing', INVENTORY_TYPE, NODE_VERSION],
		]);
		for (const node of example.nodes.filter((n) => n.type === INVENTORY_TYPE)) {
			expect(node.credentials).toEqual({
				inventoryApi: { id: 'inventory-sandbox', name: 'Inventory sandbox' },
			});
			// every parameter is one the node declares (a typo would be silently dropped by n8n)
			const declared = new Set(inventoryNodeType.description.properties.map((p) => p.name));
			for (const name of Object.keys(node.parameters)) expect(declared).toContain(name);
		}
		expect(example.nodes.find((n) => n.name === 'Update billing')?.executeOnce).toBe(true);
	});

	test('the Code node returns the five purchases the demo runs', () => {
		const code = String(
			example.nodes.find((n) => n.name === 'Incoming purchases')?.parameters.jsCode,
		);
		const purchases = purchasesOf(example);
		// the Code node's own JavaScript yields exactly these items
		const items = runInNewContext(`(function () {\n${code}\n})()`) as Array<{ json: unknown }>;
		expect(items.map((item) => item.json)).toEqual(purchases);
		expect(purchases).toHaveLength(5);
		for (const purchase of purchases) {
			expect(Object.keys(purchase).sort()).toEqual(
				['assetId', 'eventTypeId', 'price', 'purchaseDate', 'submissionId', 'vendor'].sort(),
			);
		}
	});

	test('in-process: trigger dropped, Code node replaced by fixture items, Inventory nodes kept exactly', () => {
		const definition = inProcessWorkflow(example);
		expect(definition.nodes.map((n) => [n.name, n.type])).toEqual([
			['Incoming purchases', ITEMS_TYPE],
			['Record acquisition', INVENTORY_TYPE],
			['Create to-do', INVENTORY_TYPE],
			['Update billing', INVENTORY_TYPE],
		]);
		for (const node of example.nodes.filter((n) => n.type === INVENTORY_TYPE)) {
			expect(definition.nodes.find((n) => n.name === node.name)).toBe(node);
		}
		expect(Object.keys(definition.connections)).toEqual([
			'Incoming purchases',
			'Record acquisition',
			'Create to-do',
		]);
	});
});

describe('example workflow (examples/google-sheets-intake.workflow.json)', () => {
	const file = join(root, 'examples', 'google-sheets-intake.workflow.json');
	const example = loadExampleWorkflow(file);
	const { pinData } = JSON.parse(readFileSync(file, 'utf8')) as {
		pinData: Record<string, Array<{ json: IDataObject }>>;
	};
	const SHEET = 'Purchases sheet';
	const rows = pinData[SHEET].map((item) => item.json);
	const sheetNode = example.nodes.find((node) => node.name === SHEET)!;
	const inventory = example.nodes.find((node) => node.type === INVENTORY_TYPE)!;

	test('Google Sheets "Get Row(s)" with the read defaults, then Record acquisition keyed by po_number, line', () => {
		expect(example.nodes.map((node) => [node.name, node.type, node.typeVersion])).toEqual([
			['When clicking ‘Execute workflow’', 'n8n-nodes-base.manualTrigger', 1],
			[SHEET, 'n8n-nodes-base.googleSheets', 4.7],
			['Record acquisition', INVENTORY_TYPE, NODE_VERSION],
			['Booked', 'n8n-nodes-base.noOp', 1],
			['Rows to fix', 'n8n-nodes-base.noOp', 1],
			['Sticky Note', 'n8n-nodes-base.stickyNote', 1],
		]);
		// Resource "Sheet Within Document" and operation "Get Row(s)" are the node's defaults (n8n
		// saves no default), as are its Output Formatting: numbers unformatted, dates as displayed.
		expect(sheetNode.parameters).toEqual({
			documentId: { __rl: true, value: '', mode: 'list' },
			sheetName: { __rl: true, value: '', mode: 'list' },
			options: {},
		});
		// the user picks their own Google credential
		expect(sheetNode.credentials).toBeUndefined();
		expect(inventory.credentials).toEqual({
			inventoryApi: { id: 'inventory-sandbox', name: 'Inventory sandbox' },
		});
		expect(inventory.onError).toBe('continueErrorOutput');
		expect([inventory.parameters.repeatProtection, inventory.parameters.keyColumns]).toEqual([
			'columns',
			'po_number, line',
		]);
		const declared = new Set(inventoryNodeType.description.properties.map((p) => p.name));
		for (const name of Object.keys(inventory.parameters)) expect(declared).toContain(name);
		expect(example.connections['Record acquisition'].main.map((out) => out?.[0]?.node)).toEqual([
			'Booked',
			'Rows to fix',
		]);
	});

	test('its pinned rows are what Google returns: row_number first, numbers unformatted, dates as displayed', () => {
		expect(rows.length).toBeGreaterThan(0);
		rows.forEach((row, index) => {
			expect(Object.keys(row)).toEqual([
				'row_number',
				'po_number',
				'line',
				'asset_id',
				'purchase_date',
				'vendor',
				'price',
			]);
			// the header is sheet row 1
			expect(row.row_number).toBe(index + 2);
			for (const column of ['po_number', 'line', 'asset_id', 'price'])
				expect(typeof row[column]).toBe('number');
			// US locale, as displayed: M/d/yyyy, M/d/yyyy H:mm:ss
			expect(row.purchase_date).toMatch(/^\d{1,2}\/\d{1,2}\/\d{4}( \d{1,2}:\d{2}:\d{2})?$/);
			// an empty cell between filled ones is ""
			expect(typeof row.vendor).toBe('string');
		});
	});

	describe('in-process, the Google Sheets node replaced by its pinned rows', () => {
		let sandbox: SandboxHandle;
		beforeAll(async () => {
			sandbox = await startSandbox({ port: 0, log: false });
		});
		afterAll(async () => await sandbox.close());

		const definition = {
			id: 'google-sheets-intake',
			nodes: [
				{ ...itemsNode(rows), name: SHEET, id: sheetNode.id, position: sheetNode.position },
				inventory,
			],
			connections: { [SHEET]: example.connections[SHEET] },
			settings: { timezone: 'UTC' },
		};
		const run = () =>
			runWorkflow(definition, {
				credentials: { baseUrl: sandbox.baseUrl, apiToken: TOKENS.fullAccess },
			});

		test('books each row once with the values read from the sheet; run again, each replays', async () => {
			deduplicationStore.reset();
			const first = await run();
			expect(first.status).toBe('success');
			expect(answersByPath(sandbox)).toEqual([
				{
					method: 'POST',
					path: '/api/v1/assets/1016/acquisitions',
					status: 201,
					body: {
						event_type_id: 301,
						event_date: '2025-11-20T00:00:00+00:00',
						description: 'PO 5101 line 1',
						acquired_from: 'ACME Hardware',
						price: 1249,
					},
				},
				{
					method: 'POST',
					path: '/api/v1/assets/1017/acquisitions',
					status: 201,
					body: {
						event_type_id: 301,
						event_date: '2025-11-20T00:00:00+00:00',
						description: 'PO 5101 line 2',
						acquired_from: 'ACME Hardware',
						price: 1249,
					},
				},
				{
					method: 'POST',
					path: '/api/v1/assets/1018/acquisitions',
					status: 201,
					body: {
						event_type_id: 301,
						event_date: '2025-09-14T14:30:00+00:00',
						description: 'PO 5102 line 1',
						acquired_from: 'Northwind, Inc.',
						price: 89.9,
					},
				},
				{
					method: 'POST',
					path: '/api/v1/assets/1019/acquisitions',
					status: 201,
					// the empty vendor cell is left out
					body: {
						event_type_id: 301,
						event_date: '2025-10-28T00:00:00+00:00',
						description: 'PO 5103 line 1',
						price: 12500,
					},
				},
			]);
			const keyOf = (requests: Array<{ path: string; key: string | null }>) =>
				Object.fromEntries(requests.map((request) => [request.path, request.key]));
			const keys = keyOf(sandbox.requests());
			expect(new Set(Object.values(keys)).size).toBe(rows.length);

			const second = await run();
			expect(second.status).toBe('success');
			const again = sandbox.requests().slice(rows.length);
			expect(again.every((request) => request.replayed)).toBe(true);
			expect(keyOf(again)).toEqual(keys);
			expect(sandbox.state().acquisitions).toHaveLength(rows.length);
		});
	});
});

describe('npm run demo (runDemo)', () => {
	let sandbox: SandboxHandle;
	let result: DemoResult;
	const lines: string[] = [];

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, log: false });
		deduplicationStore.reset();
		result = await runDemo({ sandbox, print: (line) => lines.push(line) });
	});
	afterAll(async () => await sandbox.close());

	test('reports success', () => {
		expect(result.problems).toEqual([]);
		expect(result.ok).toBe(true);
		expect(lines[lines.length - 1]).toMatch(/^OK: 11 actions applied once/);
	});

	test('run 1 applies 5 acquisitions, 5 to-dos and 1 billing change, each once', () => {
		const { first } = result;
		expect(first.status).toBe('success');
		expect(first.applied).toBe(11);
		expect(first.replays).toBe(0);
		expect(first.newRecords).toEqual({
			acquisitions: 5,
			todos: 5,
			billingChanges: 1,
			assetEvents: 5,
			subscriptionEvents: 1,
		});
		expect(first.requests.map((r) => [r.operation, r.status, r.replayed])).toEqual([
			...Array(5).fill(['recordAcquisition', 201, false]),
			...Array(5).fill(['createTodo', 201, false]),
			['updateBilling', 200, false],
		]);
		expect(new Set(first.requests.map((r) => r.key)).size).toBe(11);
	});

	test('the sandbox holds exactly what the purchases asked for', () => {
		const { state, purchases } = result;
		expect(state.acquisitions).toHaveLength(5);
		const byAsset = <T extends { asset_id: number }>(records: T[]) =>
			[...records].sort((a, b) => a.asset_id - b.asset_id);
		expect(
			byAsset(state.acquisitions).map((a) => [
				a.asset_id,
				a.event_type_id,
				a.acquired_from,
				a.price,
			]),
		).toEqual(purchases.map((p) => [p.assetId, p.eventTypeId, p.vendor, p.price.toFixed(2)]));
		// the purchase date is sent as midnight in the workflow's time zone, with its offset
		const sent = result.first.requests
			.filter((r) => r.operation === 'recordAcquisition')
			.map((r) => [
				Number(/\/assets\/(\d+)\//.exec(r.path)?.[1]),
				(r.body as { event_date: string }).event_date,
			])
			.sort(([a], [b]) => Number(a) - Number(b));
		sent.forEach(([assetId, eventDate], index) => {
			const purchase = purchases.find((p) => p.assetId === assetId)!;
			expect(eventDate).toMatch(new RegExp(`^${purchase.purchaseDate}T00:00:00[+-]\\d\\d:\\d\\d$`));
			expect(Date.parse(byAsset(state.acquisitions)[index].event_date)).toBe(
				Date.parse(String(eventDate)),
			);
		});
		expect(
			byAsset(state.todos).map((t) => [t.asset_id, t.name, t.assigned_to, t.is_complete]),
		).toEqual(purchases.map((p) => [p.assetId, 'Tag and label', 103, false]));
		expect(byAsset(state.todos)[0].notes).toBe(
			`Put an asset tag and a label on it. Purchase ${purchases[0].submissionId} from ${purchases[0].vendor}.`,
		);
		expect(state.billingChanges).toHaveLength(1);
		expect(state.billingChanges[0]).toMatchObject({
			subscription_id: 2002,
			before: {
				price_model: 'per_license',
				cost: '10.00',
				billing_frequency: 'monthly',
				license_count: 25,
			},
			after: {
				price_model: 'per_license',
				cost: '10.00',
				billing_frequency: 'monthly',
				license_count: 30,
			},
		});
	});

	test('run 2 (a new execution) replays every action with the same keys and creates nothing', () => {
		const { first, second, state, executionIds } = result;
		expect(executionIds[1]).not.toBe(executionIds[0]);
		expect(second.status).toBe('success');
		expect(second.applied).toBe(0);
		expect(second.replays).toBe(11);
		expect(Object.values(second.newRecords)).toEqual([0, 0, 0, 0, 0]);
		expect(second.requests.every((r) => r.replayed)).toBe(true);
		const keys = (requests: typeof first.requests) => requests.map((r) => r.key).sort();
		expect(keys(second.requests)).toEqual(keys(first.requests));
		// the same records; only the node's repeat check tells run 2's replays from run 1
		const data = (items: IDataObject[]) =>
			items.map((json) => {
				const copy = { ...json };
				delete copy.repeatCheck;
				return copy;
			});
		expect(data(second.todos)).toEqual(data(first.todos));
		expect(data(second.acquisitions)).toEqual(data(first.acquisitions));
		expect(data(second.billing)).toEqual(data(first.billing));
		expect(state.counters.applied).toBe(11);
		expect(state.counters.replays).toBe(11);
		expect([state.acquisitions.length, state.todos.length, state.billingChanges.length]).toEqual([
			5, 5, 1,
		]);
	});

	test('the node says run 1 recorded every row and run 2 replayed it', () => {
		const { first, second } = result;
		const outcomes = (summary: PassSummary) =>
			[...summary.acquisitions, ...summary.todos, ...summary.billing].map(
				(json) => (json.repeatCheck as IDataObject).outcome,
			);
		expect(outcomes(first)).toEqual(Array(11).fill('recorded'));
		expect(outcomes(second)).toEqual(Array(11).fill('replayed'));
	});

	test('a second demo run against the same sandbox (a new execution) books nothing: the example keys each row once', async () => {
		const again = await runDemo({ sandbox, print: () => {} });
		expect(again.first.applied).toBe(0);
		expect(again.first.replays).toBe(11);
		expect(Object.values(again.first.newRecords)).toEqual([0, 0, 0, 0, 0]);
		expect(again.first.requests.map((r) => r.key).sort()).toEqual(
			result.first.requests.map((r) => r.key).sort(),
		);
	});
});

describe('the "Inventory: all operations" workflow `npm run n8n` imports (ALL_OPERATIONS_NODES)', () => {
	let sandbox: SandboxHandle;
	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, log: false });
	});
	afterAll(async () => await sandbox.close());

	test('runs green on the seed: one to-do, one billing change, one lease, exactly as set', async () => {
		const items = itemsNode([{}]);
		const run = await runWorkflow(
			{
				nodes: [
					items,
					...ALL_OPERATIONS_NODES.map((node) => ({
						...node,
						type: INVENTORY_TYPE,
						credentials: { inventoryApi: { id: 'cred-1', name: 'Inventory sandbox' } },
					})),
				],
				connections: {
					[items.name]: {
						main: [
							ALL_OPERATIONS_NODES.map(({ name }) => ({ node: name, type: 'main', index: 0 })),
						],
					},
				},
				settings: { timezone: 'America/New_York' },
			},
			{ credentials: { baseUrl: sandbox.baseUrl, apiToken: TOKENS.fullAccess } },
		);
		expect(run.status).toBe('success');
		expect(answersByPath(sandbox)).toEqual([
			{
				method: 'POST',
				path: '/api/v1/assets/1001/todos',
				status: 201,
				body: { name: 'Tag and label', due_date: '2026-12-31', assigned_to: 102 },
			},
			{
				method: 'POST',
				path: '/api/v1/assets/1003/acquisitions',
				status: 201,
				body: {
					event_type_id: 302,
					payment: 100,
					billing_frequency: 'monthly',
					number_of_payments: 12,
					field_values: { '401': 'LC-1', '402': 4021 },
				},
			},
			{
				method: 'PUT',
				path: '/api/v1/subscriptions/2002/billing',
				status: 200,
				body: {
					price_model: 'per_license',
					cost: 10,
					billing_frequency: 'monthly',
					license_count: 25,
				},
			},
		]);
		const state = sandbox.state();
		expect(
			state.todos.map(({ asset_id, name, due_date, assigned_to }) => [
				asset_id,
				name,
				due_date,
				assigned_to,
			]),
		).toEqual([[1001, 'Tag and label', '2026-12-31', 102]]);
		expect(
			state.acquisitions.map(({ asset_id, event_type_id, field_values, payment }) => [
				asset_id,
				event_type_id,
				field_values,
				payment,
			]),
		).toEqual([[1003, 302, { '401': 'LC-1', '402': 4021 }, '100.00']]);
		expect(
			state.billingChanges.map(({ subscription_id, after }) => [subscription_id, after]),
		).toEqual([
			[
				2002,
				{
					price_model: 'per_license',
					cost: '10.00',
					billing_frequency: 'monthly',
					license_count: 25,
				},
			],
		]);
	});
});
