// Spreadsheet group: purchase rows as n8n's own nodes hand them to Record Acquisition, run the way the
// editor's "Execute workflow" runs them (POST /rest/workflows/:id/run, mode manual).
//   - a CSV as Excel saves it (byte order mark, US dates and amounts) and an .xlsx with real date and
//     number cells, both in the run's ~/.n8n-files, read with Read/Write Files from Disk and Extract
//     From File: the CSV books each good row once and sends nothing for the bad one (error output,
//     with its reasons); run again, every row replays; the .xlsx's same rows replay the CSV's (the
//     same Idempotency-Keys and bodies);
//   - where n8n lets a workflow read files (what docs/spreadsheets.md says);
//   - examples/google-sheets-intake.workflow.json as shipped: its Google Sheets node's pinned rows
//     are what Google returns with n8n's defaults (a manual run uses pinned data, no Google account).
import fs from 'node:fs';
import path from 'node:path';

import { lastSeq, requestsSince } from '../lib/checks.mjs';
import { unflatten } from '../lib/n8n.mjs';
import {
	BAD_ROW,
	CSV_FILE,
	GOOD_ROWS,
	SHEET_TIME_ZONE,
	acquisitionPath,
	expectedBody,
	writeSheetFiles,
} from '../lib/spreadsheets.mjs';
import { REPO_DIR, assert, assertEqual } from '../lib/util.mjs';
import * as W from '../lib/workflows.mjs';

export const GOOGLE_SHEETS_EXAMPLE_FILE = 'examples/google-sheets-intake.workflow.json';
export const GOOGLE_SHEETS_WORKFLOW_ID = 'e2eWfGoogleSheetsExample';
export const CSV_WORKFLOW_ID = 'e2eWfSheetCsv';
export const XLSX_WORKFLOW_ID = 'e2eWfSheetXlsx';
const TILDE_WORKFLOW_ID = 'e2eWfSheetTilde';
const OUTSIDE_WORKFLOW_ID = 'e2eWfSheetOutside';
const NODE = 'Record acquisition';
const OUTSIDE_FILE = 'outside-the-files-folder.csv';

export function googleSheetsExample() {
	return JSON.parse(fs.readFileSync(path.join(REPO_DIR, GOOGLE_SHEETS_EXAMPLE_FILE), 'utf8'));
}

/**
 * The files in the n8n's ~/.n8n-files and the workflows that read them, and the Google Sheets example
 * as shipped (only its Inventory credential pointed at the sandbox). `npm run n8n` imports them too.
 */
export function spreadsheetWorkflows(n8n) {
	const files = writeSheetFiles(n8n.filesDir);
	const sheet = (id, name, filePath, extract) =>
		W.spreadsheetWorkflow({ id, name, filePath, extract, timezone: SHEET_TIME_ZONE });
	return [
		sheet(CSV_WORKFLOW_ID, 'Spreadsheet: purchases.csv (Excel CSV UTF-8)', files.csv, 'csv'),
		sheet(XLSX_WORKFLOW_ID, 'Spreadsheet: purchases.xlsx', files.xlsx, 'xlsx'),
		W.exampleWorkflow(googleSheetsExample(), {
			id: GOOGLE_SHEETS_WORKFLOW_ID,
			name: 'Google Sheets intake (Inventory example)',
		}),
	];
}

/** Two files n8n must not read: by a selector with `~`, and beside ~/.n8n-files. */
export function fileAccessWorkflows(n8n) {
	const outside = path.join(n8n.userFolder, OUTSIDE_FILE);
	fs.copyFileSync(path.join(n8n.filesDir, CSV_FILE), outside);
	const sheet = (id, name, filePath) =>
		W.spreadsheetWorkflow({ id, name, filePath, extract: 'csv', timezone: SHEET_TIME_ZONE });
	return [
		sheet(TILDE_WORKFLOW_ID, 'E2E: a file selector with ~', `~/.n8n-files/${CSV_FILE}`),
		sheet(OUTSIDE_WORKFLOW_ID, 'E2E: a file beside ~/.n8n-files', outside),
	];
}

/** Runs a saved workflow as "Execute workflow" does; the finished execution and its run data. */
async function runManually(api, workflowId) {
	const id = await api.runManually(workflowId, W.TRIGGER);
	const execution = await api.waitForExecution(id);
	return { id, execution, data: await unflatten(execution.data) };
}

/** The items of the Inventory node's success (0) or error (1) output. */
function outputOf(data, output) {
	const [run] = data.resultData.runData[NODE] ?? [];
	assert(run, `no run of "${NODE}": ${JSON.stringify(data.resultData.error ?? {}).slice(0, 1500)}`);
	assert(!run.error, `"${NODE}" failed: ${run.error?.message} ${run.error?.description ?? ''}`);
	return (run.data?.main?.[output] ?? []).map((item) => item.json);
}

