/**
 * Stopping on errors, bad input sends nothing: every row's own checks run before the first request,
 * and a row that fails them stops the run with one error listing the failing rows (the first ten)
 * with their reasons. With Continue (either mode) the good rows go and the bad ones become error
 * items, as before.
 */
import type { IDataObject, IRun } from 'n8n-workflow';

import { createTodoParameters } from '../fixtures';
import { nodeOutput } from '../harness/engine';
import { runError, runInventory, sent, useSandbox } from './util';

const env = useSandbox();

/** A purchase sheet: eight lines of one order, each a to-do on asset 1001, row 5 assigned by name. */
const sheet = (badLines: number[], lines = 8): IDataObject[] =>
	Array.from({ length: lines }, (_, index) => ({
		po_number: 'PO-7',
		line: index + 1,
		task: `Tag laptop ${index + 1}`,
		assignee: badLines.includes(index + 1) ? 'Maria' : 102,
	}));

/** Keyed by the sheet's columns. */
const parameters = createTodoParameters({
	repeatProtection: 'columns',
	keyColumns: 'po_number, line',
	name: '={{ $json.task }}',
	additionalFields: { assignedTo: '={{ $json.assignee }}' },
});

/** The refusal of row `item` of the sheet, named by its key values (line is the item's number plus one). */
const refused = (item: number) =>
	`Assigned To (User ID) must be a numeric ID (a whole number of 1 or more), got "Maria" [po_number PO-7, line ${item + 1}, item ${item}]`;
const ADVICE =
	'Correct them and run again, or set On Error to "Continue (using error output)" to send the items that pass and get every failing item, with its reasons, on the error output.';

/** The error that stopped the run: its message, its description, and the item it points to. */
function stopError(run: IRun) {
	const error = run.data.resultData.error as unknown as IDataObject;
	return {
		message: error.message,
		description: error.description,
		itemIndex: (error.context as IDataObject).itemIndex,
	};
}

describe('On Error: Stop Workflow (the default)', () => {
	test('a bad row 5 of 8 stops the run before any row is sent', async () => {
		const { sandbox } = env;
		const run = await runInventory(sandbox, sheet([5]), parameters);
		expect(run.status).toBe('error');
		expect(stopError(run)).toEqual({
			message: `Nothing was sent: 1 of 8 items failed its checks. ${refused(4)}`,
			description: `Nothing was sent. ${refused(4)}. ${ADVICE}`,
			itemIndex: 4,
		});
		expect(sandbox.requests()).toEqual([]);
		expect(sandbox.state().todos).toEqual([]);
	});

	test('twelve bad rows: the first ten are listed, then how many more', async () => {
		const { sandbox } = env;
		const bad = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14];
		const run = await runInventory(sandbox, sheet(bad, 14), parameters, {
			node: {},
		});
		expect(stopError(run)).toEqual({
			message: `Nothing was sent: 12 of 14 items failed their checks. The first: ${refused(2)}`,
			description: `Nothing was sent. ${[2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map(refused).join('; ')}; and 2 more. ${ADVICE}`,
			itemIndex: 2,
		});
		expect(sandbox.requests()).toEqual([]);
	});

	test('a row of its own (one item, as an agent tool calls it) keeps its own error', async () => {
		const { sandbox } = env;
		const run = await runInventory(sandbox, sheet([1], 1), parameters, {
			node: {},
		});
		const error = run.data.resultData.error as unknown as IDataObject;
		expect([error.message, error.description]).toEqual([
			refused(0),
			'Parameter "assignedTo" (API field "assigned_to"). Nothing was sent to the Inventory API for this item.',
		]);
		expect(sandbox.requests()).toEqual([]);
	});

	test('a failure at the API still stops the run after the rows before it, as it says', async () => {
		const { sandbox } = env;
		// Row 3 is assigned to 501, a person, not an organization user: the API refuses it (422).
		const rows = sheet([]).map((row, index) => (index === 2 ? { ...row, assignee: 501 } : row));
		const run = await runInventory(sandbox, rows, parameters);
		expect(run.status).toBe('error');
		expect(sent(sandbox).map(({ body }) => (body as { name: string }).name)).toEqual([
			'Tag laptop 1',
			'Tag laptop 2',
			'Tag laptop 3',
		]);
		expect(run.data.resultData.error?.description).toContain(
			'Before this failure, 2 other rows of this run went through (2 recorded now): items 0, 1.',
		);
	});
});

