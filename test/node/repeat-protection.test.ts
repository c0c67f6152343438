/**
 * Repeat Protection: what counts as the same action (each row once, keyed by
 * columns or an expression, or the retries of one execution), the keys it makes, the output's
 * repeatCheck (recorded now, replayed, or unknown and why), the summary of a failure after other
 * rows went through, and expressions typed as fixed text refused before anything is sent.
 */
import type { IDataObject, INodeParameters, IRun } from 'n8n-workflow';

import { createTodoParameters, recordAcquisitionParameters, TOKENS } from '../fixtures';
import {
	deduplicationStore,
	instanceId,
	inventoryWorkflow,
	inventoryNodeType,
	nodeOutput,
	retryExecution,
	runWorkflow,
	storedAfterCrash,
	storedAtStart,
	type WorkflowDefinition,
	itemsNode,
	inventoryNode,
} from '../harness/engine';
import { acquisitionKey, todoKey } from '../harness/keys';
import { idempotencyHelpers } from './package-modules';
import { keysSent, runError, runInventory, useSandbox } from './util';

const { deriveIdempotencyKey } = idempotencyHelpers;

const env = useSandbox();

const TODO_PATH = (asset: number) => `/api/v1/assets/${asset}/todos`;

const sheet = [
	{ po_number: 'PO-1', asset: 1001 },
	{ po_number: 'PO-2', asset: 1002 },
	{ po_number: 'PO-3', asset: 1003 },
];

const todoByColumns = (
	columns = 'po_number',
	extra: IDataObject = {},
	additionalFields?: INodeParameters,
) =>
	createTodoParameters(
		{
			assetId: '={{ $json.asset }}',
			repeatProtection: 'columns',
			keyColumns: columns,
			...extra,
		},
		additionalFields,
	);

/** The key of the test workflow's Inventory node for an item of an execution (keyed by the execution). */
const executionKey = (executionId: string, itemIndex: number) =>
	deriveIdempotencyKey({
		instanceId: instanceId(),
		workflowId: 'wf-test',
		rootExecutionId: executionId,
		nodeId: 'inventory-node-1',
		runIndex: 0,
		itemIndex,
	});

const outputJson = (run: IRun) => nodeOutput(run, 'Inventory').map(({ json }) => json);
const checksOf = (run: IRun) => outputJson(run).map((json) => json.repeatCheck);

describe('the one node version', () => {
	test('Repeat Protection "Each Row Once, Keyed by Columns" is the default; a tool keys a call by its arguments', () => {
		const { description } = inventoryNodeType;
		expect([description.version, description.defaultVersion]).toEqual([1, undefined]);
		const choices = description.properties.filter((p) => p.name === 'repeatProtection');
		expect(
			choices.map((p) => [
				p.displayOptions?.show,
				p.default,
				(p.options as Array<{ value: string }>).map(({ value }) => value),
			]),
		).toEqual([
			[{ '@tool': [false] }, 'columns', ['expression', 'columns', 'execution']],
			[{ '@tool': [true] }, 'columns', ['expression', 'columns', 'execution']],
		]);
		// No Options → Idempotency Key: Repeat Protection says what the key is made of.
		const options = description.properties.find((p) => p.name === 'options');
		expect((options?.options as Array<{ name: string }>).map(({ name }) => name)).not.toContain(
			'idempotencyKey',
		);
	});

	test('Key Columns left empty (a Manual Trigger: no columns): the rows carry no identity, so each execution books anew with keys of its own', async () => {
		const { sandbox } = env;
		const parameters = createTodoParameters({ assetId: '1001', repeatProtection: 'columns' });
		const first = await runInventory(sandbox, [{}], parameters, { executionId: 'manual-1' });
		const again = await runInventory(sandbox, [{}], todoByColumns(' , ', { assetId: '1001' }), {
			executionId: 'manual-2',
		});
		const keyOf = (executionId: string) => executionKey(executionId, 0);
		expect(sandbox.requests().map(({ key, replayed }) => [key, replayed])).toEqual([
			[keyOf('manual-1'), false],
			[keyOf('manual-2'), false],
		]);
		expect(sandbox.state().todos).toHaveLength(2);
		expect([...checksOf(first), ...checksOf(again)]).toEqual([
			{ outcome: 'recorded', idempotencyKey: keyOf('manual-1'), item: 0 },
			{ outcome: 'recorded', idempotencyKey: keyOf('manual-2'), item: 0 },
		]);
	});
});

