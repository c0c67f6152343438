/**
 * The `values` part of `npm run bench` (BENCH_ONLY=values): what reading the values of a sheet
 * costs. 10,000 rows of mixed sheet values (dates in every form the node reads, serial day numbers,
 * Unix times, numbers with thousands separators, decimal commas and currency signs) checked by the
 * node's own code (values/checks.ts checkValue, built, as ItemInput calls it), timed beside
 * its target; then the same rows through the node in n8n's engine as a Dry Run (every check, no
 * request), beside a Dry Run of the same rows in the API's own shapes (ISO dates, plain numbers):
 * the difference is what the sheet forms cost inside a real run. Nothing is sent.
 */
import type { IDataObject } from 'n8n-workflow';
import { performance } from 'node:perf_hooks';

import type { CheckContext } from '../nodes/Inventory/values/checkContext';
import type * as ValidationHelpers from '../nodes/Inventory/values/checks';
import { SHEET_AMOUNTS, SHEET_DATES } from '../test/fixtures';
import { fromDist, inventoryWorkflow, nodeOutput, runWorkflow } from '../test/harness/engine';

const { checkValue } = fromDist('./nodes/Inventory/values/checks.js') as typeof ValidationHelpers;

const ROWS = Number(process.env.BENCH_VALUE_ROWS ?? 10_000);
const TARGET_MS = 1000;
const ZONE = 'Europe/Berlin';

/** Event dates as sheets and tools hand them over, each with one reading. */
const DATES: unknown[] = [
	...SHEET_DATES.map(([date]) => date),
	' 11/20/2026\u00a02:30\u202fPM ',
	'2026-11-20 10:00',
	'2026-11-20T10:00:00+01:00',
	46346,
	46346.604166666664,
	'46346',
	1768471200,
	1768471200000,
];

/** Amounts: grouped, decimal commas, currency signs, spaces around, plain. */
const AMOUNTS: unknown[] = [...SHEET_AMOUNTS.map(([amount]) => amount), '1249.5', 1249.5];

/** Counts: grouped, plain. */
const COUNTS: unknown[] = ['1,200', '1 200', '1.200.000', '25', 25];

/** Number custom field values: one reading each. */
const NUMBERS: unknown[] = ['4,5', '1.249,50', '1 249', '4.5', 4.5];

const pick = (values: unknown[], row: number) => values[row % values.length];

export function valueRows(count: number): IDataObject[] {
	return Array.from({ length: count }, (_, row) => ({
		at: pick(DATES, row) as IDataObject[string],
		due: pick(DATES, row + 7) as IDataObject[string],
		cost: pick(AMOUNTS, row) as IDataObject[string],
		seats: pick(COUNTS, row) as IDataObject[string],
		rate: pick(NUMBERS, row) as IDataObject[string],
	}));
}

/** The same rows in the API's own shapes. */
function plainRows(count: number): IDataObject[] {
	return Array.from({ length: count }, () => ({
		at: '2026-11-20T14:30:00+01:00',
		due: '2026-11-20',
		cost: 1249.5,
		seats: 1200,
		rate: 4.5,
	}));
}

const CHECKS: Array<[string, ValidationHelpers.Check]> = [
	['at', { kind: 'timestamp' }],
	['due', { kind: 'date' }],
	['cost', { kind: 'amount' }],
	['seats', { kind: 'integer', min: 1, max: 100_000_000 }],
	['rate', { kind: 'number' }],
];

/** Checks every value of every row as ItemInput does; the milliseconds it took. */
function checkRows(rows: IDataObject[]): number {
	const context: CheckContext = {
		timeZone: ZONE,
		dateOrder: () => undefined,
		source: () => undefined,
	};
	const fail = (problem: string): never => {
		throw new Error(problem);
	};
	const start = performance.now();
	for (const row of rows)
		for (const [column, check] of CHECKS) checkValue(check, row[column], context, fail);
	return performance.now() - start;
}

/** Update Billing of 10,000 rows as a Dry Run in n8n's engine: cost, license count and event date per row. */
async function dryRun(rows: IDataObject[]): Promise<number> {
	const start = performance.now();
	const run = await runWorkflow(
		inventoryWorkflow(
			rows,
			{
				resource: 'subscription',
				operation: 'updateBilling',
				subscriptionId: '2002',
				priceModel: 'per_license',
				cost: '={{ $json.cost }}',
				billingFrequency: 'monthly',
				licenseCount: '={{ $json.seats }}',
				additionalFields: { eventDate: '={{ $json.at }}' },
				options: { dryRun: true },
				repeatProtection: 'execution',
			},
			{ settings: { timezone: ZONE } },
		),
		{ credentials: { baseUrl: 'http://127.0.0.1:9', apiToken: 'inv_bench_dry_run' } },
	);
	const ms = performance.now() - start;
	const output = nodeOutput(run, 'Inventory');
	if (
		run.status !== 'success' ||
		output.length !== rows.length ||
		output.some((item) => item.json.error)
	)
		throw new Error(`the dry run did not check every row: ${run.data.resultData.error?.message}`);
	return ms;
}

const best = async (times: number, measure: () => number | Promise<number>) => {
	let fastest = Number.POSITIVE_INFINITY;
	for (let i = 0; i < times; i++) fastest = Math.min(fastest, await measure());
	return fastest;
};

export async function valuesBench(
	print: (text?: string) => void,
	verdict: (target: string, figure: string, met: boolean) => void,
): Promise<IDataObject> {
	const rows = valueRows(ROWS);
	const plain = plainRows(ROWS);
	const values = ROWS * CHECKS.length;
	print(
		`Reading values: ${ROWS.toLocaleString('en-US')} rows of mixed sheet values (${DATES.length} date forms incl. serial days and Unix times, ${AMOUNTS.length} amount and ${COUNTS.length} count spellings, ${NUMBERS.length} number spellings), ${CHECKS.length} values a row`,
	);
	checkRows(valueRows(1000));
	const checkMs = await best(5, () => checkRows(rows));
	const plainCheckMs = await best(5, () => checkRows(plain));
	print(
		`  checkValue, ${values.toLocaleString('en-US')} values: ${checkMs.toFixed(0)} ms (${((checkMs * 1000) / values).toFixed(1)} µs a value); the same rows in the API's shapes: ${plainCheckMs.toFixed(0)} ms`,
	);
	verdict(
		`checking ${ROWS.toLocaleString('en-US')} rows of mixed sheet values (${values.toLocaleString('en-US')} values, the node's checkValue) < 1 s`,
		`${checkMs.toFixed(0)} ms`,
		checkMs < TARGET_MS,
	);
	await dryRun(plainRows(200));
	const dryRunMs = await best(3, () => dryRun(rows));
	const plainDryRunMs = await best(3, () => dryRun(plain));
	print(
		`  the node in n8n's engine, Dry Run of Update Billing (cost, license count, event date a row): ${dryRunMs.toFixed(0)} ms; the same rows in the API's shapes: ${plainDryRunMs.toFixed(0)} ms (n8n's expressions and the engine included in both)`,
	);
	verdict(
		`a Dry Run of ${ROWS.toLocaleString('en-US')} sheet rows costs < 1 s more than the same rows in the API's shapes`,
		`${dryRunMs.toFixed(0)} vs ${plainDryRunMs.toFixed(0)} ms (+${(dryRunMs - plainDryRunMs).toFixed(0)} ms)`,
		dryRunMs - plainDryRunMs < TARGET_MS,
	);
	print();
	return { rows: ROWS, values, checkMs, plainCheckMs, dryRunMs, plainDryRunMs };
}
