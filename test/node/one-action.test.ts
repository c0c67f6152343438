/**
 * One action, one booking (docs/idempotency.md, "What counts as the same action"): one operation on
 * one record for one row, and, for a to-do, its name. The node's name, the workflow and the
 * execution play no part, so a rename, a copy or another workflow booking the same rows changes
 * nothing; where the rows carry no identity (Key Columns left empty), each execution is its own
 * action. Each case of the page's table is a test here, counted by the sandbox's records.
 */
import type { IDataObject, INode, IRun } from 'n8n-workflow';

import {
	createTodoParameters,
	recordAcquisitionParameters,
	TOKENS,
	updateBillingParameters,
} from '../fixtures';
import {
	inventoryNode,
	itemsNode,
	nodeOutput,
	retryExecution,
	runWorkflow,
	storedAfterCrash,
	storedAtStart,
	type WorkflowDefinition,
} from '../harness/engine';
import { acquisitionKey, todoKey } from '../harness/keys';
import { releasedTogether, runError, useSandbox } from './util';

const env = useSandbox();

const byPoNumber = { repeatProtection: 'columns', keyColumns: 'po_number' };

/** Five purchases, each on an asset of its own, keyed by their PO column. */
const purchases = [1001, 1002, 1003, 1004, 1005].map((asset, index) => ({
	po_number: `PO-${index + 1}`,
	asset,
}));

/** A workflow of one input and Inventory steps side by side, each fed the input's rows. */
function workflowOf(
	rows: IDataObject[],
	steps: INode[],
	workflowId = 'wf-intake',
): WorkflowDefinition {
	return {
		id: workflowId,
		nodes: [itemsNode(rows), ...steps],
		connections: {
			Items: { main: [steps.map(({ name }) => ({ node: name, type: 'main' as const, index: 0 }))] },
		},
	};
}

/** A Create Todo step, by default with the name n8n 2.x gives every new one ("Create a todo"). */
const todoStep = (task: string, nodeName = 'Create a todo', nodeId = `node-${nodeName}`) =>
	inventoryNode(
		nodeName,
		nodeId,
		createTodoParameters({ assetId: '={{ $json.asset }}', name: task, ...byPoNumber }),
	);

const acquisitionStep = (nodeName = 'Record acquisition', nodeId = `node-${nodeName}`) =>
	inventoryNode(
		nodeName,
		nodeId,
		recordAcquisitionParameters({ assetId: '={{ $json.asset }}', ...byPoNumber }),
	);

const run = async (workflow: WorkflowDefinition, executionId: string, node: IDataObject = {}) => {
	for (const step of workflow.nodes) if (step.name !== 'Items') Object.assign(step, node);
	return await runWorkflow(workflow, {
		credentials: { baseUrl: env.sandbox.baseUrl, apiToken: TOKENS.fullAccess },
		executionId,
	});
};

const outcomesOf = (result: IRun, step: string) =>
	nodeOutput(result, step).map(({ json }) => (json.repeatCheck as IDataObject).outcome);

const todoNames = () =>
	env.sandbox
		.state()
		.todos.map(({ name }) => name)
		.sort();

