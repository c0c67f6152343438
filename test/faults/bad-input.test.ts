/**
 * Bad parameter values never reach the API: each one, given by an expression to the second item of
 * a workflow, fails that item with a message naming the field and the item, a description naming
 * the parameter (and the API field). Stopping on errors, the sandbox sees no request at all; with
 * Continue, the first item's only.
 */
import type { IDataObject, INode, INodeParameters, INodeProperties, IRun } from 'n8n-workflow';

import { AVAILABLE_ASSET_STATE, subscriptionState, TOKENS } from '../fixtures';
import { startSandbox, type LogEntry, type SandboxHandle } from '../../sandbox/src';
import { inventoryNodeType, inventoryWorkflow, nodeOutput, runWorkflow } from '../harness/engine';
import {
	acquisition,
	billing,
	cases,
	EMPTY_VALUES,
	NUMERIC_ID,
	optionalFields,
	todo,
	V,
	type OperationName,
} from './bad-input.cases';
import { captureOutput, occurrences, serializeRun, type Capture } from './helpers';

let sandbox: SandboxHandle;
let capture: Capture;
const sandboxLog: LogEntry[] = [];
const runs: IRun[] = [];

beforeAll(async () => {
	capture = captureOutput();
	sandbox = await startSandbox({ log: (entry) => sandboxLog.push(entry) });
});
afterAll(async () => {
	await sandbox.close();
	capture.stop();
});
beforeEach(() => sandbox.reset());

async function run(
	items: IDataObject[],
	parameters: INode['parameters'],
	node?: Partial<INode>,
): Promise<IRun> {
	const result = await runWorkflow(
		inventoryWorkflow(items, parameters, { node, settings: { timezone: 'America/New_York' } }),
		{
			credentials: { baseUrl: sandbox.baseUrl, apiToken: TOKENS.fullAccess },
		},
	);
	runs.push(result);
	return result;
}

/** What the error of a run stopped by bad input advises. */
const STOPPED_ADVICE =
	'Correct them and run again, or set On Error to "Continue (using error output)" to send the items that pass and get every failing item, with its reasons, on the error output.';

/** Fields whose bad values are proven in another suite. */
const CHECKED_ELSEWHERE: Record<string, string> = {
	paymentPlan: 'node/payment.test.ts, and its Billing Frequency and Number of Payments here',
};

test("every field of every operation's form has a bad value here", () => {
	const missing: string[] = [];
	for (const property of inventoryNodeType.description.properties) {
		const operations = property.displayOptions?.show?.operation as string[] | undefined;
		if (!operations) continue;
		const fields =
			property.type === 'collection'
				? (property.options as INodeProperties[]).map((option) => option.name)
				: [property.name];
		for (const operation of operations)
			for (const field of fields)
				if (
					!(field in CHECKED_ELSEWHERE) &&
					!cases.some((c) => c.parameters.operation === operation && c.parameter === field)
				)
					missing.push(`${operation}: ${field}`);
	}
	expect([...new Set(missing)]).toEqual([]);
});

describe('each bad value fails its item before anything is sent', () => {
	test.each(cases.map((c) => [c.title, c] as const))('%s', async (_title, c) => {
		// Each row has a cell with a value besides `v`, as a sheet's row does: a row whose cells are all
		// empty is a blank row, left out (node/blank-rows.test.ts).
		const items = [
			{ row: 1, v: c.good },
			{ row: 2, v: c.bad },
		];
		const refused = `${c.message} [item 1]`;

		// Stopping on errors (the default): the bad row stops the run before the good one is sent.
		const stopped = await run(items, c.parameters);
		expect(stopped.status).toBe('error');
		expect(stopped.data.resultData.error).toMatchObject({
			message: `Nothing was sent: 1 of 2 items failed its checks. ${refused}`,
			description: `Nothing was sent. ${refused}. ${STOPPED_ADVICE}`,
		});
		expect(sandbox.requests()).toEqual([]);

		// The item's own error names the parameter (and the API field).
		const alone = await run([{ row: 2, v: c.bad }], c.parameters);
		const description = `Parameter "${c.parameter}"${c.apiField ? ` (API field "${c.apiField}")` : ''}. Nothing was sent to the Inventory API for this item.`;
		expect(alone.data.resultData.error).toMatchObject({
			message: `${c.message} [item 0]`,
			description,
		});
		expect(sandbox.requests()).toEqual([]);

		// With Continue, the good row is sent and accepted; the bad one never reaches the API.
		const continued = await run(items, c.parameters, { onError: 'continueRegularOutput' });
		expect(sandbox.requests().map((r) => [r.status, r.seq])).toEqual([
			[c.parameters.operation === 'updateBilling' ? 200 : 201, 1],
		]);
		expect(nodeOutput(continued, 'Inventory')[1]).toEqual({
			json: {
				error: refused,
				details: expect.objectContaining({
					status: null,
					fate: 'notSent',
					idempotencyKey: null,
					description,
				}) as unknown,
			},
			pairedItem: { item: 1 },
		});
	});
});