describe('Key Columns left empty before rows of their own', () => {
	test('each execution books the rows anew, and the output pane says so, naming a column that identifies them', async () => {
		const { sandbox } = env;
		const run = await runInventory(sandbox, sheet, todoByColumns(''));
		expect(run.data.resultData.runData.Inventory[0].hints).toEqual([
			{
				message:
					'Key Columns is empty, so each execution books these 3 rows anew (only a retry of this execution replays them). To book each row once, name the column that identifies a row in Key Columns, e.g. po_number.',
				location: 'outputPane',
			},
		]);
		expect(sandbox.state().todos).toHaveLength(3);
	});

	test('a lone item (a Manual Trigger, a Schedule) gets no such note', async () => {
		const run = await runInventory(
			env.sandbox,
			[{ timestamp: '2026-12-01T08:00:00Z' }],
			todoByColumns('', { assetId: '1001' }),
		);
		expect(run.data.resultData.runData.Inventory[0].hints).toEqual([]);
	});
});

describe('each row once, keyed by columns', () => {
	test('the same sheet run twice books each row once; the second run says replayed', async () => {
		const { sandbox } = env;
		const first = await runInventory(sandbox, sheet, todoByColumns(), {
			executionId: 'run-1',
		});
		const second = await runInventory(sandbox, sheet, todoByColumns(), {
			executionId: 'run-2',
		});

		const keys = sheet.map(({ po_number, asset }) => todoKey(asset, 'Tag and label', po_number));
		expect(keysSent(sandbox)).toEqual([...keys, ...keys]);
		expect(sandbox.state().todos.map((todo) => todo.asset_id)).toEqual([1001, 1002, 1003]);
		// the sandbox's own record of what it replayed agrees with what the node says
		expect(sandbox.requests().map((request) => request.replayed)).toEqual([
			false,
			false,
			false,
			true,
			true,
			true,
		]);

		expect(checksOf(first)).toEqual(
			keys.map((key, item) => ({
				outcome: 'recorded',
				idempotencyKey: key,
				item,
				keyValues: { po_number: sheet[item].po_number },
			})),
		);
		expect(checksOf(second)).toEqual(
			keys.map((key, item) => ({
				outcome: 'replayed',
				idempotencyKey: key,
				note: 'This key had been answered before (an earlier execution or try); the API replayed that result and booked nothing new.',
				item,
				keyValues: { po_number: sheet[item].po_number },
			})),
		);
		// n8n's output panel notes the replays (the task's hints); run 1 has nothing to note
		expect(first.data.resultData.runData.Inventory[0].hints).toEqual([]);
		expect(second.data.resultData.runData.Inventory[0].hints).toEqual([
			{
				message:
					'Of the rows sent: 3 recorded before and replayed. Nothing was booked again for a row recorded before.',
				location: 'outputPane',
			},
		]);
		// the replay is the same record: only the repeat check differs
		const withoutCheck = (run: IRun) =>
			outputJson(run).map((json) => {
				const data = { ...json };
				delete data.repeatCheck;
				return data;
			});
		expect(withoutCheck(second)).toEqual(withoutCheck(first));
		expect(nodeOutput(second, 'Inventory').map(({ pairedItem }) => pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		// n8n's store, scope "node": run 1 records the keys and checks they are there (another process
		// may overwrite the list at the same moment); run 2 finds them all
		expect(deduplicationStore.calls).toEqual([
			{ method: 'getProcessedDataCount', scope: 'node' },
			{ method: 'checkProcessedAndRecord', scope: 'node', items: keys },
			{ method: 'checkProcessedAndRecord', scope: 'node', items: keys },
			{ method: 'getProcessedDataCount', scope: 'node' },
			{ method: 'checkProcessedAndRecord', scope: 'node', items: keys },
		]);
	});

	test('keys another process overwrites in the store are recorded again until a check finds them; the next run says replayed', async () => {
		const { sandbox } = env;
		// the write that records the keys and the check after it are both overwritten by another process
		deduplicationStore.writesLostToAnotherProcess = 2;
		const first = await runInventory(sandbox, sheet, todoByColumns(), { executionId: 'run-1' });
		const keys = sheet.map(({ po_number, asset }) => todoKey(asset, 'Tag and label', po_number));
		expect(checksOf(first).map((check) => (check as IDataObject).outcome)).toEqual([
			'recorded',
			'recorded',
			'recorded',
		]);
		// recorded, lost; checked, recorded again, lost; checked after a pause, recorded, kept; checked: all there
		expect(deduplicationStore.calls).toEqual([
			{ method: 'getProcessedDataCount', scope: 'node' },
			...Array.from({ length: 4 }, () => ({
				method: 'checkProcessedAndRecord',
				scope: 'node',
				items: keys,
			})),
		]);
		const second = await runInventory(sandbox, sheet, todoByColumns(), { executionId: 'run-2' });
		expect(checksOf(second).map((check) => (check as IDataObject).outcome)).toEqual([
			'replayed',
			'replayed',
			'replayed',
		]);
	});

	test("a row booked before and changed since is refused (409): the message says first what to do, with the operation's noun and the row's key values", async () => {
		const { sandbox } = env;
		const parameters = todoByColumns('po_number', {}, { notes: '={{ $json.notes }}' });
		await runInventory(
			sandbox,
			[{ po_number: 'PO-1', asset: 1001, notes: 'Blue' }],
			parameters,
			{},
		);
		const run = await runInventory(
			sandbox,
			[{ po_number: 'PO-1', asset: 1001, notes: 'Both chargers' }],
			parameters,
			{},
		);
		expect(runError(run)).toEqual({
			message:
				'A to-do for this row on Asset 1001 was booked before with other values, and the Inventory API keeps that booking (409) [po_number PO-1, item 0]',
			description: `If the row was corrected after it was booked, correct the to-do in Inventory: the API does not change a booking. If this is another to-do for the same row, give it an identity of its own: add a column that tells the two apart (e.g. a revision) to Key Columns, or give it another name. The Idempotency-Key ${todoKey(1001, 'Tag and label', 'PO-1')} is made of the operation, the record, the to-do's name and the row's key values (po_number PO-1); the node's name and the workflow play no part, so any workflow that books this row on Asset 1001 sends it. The API said: The Idempotency-Key has already been used for a different request (method, path or body); use a new key for a new action.`,
			httpCode: '409',
		});
		expect(sandbox.state().todos.map((todo) => todo.notes)).toEqual(['Blue']);
	});

	test('several columns key a row by the JSON list of their values as text; a dotted name reaches into an object', async () => {
		const { sandbox } = env;
		const rows = [
			{ po: { number: 'PO-7' }, line: 1, asset: 1001 },
			{ po: { number: 'PO-7' }, line: 2, asset: 1001 },
		];
		const run = await runInventory(sandbox, rows, todoByColumns('po.number, line'));
		expect(keysSent(sandbox)).toEqual([
			todoKey(1001, 'Tag and label', '["PO-7","1"]'),
			todoKey(1001, 'Tag and label', '["PO-7","2"]'),
		]);
		expect(checksOf(run).map((check) => (check as IDataObject).outcome)).toEqual([
			'recorded',
			'recorded',
		]);
		expect(sandbox.state().todos).toHaveLength(2);
	});

	test('two rows with the same key in one run: the second replays the first', async () => {
		const { sandbox } = env;
		const rows = [
			{ po_number: 'PO-1', asset: 1001 },
			{ po_number: 'PO-1', asset: 1001 },
		];
		const run = await runInventory(sandbox, rows, todoByColumns());
		const key = todoKey(1001, 'Tag and label', 'PO-1');
		expect(keysSent(sandbox)).toEqual([key, key]);
		expect(sandbox.state().todos).toHaveLength(1);
		expect(checksOf(run)).toEqual([
			{ outcome: 'recorded', idempotencyKey: key, item: 0, keyValues: { po_number: 'PO-1' } },
			{
				outcome: 'replayed',
				idempotencyKey: key,
				note: 'Item 0 of this run has the same key; the API replayed its result.',
				item: 1,
				keyValues: { po_number: 'PO-1' },
			},
		]);
	});

	test('a row without its key column fails alone, naming the column and the item; nothing is sent for it', async () => {
		const { sandbox } = env;
		const rows = [
			{ po_number: 'PO-1', asset: 1001 },
			{ asset: 1002 },
			{ po_number: ' ', asset: 1003 },
		];
		const run = await runInventory(sandbox, rows, todoByColumns(), {
			node: { onError: 'continueRegularOutput' },
		});
		// The error item: the message, and details of a row never sent (error-items.test.ts).
		const neverSent = expect.objectContaining({ fate: 'notSent', idempotencyKey: null });
		expect(outputJson(run).slice(1)).toEqual([
			{
				error:
					'Key column "po_number" is missing from this row (this row\'s columns are "asset"): Key Columns names columns of this node\'s input. For a column of an earlier node, choose Repeat Protection "Each Row Once, Keyed by an Expression" and set Row Key to {{ $(\'Node name\').item.json.po_number }} with the name of the node that has it [item 1]',
				details: neverSent,
			},
			{ error: 'Key column "po_number" is blank in this row: " " [item 2]', details: neverSent },
		]);
		expect(sandbox.requests().map(({ path }) => path)).toEqual([TODO_PATH(1001)]);
	});
});

describe('one business id across operations (a form submission UUID)', () => {
	const submission = '0b6c8f6e-3f5e-4c3b-9a51-2f1b2b7d4a99';
	const purchase = (): WorkflowDefinition => {
		const keyParameters = { repeatProtection: 'columns', keyColumns: 'submissionId' };
		return {
			nodes: [
				itemsNode([{ submissionId: submission, asset: 1001 }]),
				inventoryNode(
					'Acquisition',
					'acquisition-node',
					recordAcquisitionParameters({ assetId: '={{ $json.asset }}', ...keyParameters }),
				),
				inventoryNode(
					'To-do',
					'todo-node',
					createTodoParameters({
						assetId: '={{ $json.asset }}',
						repeatProtection: 'expression',
						rowKey: "={{ $('Items').item.json.submissionId }}",
					}),
				),
			],
			connections: {
				Items: { main: [[{ node: 'Acquisition', type: 'main', index: 0 }]] },
				Acquisition: { main: [[{ node: 'To-do', type: 'main', index: 0 }]] },
			},
		};
	};
	const credentials = () => ({ baseUrl: env.sandbox.baseUrl, apiToken: TOKENS.fullAccess });

	test('the acquisition and the to-do get their own keys (a UUID is hashed too) and both are booked', async () => {
		const { sandbox } = env;
		// the acquisition's output has no submissionId column: the to-do takes it from the Items node
		const workflow = purchase();
		workflow.nodes[2].parameters.assetId = '={{ $json.asset_id }}';
		const run = await runWorkflow(workflow, { credentials: credentials() });
		expect(run.status).toBe('success');
		expect(keysSent(sandbox)).toEqual([
			acquisitionKey(1001, submission),
			todoKey(1001, 'Tag and label', submission),
		]);
		expect(sandbox.state().todos).toHaveLength(1);
		expect(sandbox.state().acquisitions).toHaveLength(1);
	});
});

describe('each row once, keyed by an expression', () => {
	test('Row Key gives each row its key, made with the operation and the record', async () => {
		const { sandbox } = env;
		const parameters = createTodoParameters({
			assetId: '={{ $json.asset }}',
			repeatProtection: 'expression',
			rowKey: '={{ $json.po_number }}-{{ $json.asset }}',
		});
		await runInventory(sandbox, sheet.slice(0, 2), parameters);
		expect(keysSent(sandbox)).toEqual([
			todoKey(1001, 'Tag and label', 'PO-1-1001'),
			todoKey(1002, 'Tag and label', 'PO-2-1002'),
		]);
	});
});

describe('only retries of this execution', () => {
	const derived = executionKey;
	const parameters = createTodoParameters({
		assetId: '={{ $json.asset }}',
		repeatProtection: 'execution',
	});

	test("keeps the execution's derived keys: a second execution books the rows again, each run says recorded", async () => {
		const { sandbox } = env;
		const first = await runInventory(sandbox, sheet.slice(0, 2), parameters, {
			executionId: 'exec-a',
		});
		const second = await runInventory(sandbox, sheet.slice(0, 2), parameters, {
			executionId: 'exec-b',
		});
		const keys = [
			derived('exec-a', 0),
			derived('exec-a', 1),
			derived('exec-b', 0),
			derived('exec-b', 1),
		];
		expect(keysSent(sandbox)).toEqual(keys);
		expect(sandbox.state().todos).toHaveLength(4);
		expect(checksOf(first)).toEqual(
			keys.slice(0, 2).map((key, item) => ({ outcome: 'recorded', idempotencyKey: key, item })),
		);
		expect(checksOf(second)).toEqual(
			keys.slice(2).map((key, item) => ({ outcome: 'recorded', idempotencyKey: key, item })),
		);
	});

	test('a failure after other rows says so; Retry execution replays them and says replayed', async () => {
		const { sandbox } = env;
		const rows = [{ asset: 1001 }, { asset: 1002 }, { asset: 999999 }, { asset: 1003 }];
		const workflow = inventoryWorkflow(rows, parameters);
		const failed = await runWorkflow(workflow, {
			credentials: { baseUrl: sandbox.baseUrl, apiToken: TOKENS.fullAccess },
			executionId: 'exec-fail',
		});
		const error = runError(failed);
		expect(error.message).toMatch(/Asset 999999/);
		expect(error.description).toMatch(
			/\n\nBefore this failure, 3 other rows of this run went through \(3 recorded now\): items 0, 1, 3\. Retry execution replays them and sends the rest; running the workflow again \(or Execute step\) books them again\.$/,
		);

		// the retry fails on the missing asset again; the rows that went through are replayed
		const retry = await retryExecution(workflow, failed, {
			credentials: { baseUrl: sandbox.baseUrl, apiToken: TOKENS.fullAccess },
			failedExecutionId: 'exec-fail',
		});
		expect(runError(retry).description).toMatch(
			/Before this failure, 3 other rows of this run went through \(3 recorded before and replayed\): items 0, 1, 3\./,
		);
		expect(sandbox.state().todos).toHaveLength(3);
		// Without the request that asks, after the 404, whether the Base URL is the API (once per run).
		const keys = sandbox
			.requests()
			.filter(({ path }) => path !== '/api/v1/assets/0/todos')
			.map(({ key }) => key);
		expect(keys.slice(4)).toEqual(keys.slice(0, 4));
	});
});

describe('a failure after other rows went through', () => {
	const rows = [
		{ po_number: 'PO-1', asset: 1001 },
		{ po_number: 'PO-2', asset: 1002 },
		{ po_number: 'PO-3', asset: 999999 },
	];

	test('keyed once: a new run replays them', async () => {
		const { sandbox } = env;
		const run = await runInventory(sandbox, rows, todoByColumns());
		expect(runError(run).description).toMatch(
			/\n\nBefore this failure, 2 other rows of this run went through \(2 recorded now\): items 0, 1\. They are keyed by your data: Retry execution, or running the workflow again, replays them instead of booking them twice, and sends the rest\.$/,
		);
		const again = await runInventory(sandbox, rows, todoByColumns());
		expect(runError(again).description).toMatch(/\(2 recorded before and replayed\): items 0, 1\./);
		expect(sandbox.state().todos).toHaveLength(2);
	});

	test('keyed per execution, it says so too', async () => {
		const { sandbox } = env;
		const run = await runInventory(
			sandbox,
			rows,
			createTodoParameters({ assetId: '={{ $json.asset }}', repeatProtection: 'execution' }),
		);
		expect(runError(run).description).toMatch(
			/\n\nBefore this failure, 2 other rows of this run went through \(2 recorded now\): items 0, 1\. Retry execution replays them and sends the rest; running the workflow again \(or Execute step\) books them again\.$/,
		);
	});

	test('keyed by a Row Key expression: keyed by data', async () => {
		const { sandbox } = env;
		const run = await runInventory(
			sandbox,
			rows,
			createTodoParameters({
				assetId: '={{ $json.asset }}',
				repeatProtection: 'expression',
				rowKey: '={{ $json.po_number }}',
			}),
		);
		expect(runError(run).description).toMatch(
			/Before this failure, 2 other rows of this run went through \(2 recorded now\): items 0, 1\. They are keyed by your data/,
		);
	});

	test('the first row failing adds nothing', async () => {
		const { sandbox } = env;
		const run = await runInventory(sandbox, [rows[2]], todoByColumns());
		expect(runError(run).description).not.toMatch(/Before this failure/);
	});
});

describe('an expression typed as fixed text is refused, and nothing is sent', () => {
	test.each([
		[
			'Key Columns',
			{ repeatProtection: 'columns', keyColumns: '{{ $json.po_number }}' },
			'Key Columns holds the expression {{ $json.po_number }} as fixed text, so every row would send the same key',
			'Key Columns takes the names of input columns, not an expression: write po_number there (or drag the column from the input panel onto the field). Nothing was sent to the Inventory API.',
		],
		[
			'Row Key',
			{ repeatProtection: 'expression', rowKey: "{{ $('Form').item.json.id }}" },
			"Row Key holds the expression {{ $('Form').item.json.id }} as fixed text, so every row would send the same key",
			`Switch the field to Expression: point at it, choose "Expression" above it, and keep {{ $('Form').item.json.id }} (or drag the column from the input panel onto the field, which makes an expression). Nothing was sent to the Inventory API.`,
		],
	])('%s', async (_case, parameters, message, description) => {
		const { sandbox } = env;
		const run = await runInventory(
			sandbox,
			sheet,
			createTodoParameters({ assetId: '={{ $json.asset }}', ...parameters }),
			{ node: { onError: 'continueRegularOutput' } },
		);
		expect(runError(run)).toEqual({ message, description, httpCode: undefined });
		expect(sandbox.requests()).toEqual([]);
	});

	test('the same text as an expression is accepted', async () => {
		const { sandbox } = env;
		await runInventory(
			sandbox,
			sheet.slice(0, 1),
			createTodoParameters({
				assetId: '={{ $json.asset }}',
				repeatProtection: 'expression',
				rowKey: '={{ $json.po_number }}',
			}),
		);
		expect(keysSent(sandbox)).toEqual([todoKey(1001, 'Tag and label', 'PO-1')]);
	});
});

describe('where the node cannot tell, it says so', () => {
	test("n8n's store failing: unknown, with the reason; the rows are still booked", async () => {
		const { sandbox } = env;
		deduplicationStore.failWith = new Error('SQLITE_BUSY: database is locked');
		const run = await runInventory(sandbox, sheet.slice(0, 1), todoByColumns());
		expect(checksOf(run)).toEqual([
			{
				outcome: 'unknown',
				idempotencyKey: todoKey(1001, 'Tag and label', 'PO-1'),
				note: "n8n's deduplication store could not be used (SQLITE_BUSY: database is locked), and the API does not say whether it replayed a request.",
				item: 0,
				keyValues: { po_number: 'PO-1' },
			},
		]);
		expect(sandbox.state().todos).toHaveLength(1);
	});

	test("a store call failing once (two processes inserting the node's list at once) is tried again", async () => {
		const { sandbox } = env;
		let failures = 1;
		const original = deduplicationStore.checkProcessedAndRecord.bind(deduplicationStore);
		const spy = jest
			.spyOn(deduplicationStore, 'checkProcessedAndRecord')
			.mockImplementation(async (...args) => {
				if (failures-- > 0) throw new Error('duplicate key value violates unique constraint');
				return await original(...args);
			});
		try {
			const run = await runInventory(sandbox, sheet.slice(0, 1), todoByColumns());
			expect(checksOf(run)).toEqual([
				{
					outcome: 'recorded',
					idempotencyKey: todoKey(1001, 'Tag and label', 'PO-1'),
					item: 0,
					keyValues: { po_number: 'PO-1' },
				},
			]);
		} finally {
			spy.mockRestore();
		}
	});

	test('a store that has forgotten older keys: a key it does not hold is unknown, one it holds is replayed', async () => {
		const { sandbox } = env;
		await runInventory(sandbox, sheet.slice(0, 1), todoByColumns());
		deduplicationStore.fill('wf-test', 'inventory-node-1', 10_000);
		const run = await runInventory(sandbox, sheet.slice(0, 2), todoByColumns());
		expect(checksOf(run).map((check) => (check as IDataObject).outcome)).toEqual([
			'replayed',
			'unknown',
		]);
		expect((checksOf(run)[1] as IDataObject).note).toBe(
			'n8n remembers the last 10,000 keys this node got answers for and has forgotten older ones, and the API does not say whether it replayed a request.',
		);
	});

	test('a Retry of an execution killed while the node ran: what the store does not hold is unknown', async () => {
		const { sandbox } = env;
		const workflow = inventoryWorkflow(sheet, todoByColumns());
		// the killed execution sent the first row; n8n kept none of its answers
		await runInventory(sandbox, sheet.slice(0, 1), todoByColumns());
		deduplicationStore.reset();
		const killed = storedAfterCrash(storedAtStart(workflow), {
			finished: ['Items'],
			crashed: 'Inventory',
		});
		const retry = await retryExecution(workflow, killed, {
			credentials: { baseUrl: sandbox.baseUrl, apiToken: TOKENS.fullAccess },
			failedExecutionId: 'exec-killed',
		});
		expect(checksOf(retry).map((check) => (check as IDataObject).outcome)).toEqual([
			'unknown',
			'unknown',
			'unknown',
		]);
		expect((checksOf(retry)[0] as IDataObject).note).toBe(
			'This execution retries one that was stopped while this node ran, before it could record its answers, and the API does not say whether it replayed a request.',
		);
		expect(sandbox.state().todos).toHaveLength(3);
	});
});