describe('what one action is: the cases of docs/idempotency.md', () => {
	test('a node renamed: its rows run again are replayed, nothing is booked twice', async () => {
		const { sandbox } = env;
		const rows = purchases.slice(0, 3);
		await run(workflowOf(rows, [todoStep('Tag and label', 'Create a todo', 'node-a')]), 'exec-1');
		const renamed = await run(
			workflowOf(rows, [todoStep('Tag and label', 'Tag and label', 'node-a')]),
			'exec-2',
		);
		expect(renamed.status).toBe('success');
		expect(sandbox.state().todos).toHaveLength(3);
		expect(sandbox.requests().map(({ key, replayed }) => [key, replayed])).toEqual([
			...rows.map(({ asset, po_number }) => [todoKey(asset, 'Tag and label', po_number), false]),
			...rows.map(({ asset, po_number }) => [todoKey(asset, 'Tag and label', po_number), true]),
		]);
		expect(outcomesOf(renamed, 'Tag and label')).toEqual(['replayed', 'replayed', 'replayed']);
	});

	test('two workflows with the default node name, booking other to-dos for the same rows: both are booked', async () => {
		const { sandbox } = env;
		const a = await run(workflowOf(purchases, [todoStep('Tag and label')], 'wf-tagging'), 'exec-a');
		const b = await run(
			workflowOf(purchases, [todoStep('Register warranty')], 'wf-warranty'),
			'exec-b',
		);
		expect([a.status, b.status]).toEqual(['success', 'success']);
		expect(todoNames()).toEqual([
			...Array<string>(5).fill('Register warranty'),
			...Array<string>(5).fill('Tag and label'),
		]);
		expect(outcomesOf(b, 'Create a todo')).toEqual(Array(5).fill('recorded'));
		expect(sandbox.requests().filter(({ replayed }) => replayed)).toEqual([]);
	});

	test('a copy of the workflow (another workflow, another node id): the same action, replayed', async () => {
		const { sandbox } = env;
		const rows = purchases.slice(0, 2);
		await run(
			workflowOf(rows, [todoStep('Tag and label', 'Create a todo', 'node-a')], 'wf-csv'),
			'e1',
		);
		const copy = await run(
			workflowOf(rows, [todoStep('Tag and label', 'Create a todo', 'node-b')], 'wf-xlsx'),
			'e2',
		);
		expect(sandbox.state().todos).toHaveLength(2);
		expect(sandbox.requests().map(({ replayed }) => replayed)).toEqual([false, false, true, true]);
		// The copy's own repeat check cannot see the other workflow's store (docs: what it cannot see).
		expect(outcomesOf(copy, 'Create a todo')).toEqual(['recorded', 'recorded']);
	});

	test('the same acquisition of one row from a form and from a sheet import: one acquisition', async () => {
		const { sandbox } = env;
		const row = [{ po_number: 'PO-7', asset: 1001 }];
		const form = await run(
			workflowOf(row, [acquisitionStep('Record acquisition')], 'wf-form'),
			'f1',
		);
		const sheet = await run(
			workflowOf(row, [acquisitionStep('Import acquisitions')], 'wf-sheet'),
			's1',
		);
		expect([form.status, sheet.status]).toEqual(['success', 'success']);
		expect(sandbox.state().acquisitions).toHaveLength(1);
		expect(sandbox.requests().map(({ key, replayed }) => [key, replayed])).toEqual([
			[acquisitionKey(1001, 'PO-7'), false],
			[acquisitionKey(1001, 'PO-7'), true],
		]);
	});

	test('two steps on one row: two to-dos side by side, and a to-do beside an acquisition, are each booked; run again, all replay', async () => {
		const { sandbox } = env;
		const row = [{ po_number: 'PO-7', asset: 1001 }];
		const steps = () => [
			todoStep('Tag and label', 'Create a todo'),
			todoStep('Register warranty', 'Create a todo1'),
			acquisitionStep(),
		];
		await run(workflowOf(row, steps()), 'exec-1');
		await run(workflowOf(row, steps()), 'exec-2');
		expect(todoNames()).toEqual(['Register warranty', 'Tag and label']);
		expect(sandbox.state().acquisitions).toHaveLength(1);
		const sent = sandbox.requests().map(({ key, replayed }) => [key, replayed]);
		const keys = [
			todoKey(1001, 'Tag and label', 'PO-7'),
			todoKey(1001, 'Register warranty', 'PO-7'),
			acquisitionKey(1001, 'PO-7'),
		].sort();
		expect(sent.slice(0, 3).sort()).toEqual(keys.map((key) => [key, false]));
		expect(sent.slice(3).sort()).toEqual(keys.map((key) => [key, true]));
	});

	test('a row corrected after it was booked: refused (409), the first booking stands, the message says what to do', async () => {
		const { sandbox } = env;
		const step = (notes: string) =>
			inventoryNode(
				'Create a todo',
				'node-a',
				createTodoParameters({ assetId: '={{ $json.asset }}', ...byPoNumber }, { notes }),
			);
		const row = [{ po_number: 'PO-1009', asset: 1006 }];
		await run(workflowOf(row, [step('Blue box')]), 'exec-1');
		const corrected = await run(workflowOf(row, [step('Both chargers')]), 'exec-2');
		expect(runError(corrected).message).toBe(
			'A to-do for this row on Asset 1006 was booked before with other values, and the Inventory API keeps that booking (409) [po_number PO-1009, item 0]',
		);
		expect(sandbox.state().todos.map(({ notes }) => notes)).toEqual(['Blue box']);
	});

	describe('every row refused so is reported, the first ten and how many more', () => {
		/** Twelve purchases on twelve assets, booked with one notes text, then again with another. */
		const twelve = Array.from({ length: 12 }, (_, index) => ({
			po_number: `PO-${index + 1}`,
			asset: 1001 + index,
		}));
		const workflow = (notes: string) =>
			workflowOf(twelve, [
				inventoryNode(
					'Create a todo',
					'node-a',
					createTodoParameters(
						{ assetId: '={{ $json.asset }}', ...byPoNumber, options: { concurrency: 12 } },
						{ notes },
					),
				),
			]);
		const refusedOf = (index: number) =>
			`A to-do for this row on Asset ${twelve[index].asset} was booked before with other values, and the Inventory API keeps that booking (409) [po_number ${twelve[index].po_number}, item ${index}]`;

		test('in Stop: the error names the first and lists the others', async () => {
			const { sandbox } = env;
			await run(workflow('first'), 'exec-1');
			// Twelve at once, held until all twelve arrived: all are under way when the first is refused.
			releasedTogether(sandbox, 12);
			const again = await run(workflow('second'), 'exec-2');
			const { message, description } = runError(again);
			expect(message).toBe(refusedOf(0));
			const others = Array.from({ length: 10 }, (_, n) => refusedOf(n + 1));
			expect(description?.split('\n\n')[1]).toBe(
				`11 other rows of this run failed too: ${others.join('; ')}; and 1 more.`,
			);
			expect(sandbox.state().todos.map(({ notes }) => notes)).toEqual(Array(12).fill('first'));
		});

		test('in Continue (using error output): an error item for each row', async () => {
			await run(workflow('first'), 'exec-1');
			const again = await run(workflow('second'), 'exec-2', { onError: 'continueErrorOutput' });
			expect(nodeOutput(again, 'Create a todo', 1).map(({ json }) => json.error)).toEqual(
				twelve.map((_, index) => refusedOf(index)),
			);
		});
	});

	describe('rows without identity (a Manual Trigger: Key Columns empty)', () => {
		const billing = (cost: number) =>
			inventoryNode(
				'Update billing',
				'node-billing',
				updateBillingParameters({ cost, repeatProtection: 'columns', keyColumns: '' }),
			);
		const manual = (cost: number): WorkflowDefinition => workflowOf([{}], [billing(cost)]);

		test('Update Billing 100, then 120, then 100 again: each is booked, and the subscription ends at 100', async () => {
			const { sandbox } = env;
			const runs = [
				await run(manual(100), 'exec-1'),
				await run(manual(120), 'exec-2'),
				await run(manual(100), 'exec-3'),
			];
			expect(runs.map(({ status }) => status)).toEqual(['success', 'success', 'success']);
			expect(sandbox.state().billingChanges.map(({ after }) => after.cost)).toEqual([
				'100.00',
				'120.00',
				'100.00',
			]);
			expect(runs.map((result) => outcomesOf(result, 'Update billing'))).toEqual([
				['recorded'],
				['recorded'],
				['recorded'],
			]);
			expect(
				nodeOutput(runs[2], 'Update billing').map(({ json }) => (json.state as IDataObject).cost),
			).toEqual(['100.00']);
			expect(sandbox.requests().map(({ replayed }) => replayed)).toEqual([false, false, false]);
			expect(sandbox.state().subscriptions.find(({ id }) => id === 2001)?.cost).toBe('100.00');
		});

		test('a retry of the same execution still replays', async () => {
			const { sandbox } = env;
			const workflow = manual(120);
			await run(workflow, 'exec-1');
			// n8n was killed while the node ran, after the API booked it: Retry execution replays it.
			const killed = storedAfterCrash(storedAtStart(workflow), {
				finished: ['Items'],
				crashed: 'Update billing',
			});
			const retried = await retryExecution(workflow, killed, {
				credentials: { baseUrl: sandbox.baseUrl, apiToken: TOKENS.fullAccess },
				executionId: 'exec-retry',
				failedExecutionId: 'exec-1',
			});
			expect(retried.status).toBe('success');
			expect(sandbox.state().billingChanges).toHaveLength(1);
			expect(sandbox.requests().map(({ replayed }) => replayed)).toEqual([false, true]);
		});
	});
});