describe('On Error: Continue', () => {
	const expectedRequests = [0, 1, 2, 3, 5, 6, 7].map((index) => ({
		method: 'POST',
		path: '/api/v1/assets/1001/todos',
		body: { name: `Tag laptop ${index + 1}`, assigned_to: 102 },
	}));
	const errorJson = {
		error: refused(4),
		details: {
			status: null,
			apiMessage: null,
			reasons: {
				assigned_to: 'must be a numeric ID (a whole number of 1 or more), got "Maria"',
			},
			fate: 'notSent',
			fateDescription: 'The request never reached the Inventory API: nothing was applied.',
			idempotencyKey: null,
			description:
				'Parameter "assignedTo" (API field "assigned_to"). Nothing was sent to the Inventory API for this item.',
		},
	};
	const created = (items: Array<{ json: IDataObject; pairedItem?: unknown }>) =>
		items.map(({ json, pairedItem }) => [(json.todo as IDataObject).name, pairedItem]);

	test('regular output: the good rows go, the bad row is an error item in its place', async () => {
		const { sandbox } = env;
		const run = await runInventory(sandbox, sheet([5]), parameters, {
			node: { onError: 'continueRegularOutput' },
		});
		expect(run.status).toBe('success');
		const output = nodeOutput(run, 'Inventory');
		expect(output[4]).toEqual({ json: errorJson, pairedItem: { item: 4 } });
		expect(created(output.filter((_, index) => index !== 4))).toEqual(
			[0, 1, 2, 3, 5, 6, 7].map((index) => [`Tag laptop ${index + 1}`, { item: index }]),
		);
		expect(sent(sandbox).map(({ method, path, body }) => ({ method, path, body }))).toEqual(
			expectedRequests,
		);
	});

	test('error output: the good rows to the success output, the bad row with its columns to the error output', async () => {
		const { sandbox } = env;
		const rows = sheet([5]);
		const run = await runInventory(sandbox, rows, parameters, {
			node: { onError: 'continueErrorOutput' },
		});
		expect(run.status).toBe('success');
		expect(created(nodeOutput(run, 'Inventory', 0))).toEqual(
			[0, 1, 2, 3, 5, 6, 7].map((index) => [`Tag laptop ${index + 1}`, { item: index }]),
		);
		expect(nodeOutput(run, 'Inventory', 1)).toEqual([
			{ json: { ...rows[4], ...errorJson }, pairedItem: { item: 4 } },
		]);
		expect(sent(sandbox).map(({ method, path, body }) => ({ method, path, body }))).toEqual(
			expectedRequests,
		);
	});
});

describe('a row that fails several checks reports every reason at once', () => {
	// A sheet row with an unreadable date and a price still to be decided, beside a good row.
	const rows = [
		{ asset: 1001, date: '2026-01-15', price: '1249.00' },
		{ asset: 1002, date: 'next week', price: 'TBD' },
	];
	const acquisition = {
		resource: 'asset',
		operation: 'recordAcquisition',
		repeatProtection: 'execution',
		assetId: '={{ $json.asset }}',
		eventTypeId: '301',
		additionalFields: { eventDate: '={{ $json.date }}', price: '={{ $json.price }}' },
	};
	const DATE =
		'Event Date must be a date such as 2026-11-20, 20.11.2026, 11/20/2026 or Nov 20, 2026, with an optional time such as 14:30 or 2:30 PM (in the workflow\'s time zone unless it has an offset), got "next week" [item 1]';
	const PRICE = 'Price must be a number, got "TBD" [item 1]';

	test('stopping: the message names both fields, nothing is sent', async () => {
		const { sandbox } = env;
		const run = await runInventory(sandbox, rows, acquisition);
		expect(runError(run)).toEqual({
			message: `Nothing was sent: 1 of 2 items failed its checks. ${DATE}; ${PRICE}`,
			description: `Nothing was sent. ${DATE}; ${PRICE}. Correct them and run again, or set On Error to "Continue (using error output)" to send the items that pass and get every failing item, with its reasons, on the error output.`,
			httpCode: undefined,
		});
		expect(sent(sandbox)).toEqual([]);
	});

	test('continuing: the error item holds both reasons, one per field, and the good row goes', async () => {
		const { sandbox } = env;
		const run = await runInventory(sandbox, rows, acquisition, {
			node: { onError: 'continueErrorOutput' },
		});
		expect(nodeOutput(run, 'Inventory', 1)).toEqual([
			{
				json: {
					...rows[1],
					error: `${DATE}; ${PRICE}`,
					details: {
						status: null,
						apiMessage: null,
						reasons: {
							event_date: DATE.replace(/^Event Date | \[item 1\]$/g, ''),
							price: 'must be a number, got "TBD"',
						},
						fate: 'notSent',
						fateDescription: 'The request never reached the Inventory API: nothing was applied.',
						idempotencyKey: null,
						description:
							'Parameter "eventDate" (API field "event_date"). Parameter "price" (API field "price"). Nothing was sent to the Inventory API for this item.',
					},
				},
				pairedItem: { item: 1 },
			},
		]);
		expect(sent(sandbox).map(({ path, body }) => [path, body])).toEqual([
			[
				'/api/v1/assets/1001/acquisitions',
				{
					event_type_id: 301,
					event_date: expect.stringMatching(/^2026-01-15T00:00:00/),
					price: 1249,
				},
			],
		]);
	});
});