/** A JSON value with its object keys sorted: bodies compared whatever the order of their fields. */
const canonical = (value) =>
	Array.isArray(value)
		? value.map(canonical)
		: value && typeof value === 'object'
			? Object.fromEntries(
					Object.keys(value)
						.sort()
						.map((key) => [key, canonical(value[key])]),
				)
			: value;

const byPath = (requests) => [...requests].sort((a, b) => a.path.localeCompare(b.path));
const sortedRows = (rows) => [...rows].sort((a, b) => a.asset_id - b.asset_id);
const showBody = (request) => JSON.stringify(request.body);

/** What the node refused, for a failure's message: each error output item's row and error. */
const refusals = (data) =>
	outputOf(data, 1)
		.map((item) => `\n  asset ${item.asset_id}: ${item.error}`)
		.join('');

/** The requests the sandbox received since `seq`, one per good row, with the bodies they must carry. */
async function assertSentOnce(sandbox, seq, rows, { replayed, what, data }) {
	const requests = byPath(await requestsSince(sandbox, seq));
	assertEqual(
		requests.map((request) => [request.method, request.path]),
		sortedRows(rows).map((row) => ['POST', acquisitionPath(row)]),
		`${what}: one request per good row, none for the bad row (refused:${refusals(data)})`,
	);
	assertEqual(
		requests.map((request) => canonical(request.body)),
		sortedRows(rows).map((row) => canonical(expectedBody(row))),
		`${what}: the bodies (${requests.map(showBody).join(' ')})`,
	);
	assertEqual(
		requests.map((request) => [request.status, request.replayed]),
		rows.map(() => [201, replayed]),
		`${what}: [status, replayed] at the sandbox`,
	);
	return requests;
}

/** The bad row on the error output: the input row, its reason under the API field, nothing sent. */
function assertBadRow(refused, what) {
	assertEqual(refused.length, 1, `${what}: items on the error output`);
	const [row] = refused;
	// the input row is kept: a CSV's cells are text, an .xlsx's number cells numbers
	assertEqual(
		String(row.asset_id),
		String(BAD_ROW.asset_id),
		`${what}: the refused row's asset_id (input row kept)`,
	);
	assertEqual(
		[
			row.details?.fate,
			row.details?.idempotencyKey ?? null,
			Object.keys(row.details?.reasons ?? {}),
		],
		['notSent', null, ['price']],
		`${what}: details of the refused row (${JSON.stringify(row.details)})`,
	);
	assert(
		row.error.includes('TBD') &&
			row.error.includes(`[po_number ${BAD_ROW.po_number}, line ${BAD_ROW.line}, item 2]`),
		`${what}: the error names the value, and the row by its key values and item: ${row.error}`,
	);
}

/**
 * A run after the CSV's first: each good row sent again with the key the CSV booked it with and
 * replayed, the bad row on the error output again, no new records. `output`: what the success
 * output's items must show.
 */
async function assertReplaysCsv({ sandbox, api }, workflowId, csvKeys, { what, keys, output }) {
	assert(csvKeys, 'needs the first CSV check');
	const before = await sandbox.state();
	const seq = await lastSeq(sandbox);
	const { execution, data } = await runManually(api, workflowId);
	assertEqual(execution.status, 'success', 'status of the execution');
	const requests = await assertSentOnce(sandbox, seq, GOOD_ROWS, { replayed: true, what, data });
	assertEqual(
		requests.map((request) => request.key),
		requests.map((request) => csvKeys[request.path]),
		keys,
	);
	assertEqual(outputOf(data, 0).map(output.of), output.expected, output.message);
	assertBadRow(outputOf(data, 1), what);
	const after = await sandbox.state();
	assertEqual(
		[after.acquisitions.length, after.counters.applied],
		[before.acquisitions.length, before.counters.applied],
		'no new records (acquisitions, applied requests)',
	);
}

