/**
 * One row, one key, whichever tool read it (Each Row Once, Keyed by Columns): the
 * same rows as Google Sheets hands them (numbers), as a CSV hands them (text, perhaps with spaces)
 * and as Excel's "CSV UTF-8" hands them (a byte order mark before the first column's name) send the
 * exact same Idempotency-Keys, so a second import replays instead of booking again. A key column the
 * input lacks is named with the row's columns (invisible characters escaped), and a column of an
 * earlier node points to the Row Key expression that reads it.
 */
import type { IDataObject, INode, IRun } from 'n8n-workflow';

import { createTodoParameters, recordAcquisitionParameters, TOKENS } from '../fixtures';
import {
	inventoryNode,
	itemsNode,
	nodeOutput,
	runWorkflow,
	type WorkflowDefinition,
} from '../harness/engine';
import { keysSent, runInventory, useSandbox } from './util';

const env = useSandbox();
/** The key of po_number 1001, line 2 on an acquisition of asset 1001 (pinned in unit/row-keys.test.ts). */
const PO_1001_LINE_2 = '3ee2de25-9b0b-5583-8858-be6a23262e4a';
/** The key of po_number 1001, line 3 there. */
const PO_1001_LINE_3 = '03933b71-9ae0-5d54-93b3-186625d36eff';
/** The key of po_number 1001 alone there. */
const PO_1001 = 'ecdf5825-6392-5789-b4f6-53e2e39ec3d8';

const acquisitionByColumns = (keyColumns: string) =>
	recordAcquisitionParameters({
		assetId: '1001',
		eventTypeId: '301',
		repeatProtection: 'columns',
		keyColumns,
	});

const outputJson = (run: IRun) => nodeOutput(run, 'Inventory').map(({ json }) => json);
const outcomes = (run: IRun) =>
	outputJson(run).map((json) => (json.repeatCheck as IDataObject | undefined)?.outcome);

/** The same two sheet rows as each tool hands them. */
const ROWS: Record<string, IDataObject[]> = {
	'Google Sheets (numbers)': [
		{ po_number: 1001, line: 2, qty: 1 },
		{ po_number: 1001, line: 3, qty: 4 },
	],
	'a CSV (text)': [
		{ po_number: '1001', line: '2', qty: '1' },
		{ po_number: '1001', line: '3', qty: '4' },
	],
	'a CSV with spaces around values': [
		{ po_number: ' 1001 ', line: '2 ', qty: '1' },
		{ po_number: '1001\u00a0', line: ' 3', qty: '4' },
	],
	'Excel\'s "CSV UTF-8" (a byte order mark before the first name)': [
		{ '\ufeffpo_number': '1001', line: '2', qty: '1' },
		{ '\ufeffpo_number': '1001', line: '3', qty: '4' },
	],
	'a sheet whose tool writes whole numbers with decimals': [
		{ po_number: '1001.0', line: '2.00', qty: '1' },
		{ po_number: '1001.0', line: '3.00', qty: '4' },
	],
};

describe('the same rows read by any tool send the same keys', () => {
	test.each(Object.keys(ROWS))('keyed by po_number, line: rows from %s', async (tool) => {
		const { sandbox } = env;
		const run = await runInventory(
			sandbox,
			ROWS[tool],
			acquisitionByColumns('po_number, line'),
			{},
		);
		expect(run.status).toBe('success');
		expect(keysSent(sandbox)).toEqual([PO_1001_LINE_2, PO_1001_LINE_3]);
	});

	test('a CSV imported after the same rows came from Google Sheets replays each row, booking nothing again', async () => {
		const { sandbox } = env;
		const parameters = acquisitionByColumns(' po_number , line ');
		const sheets = await runInventory(sandbox, ROWS['Google Sheets (numbers)'], parameters, {
			executionId: 'sheets',
		});
		const csv = await runInventory(
			sandbox,
			ROWS['Excel\'s "CSV UTF-8" (a byte order mark before the first name)'],
			parameters,
			{ executionId: 'csv' },
		);
		expect(sandbox.requests().map(({ key, replayed }) => [key, replayed])).toEqual([
			[PO_1001_LINE_2, false],
			[PO_1001_LINE_3, false],
			[PO_1001_LINE_2, true],
			[PO_1001_LINE_3, true],
		]);
		expect(sandbox.state().acquisitions).toHaveLength(2);
		expect(outcomes(sheets)).toEqual(['recorded', 'recorded']);
		expect(outcomes(csv)).toEqual(['replayed', 'replayed']);
	});

	test('one key column: 1001, "1001", " 1001 " and "1001.0" are one row; "007" and 7 are two', async () => {
		const { sandbox } = env;
		await runInventory(
			sandbox,
			[
				{ po_number: 1001 },
				{ po_number: '1001' },
				{ po_number: ' 1001 ' },
				{ po_number: '1001.0' },
			],
			acquisitionByColumns('po_number'),
			{},
		);
		expect(keysSent(sandbox)).toEqual([PO_1001, PO_1001, PO_1001, PO_1001]);
		expect(sandbox.state().acquisitions).toHaveLength(1);

		sandbox.reset();
		await runInventory(
			sandbox,
			[{ po_number: '007' }, { po_number: 7 }],
			acquisitionByColumns('po_number'),
			{},
		);
		const [zeros, seven] = keysSent(sandbox);
		expect(zeros).not.toBe(seven);
		expect(sandbox.state().acquisitions).toHaveLength(2);
	});

	test('a Row Key reads its value the same way: {{ $json.po_number }} as a number or as text', async () => {
		const { sandbox } = env;
		const parameters = recordAcquisitionParameters({
			assetId: '1001',
			eventTypeId: '301',
			repeatProtection: 'expression',
			rowKey: '={{ $json.po_number }}',
		});
		await runInventory(sandbox, [{ po_number: 1001 }, { po_number: ' 1001.00 ' }], parameters, {});
		expect(keysSent(sandbox)).toEqual([PO_1001, PO_1001]);
	});
});