/** An asset result of item `item`'s asset (1001, 1002, …): what the API answers, with `result`'s own values. */
const assetResult = (item: number, result: IDataObject): IDataObject => ({
	asset_id: 1001 + item,
	asset_event_ids: [],
	subscription_event_ids: [],
	todo: null,
	tracker_disconnect_pending: false,
	state: AVAILABLE_ASSET_STATE,
	...result,
});

/**
 * Each operation with only its required fields set, one record per item (so three items never wait on
 * each other's state changes): the request body it sends and the output item the API's answer gives.
 */
const minimal = {
	createTodo: {
		parameters: (additionalFields: INodeParameters) =>
			todo({ assetId: '={{ 1001 + $itemIndex }}' }, additionalFields),
		method: 'POST',
		path: (item: number) => `/api/v1/assets/${1001 + item}/todos`,
		body: { name: 'Tag and label' },
		status: 201,
		output: (item: number): IDataObject => {
			const { id, created_at, updated_at } = sandbox.state().todos[item];
			return assetResult(item, {
				todo: {
					id,
					name: 'Tag and label',
					notes: null,
					due_date: null,
					assigned_to: null,
					created_by: 101,
					is_complete: false,
					created_at,
					updated_at,
				},
			});
		},
	},
	updateBilling: {
		parameters: (additionalFields: INodeParameters) =>
			billing({ subscriptionId: '={{ 2001 + $itemIndex }}' }, additionalFields),
		method: 'PUT',
		path: (item: number) => `/api/v1/subscriptions/${2001 + item}/billing`,
		body: { price_model: 'lump_sum', cost: 10, billing_frequency: 'monthly' },
		status: 200,
		output: (item: number): IDataObject => {
			const change = sandbox.state().billingChanges[item];
			return {
				subscription_id: 2001 + item,
				subscription_event_ids: [change.subscription_event_id],
				todo: null,
				state: subscriptionState({
					license_count: change.after.license_count,
					billing_frequency: 'monthly',
					price_model: 'lump_sum',
					cost: '10.00',
				}),
			};
		},
	},
	recordAcquisition: {
		parameters: (additionalFields: INodeParameters) =>
			acquisition({ assetId: '={{ 1001 + $itemIndex }}' }, additionalFields),
		method: 'POST',
		path: (item: number) => `/api/v1/assets/${1001 + item}/acquisitions`,
		body: { event_type_id: 301 },
		status: 201,
		output: (item: number): IDataObject =>
			assetResult(item, { asset_event_ids: sandbox.state().acquisitions[item].asset_event_ids }),
	},
};

