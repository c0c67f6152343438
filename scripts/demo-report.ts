/** What `npm run demo` prints: the tables and lines of each run, and the verdict. */
import type { IDataObject } from 'n8n-workflow';

import { loadSeedFile, type SandboxState } from '../sandbox/src';
import type { PassSummary, Purchase } from './demo-types';

type Print = (line: string) => void;

const money = (value: unknown) =>
	Number(value).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
const ids = (value: unknown) =>
	Array.isArray(value) && value.length ? value.map((id) => `#${id}`).join(' ') : '-';

/** Aligned columns; the columns listed in `right` are right-aligned. */
function table(rows: string[][], right: number[] = []): string[] {
	const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
	return rows.map(
		(row) =>
			'  ' +
			row
				.map((cell, column) =>
					right.includes(column) ? cell.padStart(widths[column]) : cell.padEnd(widths[column]),
				)
				.join('  ')
				.trimEnd(),
	);
}

/** Names of the event types in the sandbox's seed file (for the summary only). */
function eventTypeNames(seedFile: string): Map<number, string> {
	const names = new Map<number, string>();
	try {
		for (const organization of loadSeedFile(seedFile).organizations) {
			for (const type of organization.event_types) names.set(type.id, type.name);
		}
	} catch {
		// a custom seed without these names: the summary shows IDs
	}
	return names;
}

export function printIntro(
	print: Print,
	intro: {
		workflowName: string;
		exampleFile: string;
		baseUrl: string;
		apiToken: string;
		executionId: string;
	},
): void {
	print(`Inventory node demo: "${intro.workflowName}" (${intro.exampleFile})`);
	print(`  sandbox    ${intro.baseUrl}  (token ${intro.apiToken})`);
	print(`  execution  ${intro.executionId}`);
	print('');
}

/** Run 1: each purchase with what it created, the billing change, the sandbox's counts. */
export function printFirstRun(
	print: Print,
	{
		purchases,
		first,
		state,
		seedFile,
	}: { purchases: Purchase[]; first: PassSummary; state: SandboxState; seedFile: string },
): void {
	const typeNames = eventTypeNames(seedFile);
	const assetName = (id: unknown) =>
		state.assets.find((asset) => asset.id === Number(id))?.name ?? '';
	print(`Run 1: ${purchases.length} incoming purchases -> ${first.status}`);
	if (first.error) print(`  error: ${first.error}`);
	const rows = [
		['asset', '', 'how', 'acquired from', 'price', 'date', 'acquisition events', 'to-do'],
	];
	purchases.forEach((purchase, index) => {
		const acquisition = first.acquisitions[index] ?? {};
		const todo = (first.todos[index]?.todo ?? null) as IDataObject | null;
		rows.push([
			String(purchase.assetId),
			assetName(purchase.assetId),
			typeNames.get(purchase.eventTypeId) ?? `type ${purchase.eventTypeId}`,
			purchase.vendor,
			money(purchase.price),
			purchase.purchaseDate,
			ids(acquisition.asset_event_ids),
			todo ? `#${todo.id} ${todo.name}` : '-',
		]);
	});
	table(rows, [4]).forEach((line) => print(line));
	const billing = first.billing[0];
	const change = state.billingChanges[state.billingChanges.length - 1];
	if (billing && change) {
		const subscription = state.subscriptions.find((s) => s.id === Number(billing.subscription_id));
		const show = (b: typeof change.before) =>
			`${b.price_model} ${money(b.cost)} ${b.billing_frequency}${b.license_count === null ? '' : `, ${b.license_count} licenses`}`;
		print(
			`  subscription ${billing.subscription_id} ${subscription?.name ?? ''}: billing ${show(change.before)}`,
		);
		print(`    -> ${show(change.after)}  (event ${ids(billing.subscription_event_ids)})`);
	}
	print(
		`  sandbox: ${count(first.applied, 'action')} applied, ${first.replays} replayed; new records: ` +
			`${count(first.newRecords.acquisitions, 'acquisition')}, ${count(first.newRecords.todos, 'to-do')}, ` +
			`${count(first.newRecords.billingChanges, 'billing change')}`,
	);
	print('');
}

/** Run 2: the workflow run again as a new execution, compared with run 1. */
export function printSecondRun(
	print: Print,
	{
		executionId,
		second,
		sameKeys,
		sameResults,
		after,
	}: {
		executionId: string;
		second: PassSummary;
		sameKeys: boolean;
		sameResults: boolean;
		after: SandboxState;
	},
): void {
	print(`Run 2: run again, a new execution (${executionId}) -> ${second.status}`);
	if (second.error) print(`  error: ${second.error}`);
	print(
		`  requests           ${second.requests.length}, with ${sameKeys ? 'the same' : 'DIFFERENT'} Idempotency-Keys as run 1`,
	);
	print(`  replayed           ${second.replays} of ${second.requests.length}`);
	print(`  applied            ${second.applied}`);
	const outcomes = [...second.acquisitions, ...second.todos, ...second.billing].map(
		(json) => (json.repeatCheck as { outcome?: string } | undefined)?.outcome,
	);
	if (outcomes.every((outcome) => outcome !== undefined))
		print(
			`  the node says      ${outcomes.filter((outcome) => outcome === 'replayed').length} of ${outcomes.length} replayed (output field repeatCheck)`,
		);
	print(
		`  responses          ${sameResults ? 'identical to run 1 (same to-do and event IDs)' : 'DIFFERENT from run 1'}`,
	);
	print(
		`  records now        ${count(after.acquisitions.length, 'acquisition')}, ${count(after.todos.length, 'to-do')}, ` +
			`${count(after.billingChanges.length, 'billing change')} (new in run 2: ` +
			`${Object.values(second.newRecords).reduce((sum, n) => sum + n, 0)})`,
	);
	print('');
}

/** OK with what was shown, or FAILED with each problem found. */
export function printVerdict(
	print: Print,
	{
		problems,
		expected,
		expectedActions,
	}: {
		problems: string[];
		expected: { acquisitions: number; todos: number; billing: number };
		expectedActions: number;
	},
): void {
	if (problems.length === 0) {
		print(
			`OK: ${expectedActions} actions applied once (${expected.acquisitions} acquisitions, ${expected.todos} to-dos, ` +
				`1 billing change); running the workflow again (a new execution) replayed all ${expectedActions} and duplicated nothing.`,
		);
	} else {
		print('FAILED:');
		problems.forEach((problem) => print(`  - ${problem}`));
	}
}
