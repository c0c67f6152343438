/**
 * A row whose cells are all empty is no failure: the `;;;;` line a CSV saved by Excel ends with
 * becomes, in n8n's Extract From File, an item with no field (or, with Include Empty Cells, one
 * whose values are all empty text). It is left out: no
 * request, no output item (the other items keep their pairedItem), and an execution hint in the
 * output panel says which items were left out. A Manual Trigger's lone `{}` is no sheet row: it runs.
 */
import type { IDataObject, INodeParameters, IRun } from 'n8n-workflow';

import { nodeOutput } from '../harness/engine';
import { runInventory, sent, useSandbox } from './util';

const env = useSandbox();

/** Create Todo for each row's asset, keyed by the row's PO number. */
const todoByRow: INodeParameters = {
	resource: 'asset',
	operation: 'createTodo',
	repeatProtection: 'columns',
	keyColumns: 'po',
	assetId: '={{ $json.asset }}',
	name: '={{ $json.title }}',
};

const row = (po: string, asset: number) => ({ po, asset, title: `Tag ${po}` });
/** What Extract From File gives for `;;` with Include Empty Cells; without it, `{}`. */
const EMPTY_CSV_ROW = { po: '', asset: '', title: '' };

const hints = (run: IRun) => run.data.resultData.runData.Inventory[0].hints;
const outputRows = (run: IRun, output = 0) =>
	nodeOutput(run, 'Inventory', output).map(({ json, pairedItem }) => [
		(json.todo as IDataObject | undefined)?.name ?? json.error ?? json.body,
		pairedItem,
	]);
const paths = () =>
	sent(env.sandbox).map(({ path, body }) => [path, (body as { name?: unknown }).name]);

describe('rows whose cells are all empty', () => {
	test("the CSV's empty last row is left out and said so; the four rows are booked", async () => {
		const rows = [row('A1', 1001), row('A2', 1002), row('A3', 1003), row('A4', 1004)];
		const run = await runInventory(env.sandbox, [...rows, EMPTY_CSV_ROW], todoByRow);
		expect(run.status).toBe('success');
		expect(paths()).toEqual(
			rows.map(({ asset, title }) => [`/api/v1/assets/${asset}/todos`, title]),
		);
		expect(outputRows(run)).toEqual(rows.map(({ title }, item) => [title, { item }]));
		expect(hints(run)).toEqual([
			{
				message:
					'Item 4 was left out: all its cells are empty (a blank row), so nothing was sent for it and it has no output item.',
				location: 'outputPane',
			},
		]);
	});

	test("Extract From File's default: the empty last row is an item with no field, beside rows with values", async () => {
		const rows = [row('A1', 1001), row('A2', 1002)];
		const run = await runInventory(env.sandbox, [...rows, {}], todoByRow);
		expect(run.status).toBe('success');
		expect(paths()).toEqual([
			['/api/v1/assets/1001/todos', 'Tag A1'],
			['/api/v1/assets/1002/todos', 'Tag A2'],
		]);
		expect(outputRows(run)).toEqual([
			['Tag A1', { item: 0 }],
			['Tag A2', { item: 1 }],
		]);
		expect(hints(run)?.map(({ message }) => message)).toEqual([
			'Item 2 was left out: all its cells are empty (a blank row), so nothing was sent for it and it has no output item.',
		]);
	});

	test('blank rows in the middle (spaces, null) are left out; the rows after them keep their pairing', async () => {
		const rows = [row('A1', 1001), { po: ' ', asset: null, title: '' }, row('A3', 1003)];
		const run = await runInventory(
			env.sandbox,
			[...rows, { po: '\u00A0', asset: '', title: '  ' }],
			todoByRow,
		);
		expect(paths()).toEqual([
			['/api/v1/assets/1001/todos', 'Tag A1'],
			['/api/v1/assets/1003/todos', 'Tag A3'],
		]);
		expect(outputRows(run)).toEqual([
			['Tag A1', { item: 0 }],
			['Tag A3', { item: 2 }],
		]);
		expect(hints(run)).toEqual([
			{
				message:
					'Items 1, 3 were left out: all their cells are empty (blank rows), so nothing was sent for them and they have no output items.',
				location: 'outputPane',
			},
		]);
	});

	test("a Manual Trigger's item has no cells: the node's fixed values are sent, with no key column", async () => {
		const run = await runInventory(env.sandbox, [{}], {
			resource: 'asset',
			operation: 'createTodo',
			repeatProtection: 'columns',
			keyColumns: '',
			assetId: '1001',
			name: 'Tag and label',
		});
		expect(run.status).toBe('success');
		expect(paths()).toEqual([['/api/v1/assets/1001/todos', 'Tag and label']]);
		expect(hints(run)).toEqual([]);
	});

	test('a row with one value is a row: it is checked, and fails naming what is missing and the row', async () => {
		const run = await runInventory(env.sandbox, [{ po: 'A9', asset: '', title: '' }], todoByRow);
		expect(run.data.resultData.error?.message).toBe(
			'Asset ID is required [po A9, item 0]; Name is required [po A9, item 0]',
		);
		expect(paths()).toEqual([]);
	});

	test('only blank rows: nothing is sent, no output item, and the run succeeds', async () => {
		const run = await runInventory(env.sandbox, [EMPTY_CSV_ROW, EMPTY_CSV_ROW], todoByRow);
		expect(run.status).toBe('success');
		expect(paths()).toEqual([]);
		expect(nodeOutput(run, 'Inventory')).toEqual([]);
		expect(hints(run)?.map(({ message }) => message)).toEqual([
			'Items 0, 1 were left out: all their cells are empty (blank rows), so nothing was sent for them and they have no output items.',
		]);
	});

	test('with the error output, a blank row is no error item; a failing row is', async () => {
		const rows = [row('A1', 1001), EMPTY_CSV_ROW, { po: 'A3', asset: 'x', title: 'Tag A3' }];
		const run = await runInventory(env.sandbox, rows, todoByRow, {
			node: { onError: 'continueErrorOutput' },
		});
		expect(outputRows(run, 0)).toEqual([['Tag A1', { item: 0 }]]);
		expect(outputRows(run, 1)).toEqual([
			[
				'Asset ID must be a numeric ID (a whole number of 1 or more), got "x" [po A3, item 2]',
				{ item: 2 },
			],
		]);
	});

	test('a dry run leaves the blank row out too', async () => {
		const run = await runInventory(env.sandbox, [row('A1', 1001), EMPTY_CSV_ROW], {
			...todoByRow,
			options: { dryRun: true },
		});
		expect(outputRows(run)).toEqual([[{ name: 'Tag A1' }, { item: 0 }]]);
		expect(paths()).toEqual([]);
		expect(hints(run)).toHaveLength(1);
	});
});
