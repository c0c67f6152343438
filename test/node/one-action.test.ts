/**
 * One action, one booking: one step (the node, by its name) doing its operation on one record for one
 * row. Two steps on the same row are two actions; the same step run again, or in a copy of the
 * workflow, is the same action; rows of one run that share a key are booked once when identical and
 * refused before anything is sent when they differ.
 */
import type { IDataObject, INode, IRun } from 'n8n-workflow';
import { v5 as uuidV5Reference } from 'uuid';

import { createTodoParameters, recordAcquisitionParameters, TOKENS } from '../fixtures';
import {
	inventoryNode,
	itemsNode,
	nodeOutput,
	runWorkflow,
	type WorkflowDefinition,
} from '../harness/engine';
import { idempotencyHelpers } from './package-modules';
import { runError, runInventory, useSandbox } from './util';

const { IDEMPOTENCY_NAMESPACE } = idempotencyHelpers;
const env = useSandbox();

const rowKey = (step: string, path: string, rowId: string) =>
	uuidV5Reference(['row', step, 'POST', path, rowId].join('\n'), IDEMPOTENCY_NAMESPACE);

const TODOS = '/api/v1/assets/1001/todos';
const ACQUISITIONS = '/api/v1/assets/1001/acquisitions';
const byPoNumber = { repeatProtection: 'columns', keyColumns: 'po_number' };

/** A sheet of one purchase feeding several Inventory steps side by side. */
function sideBySide(steps: INode[], workflowId = 'wf-intake'): WorkflowDefinition {
	return {
		id: workflowId,
		nodes: [itemsNode([{ po_number: 'PO-7', asset: 1001 }]), ...steps],
		connections: {
			Items: { main: [steps.map(({ name }) => ({ node: name, type: 'main' as const, index: 0 }))] },
		},
	};
}

const todoStep = (name: string, task: string) =>
	inventoryNode(
		name,
		`node-${name}`,
		createTodoParameters({ assetId: '={{ $json.asset }}', name: task, ...byPoNumber }),
	);

const run = async (workflow: WorkflowDefinition, executionId: string) =>
	await runWorkflow(workflow, {
		credentials: { baseUrl: env.sandbox.baseUrl, apiToken: TOKENS.fullAccess },
		executionId,
	});

const outcomeOf = (result: IRun, step: string) =>
	(nodeOutput(result, step)[0].json.repeatCheck as IDataObject).outcome;

describe('two steps on the same row are two actions', () => {
	const steps = [
		todoStep('Tag and label', 'Tag and label'),
		todoStep('Register warranty', 'Register warranty'),
	];

	test('two to-do steps keyed by one column on one asset both book; run again, both replay', async () => {
		const { sandbox } = env;
		const first = await run(sideBySide(steps), 'exec-1');
		const again = await run(sideBySide(steps), 'exec-2');
		expect([first.status, again.status]).toEqual(['success', 'success']);
		const tag = rowKey('Tag and label', TODOS, 'PO-7');
		const warranty = rowKey('Register warranty', TODOS, 'PO-7');
		const sentOf = (from: number) =>
			sandbox
				.requests()
				.slice(from, from + 2)
				.map(({ key, replayed }) => [key, replayed])
				.sort();
		expect(sentOf(0)).toEqual(
			[
				[tag, false],
				[warranty, false],
			].sort(),
		);
		expect(sentOf(2)).toEqual(
			[
				[tag, true],
				[warranty, true],
			].sort(),
		);
		expect(
			sandbox
				.state()
				.todos.map(({ name }) => name)
				.sort(),
		).toEqual(['Register warranty', 'Tag and label']);
		expect(steps.map(({ name }) => outcomeOf(first, name))).toEqual(['recorded', 'recorded']);
		expect(steps.map(({ name }) => outcomeOf(again, name))).toEqual(['replayed', 'replayed']);
	});

	test('a to-do step and an acquisition step on one asset, keyed by the same column, both book', async () => {
		const { sandbox } = env;
		const acquisition = inventoryNode(
			'Record acquisition',
			'node-acquisition',
			recordAcquisitionParameters({ assetId: '={{ $json.asset }}', ...byPoNumber }),
		);
		const result = await run(sideBySide([steps[0], acquisition]), 'exec-1');
		expect(result.status).toBe('success');
		expect(
			sandbox
				.requests()
				.map(({ path, key }) => [path, key])
				.sort(),
		).toEqual(
			[
				[ACQUISITIONS, rowKey('Record acquisition', ACQUISITIONS, 'PO-7')],
				[TODOS, rowKey('Tag and label', TODOS, 'PO-7')],
			].sort(),
		);
		expect(sandbox.state().todos).toHaveLength(1);
		expect(sandbox.state().acquisitions).toHaveLength(1);
	});

	test('the same step in a copy of the workflow is the same action: it replays', async () => {
		const { sandbox } = env;
		await run(sideBySide([steps[0]], 'wf-csv'), 'exec-csv');
		const copy = await run(sideBySide([steps[0]], 'wf-xlsx'), 'exec-xlsx');
		expect(sandbox.requests().map(({ key, replayed }) => [key, replayed])).toEqual([
			[rowKey('Tag and label', TODOS, 'PO-7'), false],
			[rowKey('Tag and label', TODOS, 'PO-7'), true],
		]);
		expect(sandbox.state().todos).toHaveLength(1);
		expect(outcomeOf(copy, 'Tag and label')).toBe('recorded');
	});
});