describe('an optional field left empty by an expression (null, blank, white space) is left out of the request', () => {
	const operations = Object.keys(optionalFields) as OperationName[];
	test.each(
		operations.flatMap((operation) =>
			optionalFields[operation].map((field) => [operation, field] as const),
		),
	)('%s: %s', async (operation, field) => {
		const { parameters, method, path, body, status, output } = minimal[operation];
		const result = await run(
			// A row with an empty cell, not a blank row (node/blank-rows.test.ts).
			EMPTY_VALUES.map(([, v], item) => ({ row: item + 1, v })),
			parameters({ [field]: V }),
		);

		expect(result.status).toBe('success');
		expect(sandbox.requests().map((r) => [r.method, r.path, r.body, r.status])).toEqual(
			EMPTY_VALUES.map((_empty, item) => [method, path(item), body, status]),
		);
		const keys = sandbox.requests().map((r) => r.key);
		expect(nodeOutput(result, 'Inventory')).toEqual(
			EMPTY_VALUES.map((_empty, item) => ({
				json: {
					...output(item),
					repeatCheck: { outcome: 'recorded', idempotencyKey: keys[item], item },
				},
				pairedItem: { item },
			})),
		);
	});
});

describe('with "On Error: Continue", one bad item among good ones', () => {
	const items = [
		{ assetId: 1001, task: 'Label 0' },
		{ assetId: 1002, task: 'Label 1' },
		{ assetId: 'A-1003', task: 'Label 2' },
		{ assetId: 1004, task: 'Label 3' },
		{ assetId: 1005, task: 'Label 4' },
	];
	const parameters = todo({ assetId: '={{ $json.assetId }}', name: '={{ $json.task }}' });
	const errorItem = {
		json: {
			error: `Asset ID ${NUMERIC_ID} "A-1003" [item 2]`,
			details: expect.objectContaining({ fate: 'notSent', idempotencyKey: null }) as unknown,
		},
		pairedItem: { item: 2 },
	};

	function expectGoodItemsSent(): void {
		expect(sandbox.requests().map((r) => [r.path, r.body, r.status])).toEqual(
			[0, 1, 3, 4].map((i) => [
				`/api/v1/assets/${items[i].assetId}/todos`,
				{ name: items[i].task },
				201,
			]),
		);
	}

	test.each([1, 3])(
		'continue (regular output), concurrency %i: an error item in place, the others created',
		async (concurrency) => {
			const result = await run(
				items,
				{ ...parameters, options: { concurrency } },
				{ onError: 'continueRegularOutput' },
			);
			expect(result.status).toBe('success');
			const output = nodeOutput(result, 'Inventory');
			expect(output).toHaveLength(5);
			expect(output[2]).toEqual(errorItem);
			expect(
				[0, 1, 3, 4].map((i) => [(output[i].json.todo as IDataObject).name, output[i].pairedItem]),
			).toEqual([0, 1, 3, 4].map((i) => [items[i].task, { item: i }]));
			expectGoodItemsSent();
		},
	);

	test('continue (error output): the bad item goes to the error output, the others to the success output', async () => {
		const result = await run(items, parameters, { onError: 'continueErrorOutput' });
		expect(result.status).toBe('success');
		const success = nodeOutput(result, 'Inventory', 0);
		const failed = nodeOutput(result, 'Inventory', 1);
		expect(success.map((item) => [(item.json.todo as IDataObject).name, item.pairedItem])).toEqual(
			[0, 1, 3, 4].map((i) => [items[i].task, { item: i }]),
		);
		// n8n's error output adds the input item's fields to the error item.
		expect(failed).toEqual([{ ...errorItem, json: { ...items[2], ...errorItem.json } }]);
		expectGoodItemsSent();
	});
});

test('the API token appears in no run data, log line, console output or sandbox log entry of these runs', () => {
	expect(runs.length).toBeGreaterThanOrEqual(3 * cases.length + 3);
	// The capture works: it holds the engine's debug log and n8n's error reports of these runs.
	expect(
		capture.lines.some((line) =>
			line.startsWith('debug Running node "Inventory" finished with error'),
		),
	).toBe(true);
	expect(
		capture.lines.some((line) =>
			line.startsWith(
				'error Nothing was sent: 1 of 2 items failed its checks. Name must be at most 255 characters',
			),
		),
	).toBe(true);
	for (const text of [
		...runs.map(serializeRun),
		capture.lines.join('\n'),
		JSON.stringify(sandboxLog),
	]) {
		expect(occurrences(text, TOKENS.fullAccess)).toEqual([]);
	}
});