describe('rows of one run that share a key', () => {
	/** Two lines of one order on one asset, and another order. */
	const lines = [
		{ po_number: 'PO-7', line: 1, item: 'Laptop', asset: 1001 },
		{ po_number: 'PO-7', line: 2, item: 'Dock', asset: 1001 },
		{ po_number: 'PO-8', line: 1, item: 'Monitor', asset: 1002 },
	];
	const runLines = async (parameters: IDataObject, node: IDataObject = {}) =>
		await run(
			workflowOf(lines, [
				inventoryNode('Inventory', 'node-inventory', {
					...parameters,
				} as INode['parameters']),
			]),
			'exec-1',
			node,
		);
	const acquisitionOfLine = (extra: IDataObject = {}) =>
		recordAcquisitionParameters(
			{ assetId: '={{ $json.asset }}', ...byPoNumber, ...extra },
			{ description: '={{ $json.item }}' },
		);
	const refusal = (item: number) =>
		`Key Columns give items 0 and 1 one key ("PO-7"), but they would book different values (description: "Laptop", "Dock"): the API would book the first and refuse the others. To book each, add a column that tells them apart to Key Columns: po_number, line [po_number PO-7, item ${item}]`;

	test('two to-dos of one order with different names are two to-dos: both are booked', async () => {
		const { sandbox } = env;
		const result = await runLines(
			createTodoParameters({
				assetId: '={{ $json.asset }}',
				name: '={{ $json.item }}',
				...byPoNumber,
			}),
		);
		expect(result.status).toBe('success');
		expect(todoNames()).toEqual(['Dock', 'Laptop', 'Monitor']);
		expect(
			sandbox
				.requests()
				.map(({ key }) => key)
				.sort(),
		).toEqual(
			[
				todoKey(1001, 'Laptop', 'PO-7'),
				todoKey(1001, 'Dock', 'PO-7'),
				todoKey(1002, 'Monitor', 'PO-8'),
			].sort(),
		);
	});

	test('that differ: nothing is sent, and the error names the rows, the key and the column to add', async () => {
		const { sandbox } = env;
		const result = await runLines(acquisitionOfLine());
		expect(runError(result)).toEqual({
			message: `Nothing was sent: 2 of 3 items failed their checks. The first: ${refusal(0)}`,
			description: `Nothing was sent. ${refusal(0)}; ${refusal(1)}. Correct them and run again, or set On Error to "Continue (using error output)" to send the items that pass and get every failing item, with its reasons, on the error output.`,
			httpCode: undefined,
		});
		expect(sandbox.requests()).toEqual([]);
	});

	test('that differ, with Continue (using error output): both rows fail with the reason, the others are booked', async () => {
		const { sandbox } = env;
		const result = await runLines(acquisitionOfLine(), { onError: 'continueErrorOutput' });
		expect(result.status).toBe('success');
		const failed = nodeOutput(result, 'Inventory', 1).map(({ json }) => [
			json.error,
			(json.details as IDataObject).reasons,
			(json.details as IDataObject).fate,
		]);
		expect(failed).toEqual(
			[0, 1].map((item) => [
				refusal(item),
				{ keyColumns: refusal(item).replace(/^Key Columns | \[po_number PO-7, item \d\]$/g, '') },
				'notSent',
			]),
		);
		expect(sandbox.requests().map(({ path }) => path)).toEqual([
			'/api/v1/assets/1002/acquisitions',
		]);
	});

	test.each([
		[
			'in a dry run: the same refusal',
			{ options: { dryRun: true } },
			`Dry run: 2 of 3 items would fail. The first: ${refusal(0)}`,
		],
		[
			'keyed by a Row Key: the fix adds a column to the expression',
			{ repeatProtection: 'expression', rowKey: '={{ $json.po_number }}' },
			'Nothing was sent: 2 of 3 items failed their checks. The first: Row Key gives items 0 and 1 one key ("PO-7"), but they would book different values (description: "Laptop", "Dock"): the API would book the first and refuse the others. To book each, make the Row Key tell them apart, e.g. by adding {{ $json.line }} to it [Row Key PO-7, item 0]',
		],
	])('that differ, %s', async (_, extra, message) => {
		const { sandbox } = env;
		const result = await runLines(acquisitionOfLine(extra));
		expect(runError(result).message).toBe(message);
		expect(sandbox.requests()).toEqual([]);
	});

	test('keyed by both columns, each line is booked', async () => {
		const { sandbox } = env;
		const result = await runLines(acquisitionOfLine({ keyColumns: 'po_number, line' }));
		expect(result.status).toBe('success');
		expect(sandbox.state().acquisitions).toHaveLength(3);
	});
});