describe('rows of one run that share a key', () => {
	/** Two lines of one order on one asset, and another order. */
	const lines = [
		{ po_number: 'PO-7', line: 1, item: 'Laptop', asset: 1001 },
		{ po_number: 'PO-7', line: 2, item: 'Dock', asset: 1001 },
		{ po_number: 'PO-8', line: 1, item: 'Monitor', asset: 1002 },
	];
	const todoOfLine = (extra: IDataObject = {}) =>
		createTodoParameters({
			assetId: '={{ $json.asset }}',
			name: '={{ $json.item }}',
			...byPoNumber,
			...extra,
		});
	const refusal = (item: number) =>
		`Key Columns give items 0 and 1 one key ("PO-7"), but they would book different values (name: "Laptop", "Dock"): the API would book the first and refuse the others. To book each, add a column that tells them apart to Key Columns: po_number, line [item ${item}]`;

	test('that differ: nothing is sent, and the error names the rows, the key and the column to add', async () => {
		const { sandbox } = env;
		const result = await runInventory(sandbox, lines, todoOfLine());
		expect(runError(result)).toEqual({
			message: `Nothing was sent: 2 of 3 items failed their checks. The first: ${refusal(0)}`,
			description: `Nothing was sent. ${refusal(0)}; ${refusal(1)}. Correct them and run again, or set On Error to "Continue (using error output)" to send the items that pass and get every failing item, with its reasons, on the error output.`,
			httpCode: undefined,
		});
		expect(sandbox.requests()).toEqual([]);
	});

	test('that differ, with Continue (using error output): both rows fail with the reason, the others are booked', async () => {
		const { sandbox } = env;
		const result = await runInventory(sandbox, lines, todoOfLine(), {
			node: { onError: 'continueErrorOutput' },
		});
		expect(result.status).toBe('success');
		const failed = nodeOutput(result, 'Inventory', 1).map(({ json }) => [
			json.error,
			(json.details as IDataObject).reasons,
			(json.details as IDataObject).fate,
		]);
		expect(failed).toEqual(
			[0, 1].map((item) => [
				refusal(item),
				{ keyColumns: refusal(item).replace(/^Key Columns | \[item \d\]$/g, '') },
				'notSent',
			]),
		);
		expect(sandbox.requests().map(({ path }) => path)).toEqual(['/api/v1/assets/1002/todos']);
	});

	test.each([
		[
			'in a dry run: the same refusal',
			{ options: { dryRun: true } },
			`Dry run: 2 of 3 items would fail. The first: ${refusal(0)}`,
		],
		[
			'with Key Columns left empty: the rows are one action on their record; the fix names a column that tells them apart',
			{ keyColumns: '' },
			'Nothing was sent: 2 of 3 items failed their checks. The first: Key Columns is empty, so items 0 and 1 are one action on Asset 1001, but they would book different values (name: "Laptop", "Dock"): the API would book the first and refuse the others. To book each, name the column that tells the rows apart in Key Columns, e.g. line [item 0]',
		],
		[
			'keyed by a Row Key: the fix adds a column to the expression',
			{ repeatProtection: 'expression', rowKey: '={{ $json.po_number }}' },
			'Nothing was sent: 2 of 3 items failed their checks. The first: Row Key gives items 0 and 1 one key ("PO-7"), but they would book different values (name: "Laptop", "Dock"): the API would book the first and refuse the others. To book each, make the Row Key tell them apart, e.g. by adding {{ $json.line }} to it [item 0]',
		],
	])('that differ, %s', async (_, extra, message) => {
		const { sandbox } = env;
		const result = await runInventory(sandbox, lines, todoOfLine(extra));
		expect(runError(result).message).toBe(message);
		expect(sandbox.requests()).toEqual([]);
	});

	test('keyed by both columns, each line is booked', async () => {
		const { sandbox } = env;
		const result = await runInventory(
			sandbox,
			lines,
			todoOfLine({ keyColumns: 'po_number, line' }),
		);
		expect(result.status).toBe('success');
		expect(
			sandbox
				.state()
				.todos.map(({ name }) => name)
				.sort(),
		).toEqual(['Dock', 'Laptop', 'Monitor']);
	});
});

describe('a key the API saw with other values (409)', () => {
	test('Key Columns left empty: the message says the step acts once per record and names the fix', async () => {
		const { sandbox } = env;
		await runInventory(sandbox, [{}], createTodoParameters({ repeatProtection: 'columns' }));
		const result = await runInventory(
			sandbox,
			[{}],
			createTodoParameters({ repeatProtection: 'columns', name: 'Register warranty' }),
		);
		const key = rowKey('Inventory', TODOS, '');
		expect(runError(result)).toEqual({
			message:
				'The Inventory API refused this row (409): this step booked Asset 1001 for the same row before, with other values, and keeps that booking [item 0]',
			description: `Key Columns is empty, so this step acts once per record and the Idempotency-Key ${key} is the same for every row on Asset 1001; the first booking stands. To book each row, name the input column that identifies a row in Key Columns (e.g. po_number). The API said: The Idempotency-Key has already been used for a different request (method, path or body); use a new key for a new action.`,
			httpCode: '409',
		});
		expect(sandbox.state().todos.map(({ name }) => name)).toEqual(['Tag and label']);
	});
});