export async function spreadsheet({ sandbox, api }, check) {
	/** The CSV's first run: the key each good row's request carried, by path. */
	let csvKeys;

	await check(
		'spreadsheet: a CSV as Excel saves it (BOM, US dates and amounts) books each good row once; the bad row ends on the error output',
		async () => {
			await sandbox.reset();
			const seq = await lastSeq(sandbox);
			const { execution, data } = await runManually(api, CSV_WORKFLOW_ID);
			assertEqual(execution.status, 'success', 'status of the execution');
			const requests = await assertSentOnce(sandbox, seq, GOOD_ROWS, {
				replayed: false,
				what: 'first run',
				data,
			});
			csvKeys = Object.fromEntries(requests.map((request) => [request.path, request.key]));
			assertEqual(
				new Set(Object.values(csvKeys)).size,
				GOOD_ROWS.length,
				'distinct Idempotency-Keys',
			);
			const booked = outputOf(data, 0);
			assertEqual(
				booked.map((item) => [item.asset_id, item.repeatCheck?.outcome]),
				GOOD_ROWS.map((row) => [row.asset_id, 'recorded']),
				'success output: one item per good row, in order',
			);
			assertBadRow(outputOf(data, 1), 'first run');
			const state = await sandbox.state();
			assertEqual(
				sortedRows(state.acquisitions).map((a) => [a.asset_id, a.price, a.acquired_from]),
				sortedRows(GOOD_ROWS).map((row) => [row.asset_id, row.price.toFixed(2), row.vendor]),
				'acquisitions in the sandbox',
			);
		},
	);

	await check(
		'spreadsheet: the same CSV run again replays each row (same Idempotency-Keys, no new records)',
		() =>
			assertReplaysCsv({ sandbox, api }, CSV_WORKFLOW_ID, csvKeys, {
				what: 'second run',
				keys: 'the Idempotency-Keys of the first run',
				output: {
					of: (item) => item.repeatCheck?.outcome,
					expected: GOOD_ROWS.map(() => 'replayed'),
					message: 'success output: every row says replayed',
				},
			}),
	);

	await check(
		'spreadsheet: the same rows from an .xlsx (date and number cells) replay the CSV’s',
		() =>
			assertReplaysCsv({ sandbox, api }, XLSX_WORKFLOW_ID, csvKeys, {
				what: 'the .xlsx',
				keys: 'the Idempotency-Keys the CSV rows were booked with',
				output: {
					of: (item) => item.asset_id,
					expected: GOOD_ROWS.map((row) => row.asset_id),
					message: 'success output: one item per good row, in order',
				},
			}),
	);

	await check(
		'spreadsheet: n8n reads files only under ~/.n8n-files, by their absolute path',
		async () => {
			const tilde = await runManually(api, TILDE_WORKFLOW_ID);
			assertEqual(
				[tilde.execution.status, tilde.data.resultData.error?.description],
				['error', `No file matching the selector "~/.n8n-files/${CSV_FILE}" found`],
				'a selector starting with ~ (not expanded)',
			);
			const outside = await runManually(api, OUTSIDE_WORKFLOW_ID);
			assertEqual(
				[outside.execution.status, outside.data.resultData.error?.message],
				['error', 'Access to the file is not allowed.'],
				'a file beside ~/.n8n-files',
			);
		},
	);

	await check(
		`spreadsheet examples: ${GOOGLE_SHEETS_EXAMPLE_FILE} as shipped books each pinned row; run again, each replays`,
		async () => {
			const example = googleSheetsExample();
			const rows = example.pinData['Purchases sheet'].map((item) => item.json);
			const expected = sortedRows(rows).map((row) => ({
				path: acquisitionPath(row),
				// The example leaves the time zone to the n8n instance: UTC here (GMT, +00:00).
				body: canonical({
					event_type_id: 301,
					event_date: GOOGLE_SHEETS_EVENT_DATES[row.purchase_date],
					description: `PO ${row.po_number} line ${row.line}`,
					...(row.vendor === '' ? {} : { acquired_from: row.vendor }),
					price: row.price,
				}),
			}));
			await sandbox.reset();
			let seq = await lastSeq(sandbox);
			const first = await runManually(api, GOOGLE_SHEETS_WORKFLOW_ID);
			assertEqual(first.execution.status, 'success', 'status of the first run');
			const sent = byPath(await requestsSince(sandbox, seq));
			assertEqual(
				sent.map((request) => ({ path: request.path, body: canonical(request.body) })),
				expected,
				`the requests of the first run (refused:${refusals(first.data)})`,
			);
			assertEqual(
				sent.map((request) => [request.status, request.replayed]),
				rows.map(() => [201, false]),
				'first run: [status, replayed]',
			);
			assertEqual(outputOf(first.data, 1), [], 'no row to fix');
			seq = await lastSeq(sandbox);
			const second = await runManually(api, GOOGLE_SHEETS_WORKFLOW_ID);
			assertEqual(second.execution.status, 'success', 'status of the second run');
			const again = byPath(await requestsSince(sandbox, seq));
			assertEqual(
				again.map((request) => [request.key, request.replayed]),
				sent.map((request) => [request.key, true]),
				'second run: the same keys, replayed',
			);
			assertEqual(
				outputOf(second.data, 0).map((item) => item.repeatCheck?.outcome),
				rows.map(() => 'replayed'),
				'second run: every row says replayed',
			);
			assertEqual((await sandbox.state()).acquisitions.length, rows.length, 'acquisitions');
		},
	);
}

/** The example's dates as Google shows them (US locale) and as the node must send them in UTC. */
const GOOGLE_SHEETS_EVENT_DATES = {
	'11/20/2025': '2025-11-20T00:00:00+00:00',
	'9/14/2025 14:30:00': '2025-09-14T14:30:00+00:00',
	'10/28/2025': '2025-10-28T00:00:00+00:00',
};