describe('a key column the row lacks', () => {
	test('is named with the columns the row has, invisible characters escaped; nothing is sent for it', async () => {
		const { sandbox } = env;
		const run = await runInventory(
			sandbox,
			[{ '\ufeffpo': '1001', line: '2' }, { po_number: '\u200b' }],
			acquisitionByColumns('po_number'),
			{ node: { onError: 'continueRegularOutput' } },
		);
		expect(outputJson(run).map(({ error }) => error)).toEqual([
			'Key column "po_number" is missing from this row (this row\'s columns are "\\uFEFFpo", "line"): Key Columns names columns of this node\'s input. For a column of an earlier node, choose Repeat Protection "Each Row Once, Keyed by an Expression" and set Row Key to {{ $(\'Node name\').item.json.po_number }} with the name of the node that has it [item 0]',
			'Key column "po_number" is blank in this row: "\\u200B" [item 1]',
		]);
		expect(sandbox.requests()).toEqual([]);
	});

	test('a name that two columns match once their invisible characters are set aside is refused, naming both', async () => {
		const { sandbox } = env;
		const run = await runInventory(
			sandbox,
			[{ '\ufeffpo_number': '1001', 'po_number\u00a0': '1002' }],
			acquisitionByColumns('po_number'),
			{},
		);
		expect(run.data.resultData.error?.message).toBe(
			'Key column "po_number" matches several columns of this row: "\\uFEFFpo_number", "po_number\\u00A0". Rename one of them in an earlier node, or key the row by an expression (Repeat Protection "Each Row Once, Keyed by an Expression") [item 0]',
		);
		expect(sandbox.requests()).toEqual([]);
	});

	test('a Row Key that is blank for a row shows what it holds', async () => {
		const { sandbox } = env;
		const run = await runInventory(
			sandbox,
			[{ po: '\u200b' }],
			recordAcquisitionParameters({
				assetId: '1001',
				eventTypeId: '301',
				repeatProtection: 'expression',
				rowKey: '={{ $json.po }}',
			}),
			{},
		);
		expect(run.data.resultData.error?.message).toBe(
			'Row Key is empty for this row ("\\u200B"): the row has nothing to be keyed by [item 0]',
		);
		expect(sandbox.requests()).toEqual([]);
	});

	test('a column spelled otherwise is named, with the name to write', async () => {
		const { sandbox } = env;
		const run = await runInventory(
			sandbox,
			[{ 'PO Number': '1001' }],
			acquisitionByColumns('po_number'),
			{},
		);
		expect(run.data.resultData.error?.message).toBe(
			'Key column "po_number" is missing from this row, which has the column "PO Number": write PO Number in Key Columns, as the column is spelled [item 0]',
		);
		expect(sandbox.requests()).toEqual([]);
	});

	describe('a column of an earlier node', () => {
		// Read Sheet → Acquisition → To-do: the acquisition's output has no po_number column.
		const workflow = (todoKey: INode['parameters']): WorkflowDefinition => ({
			nodes: [
				{ ...itemsNode([{ po_number: 1001, asset: 1001 }]), name: 'Read Sheet' },
				inventoryNode('Acquisition', 'acquisition-node', acquisitionByColumns('po_number')),
				inventoryNode(
					'To-do',
					'todo-node',
					createTodoParameters({ assetId: '={{ $json.asset_id }}', ...todoKey }),
				),
			],
			connections: {
				'Read Sheet': { main: [[{ node: 'Acquisition', type: 'main', index: 0 }]] },
				Acquisition: { main: [[{ node: 'To-do', type: 'main', index: 0 }]] },
			},
		});
		const credentials = () => ({ baseUrl: env.sandbox.baseUrl, apiToken: TOKENS.fullAccess });

		test('points to Keyed by an Expression with the expression that reads it; that expression works', async () => {
			const { sandbox } = env;
			const failed = await runWorkflow(
				workflow({ repeatProtection: 'columns', keyColumns: 'po_number' }),
				{ credentials: credentials() },
			);
			expect(failed.data.resultData.error?.message).toBe(
				'Key column "po_number" is missing from this row: it is a column of the earlier node "Read Sheet", and Key Columns names columns of this node\'s input (this row\'s columns are "asset_id", "asset_event_ids", "subscription_event_ids", "todo", "tracker_disconnect_pending" and 2 more). To key by it, choose Repeat Protection "Each Row Once, Keyed by an Expression" and set Row Key to {{ $(\'Read Sheet\').item.json.po_number }} [item 0]',
			);
			expect(sandbox.requests().map(({ path }) => path)).toEqual([
				'/api/v1/assets/1001/acquisitions',
			]);

			// the Row Key the message offers
			const run = await runWorkflow(
				workflow({
					repeatProtection: 'expression',
					rowKey: "={{ $('Read Sheet').item.json.po_number }}",
				}),
				{ credentials: credentials() },
			);
			expect(run.status).toBe('success');
			expect(sandbox.requests().map(({ path, status }) => [path, status])).toEqual([
				['/api/v1/assets/1001/acquisitions', 201],
				['/api/v1/assets/1001/acquisitions', 201],
				['/api/v1/assets/1001/todos', 201],
			]);
			expect(sandbox.state().todos).toHaveLength(1);
		});
	});
});
