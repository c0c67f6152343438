/**
 * `npm run demo`: the example workflow examples/procurement-intake.workflow.json, run twice through
 * n8n's workflow engine (in-process, with the built node) against the sandbox, to show that running
 * it again (a new execution, as clicking Execute workflow again is) replays every action and creates
 * nothing: each row is keyed by its own data.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IConnections, IDataObject, INode, IRun, IWorkflowSettings } from 'n8n-workflow';

import { startSandbox, type SandboxHandle, type SandboxState } from '../sandbox/src';
import { TOKENS } from '../test/fixtures';
import {
	INVENTORY_TYPE,
	ITEMS_TYPE,
	nodeOutput,
	packageRoot,
	runWorkflow,
	type WorkflowDefinition,
} from '../test/harness/engine';
import { printFirstRun, printIntro, printSecondRun, printVerdict } from './demo-report';
import type { PassSummary, Purchase } from './demo-types';

export type { PassSummary, Purchase } from './demo-types';

export const EXAMPLE_FILE = join('examples', 'procurement-intake.workflow.json');
export const DEMO_TOKEN = TOKENS.fullAccess;
export const DEMO_WORKFLOW_ID = 'procurement-intake-demo';

export interface ExampleWorkflow {
	name: string;
	nodes: INode[];
	connections: IConnections;
	settings?: IWorkflowSettings;
}

export function loadExampleWorkflow(file = join(packageRoot(), EXAMPLE_FILE)): ExampleWorkflow {
	return JSON.parse(readFileSync(file, 'utf8')) as ExampleWorkflow;
}

const CODE_TYPE = 'n8n-nodes-base.code';

/** The one Code node of the example: it holds the purchases. */
function purchasesNode(workflow: ExampleWorkflow): INode | undefined {
	const codeNodes = workflow.nodes.filter((node) => node.type === CODE_TYPE);
	return codeNodes.length === 1 ? codeNodes[0] : undefined;
}

/** The name of the example's Inventory node for `operation` (the names live in the example file only). */
function inventoryNodeName(workflow: WorkflowDefinition, operation: string): string {
	const node = workflow.nodes.find(
		(n) => n.type === INVENTORY_TYPE && n.parameters.operation === operation,
	);
	if (!node) throw new Error(`The example workflow has no Inventory node for ${operation}`);
	return node.name;
}

/**
 * The purchases of the Code node: its code declares them as one JSON array literal
 * (`const purchases = [...];`), which is read here as JSON, so the data lives in one place only.
 */
export function purchasesOf(workflow: ExampleWorkflow): Purchase[] {
	const code = purchasesNode(workflow);
	const jsCode = String(code?.parameters.jsCode ?? '');
	const match = /const purchases = (\[[\s\S]*?\n\]);/.exec(jsCode);
	if (!code || !match) {
		throw new Error(
			'The example must have one Code node, declaring `const purchases = [ ...JSON... ];`',
		);
	}
	return JSON.parse(match[1]) as Purchase[];
}

/**
 * The example workflow as the in-process engine can run it: n8n-nodes-base is not installed here, so
 * the Manual Trigger is dropped and the Code node becomes a fixture node (same name, id and position)
 * that emits the same purchases. The Inventory nodes and their connections are kept exactly.
 */
export function inProcessWorkflow(
	workflow: ExampleWorkflow,
	id = DEMO_WORKFLOW_ID,
): WorkflowDefinition {
	const purchases = purchasesOf(workflow);
	const source = purchasesNode(workflow)?.name;
	const triggers = new Set(
		workflow.nodes
			.filter((node) => node.type === 'n8n-nodes-base.manualTrigger')
			.map((node) => node.name),
	);
	const nodes = workflow.nodes
		.filter((node) => !triggers.has(node.name))
		.map((node) =>
			node.name === source
				? {
						...node,
						type: ITEMS_TYPE,
						typeVersion: 1,
						parameters: { items: JSON.stringify(purchases) },
					}
				: node,
		);
	const connections = Object.fromEntries(
		Object.entries(workflow.connections).filter(([source]) => !triggers.has(source)),
	) as IConnections;
	return { id, nodes, connections, settings: workflow.settings };
}

export interface DemoResult {
	ok: boolean;
	problems: string[];
	/** The two executions: the first run, and the second run as a new execution. */
	executionIds: [string, string];
	purchases: Purchase[];
	first: PassSummary;
	second: PassSummary;
	/** Sandbox state after both runs. */
	state: SandboxState;
}

export interface DemoOptions {
	/** A running sandbox; default: one is started (and closed) for the demo. */
	sandbox?: SandboxHandle;
	apiToken?: string;
	/** The two executions' ids; default two new ones. */
	executionIds?: [string, string];
	/** Where the summary goes; default console.log. */
	print?: (line: string) => void;
	/** The workflow, relative to the repository; default the example. */
	workflowFile?: string;
}

function outputOf(run: IRun, node: string): IDataObject[] {
	try {
		return nodeOutput(run, node).map((item) => item.json);
	} catch {
		return [];
	}
}

function runError(run: IRun): string | null {
	const error = run.data.resultData.error;
	if (!error) return null;
	const description = (error as { description?: string }).description;
	return description ? `${error.message} (${description})` : error.message;
}

async function pass(
	definition: WorkflowDefinition,
	sandbox: SandboxHandle,
	apiToken: string,
	executionId: string,
): Promise<PassSummary> {
	const before = sandbox.state();
	const requestsBefore = sandbox.requests().length;
	const run = await runWorkflow(definition, {
		credentials: { baseUrl: sandbox.baseUrl, apiToken },
		executionId,
	});
	const after = sandbox.state();
	const added = (
		key: 'acquisitions' | 'todos' | 'billingChanges' | 'assetEvents' | 'subscriptionEvents',
	) => after[key].length - before[key].length;
	return {
		status: run.status,
		error: runError(run),
		acquisitions: outputOf(run, inventoryNodeName(definition, 'recordAcquisition')),
		todos: outputOf(run, inventoryNodeName(definition, 'createTodo')),
		billing: outputOf(run, inventoryNodeName(definition, 'updateBilling')),
		applied: after.counters.applied - before.counters.applied,
		replays: after.counters.replays - before.counters.replays,
		requests: sandbox.requests().slice(requestsBefore),
		newRecords: {
			acquisitions: added('acquisitions'),
			todos: added('todos'),
			billingChanges: added('billingChanges'),
			assetEvents: added('assetEvents'),
			subscriptionEvents: added('subscriptionEvents'),
		},
	};
}

/** Runs the example workflow twice, as two executions, and checks that the second run only replayed. */
export async function runDemo(options: DemoOptions = {}): Promise<DemoResult> {
	const print = options.print ?? ((line: string) => console.log(line));
	const apiToken = options.apiToken ?? DEMO_TOKEN;
	const executionIds = options.executionIds ?? [`demo-${randomUUID()}`, `demo-${randomUUID()}`];
	const workflowFile = options.workflowFile ?? EXAMPLE_FILE;
	const example = loadExampleWorkflow(join(packageRoot(), workflowFile));
	const purchases = purchasesOf(example);
	const definition = inProcessWorkflow(example);
	const expected = { acquisitions: purchases.length, todos: purchases.length, billing: 1 };
	const expectedActions = expected.acquisitions + expected.todos + expected.billing;

	const seedFile = join(packageRoot(), 'sandbox', 'seed.json');
	const sandbox = options.sandbox ?? (await startSandbox({ port: 0, log: false, seedFile }));
	try {
		printIntro(print, {
			workflowName: example.name,
			exampleFile: workflowFile,
			baseUrl: sandbox.baseUrl,
			apiToken,
			executionId: executionIds[0],
		});

		// Run 1
		const first = await pass(definition, sandbox, apiToken, executionIds[0]);
		printFirstRun(print, { purchases, first, state: sandbox.state(), seedFile });

		// Run 2: a new execution; the rows' own data gives the same Idempotency-Keys
		const second = await pass(definition, sandbox, apiToken, executionIds[1]);
		const keys = (summary: PassSummary) =>
			summary.requests.map((request) => request.key ?? '').sort();
		const sameKeys = JSON.stringify(keys(first)) === JSON.stringify(keys(second));
		// The API's data, without the node's repeat check, which says recorded or replayed.
		const results = (summary: PassSummary) =>
			[summary.acquisitions, summary.todos, summary.billing].map((items) =>
				items.map((json) =>
					Object.fromEntries(Object.entries(json).filter(([k]) => k !== 'repeatCheck')),
				),
			);
		const sameResults = JSON.stringify(results(first)) === JSON.stringify(results(second));
		const after = sandbox.state();
		printSecondRun(print, {
			executionId: executionIds[1],
			second,
			sameKeys,
			sameResults,
			after,
		});

		const problems: string[] = [];
		const check = (condition: boolean, problem: string) => {
			if (!condition) problems.push(problem);
		};
		for (const [label, summary] of [
			['run 1', first],
			['run 2', second],
		] as const) {
			check(
				summary.status === 'success',
				`${label} ended with status ${summary.status}${summary.error ? `: ${summary.error}` : ''}`,
			);
			check(
				summary.acquisitions.length === expected.acquisitions,
				`${label}: ${summary.acquisitions.length} acquisition results, expected ${expected.acquisitions}`,
			);
			check(
				summary.todos.length === expected.todos,
				`${label}: ${summary.todos.length} to-do results, expected ${expected.todos}`,
			);
			check(
				summary.billing.length === expected.billing,
				`${label}: ${summary.billing.length} billing results, expected ${expected.billing}`,
			);
			check(
				summary.requests.length === expectedActions,
				`${label}: ${summary.requests.length} requests, expected ${expectedActions}`,
			);
			check(
				summary.requests.every((r) => r.status !== null && r.status < 300),
				`${label}: a request failed`,
			);
		}
		check(
			first.applied === expectedActions && first.replays === 0,
			`run 1: ${first.applied} applied and ${first.replays} replayed, expected ${expectedActions} and 0`,
		);
		check(
			first.newRecords.acquisitions === expected.acquisitions &&
				first.newRecords.todos === expected.todos &&
				first.newRecords.billingChanges === expected.billing,
			`run 1 created ${JSON.stringify(first.newRecords)}`,
		);
		check(second.applied === 0, `run 2 applied ${second.applied} actions: duplicates`);
		check(
			second.replays === expectedActions,
			`run 2 replayed ${second.replays} of ${expectedActions}`,
		);
		check(
			Object.values(second.newRecords).every((n) => n === 0),
			`run 2 created records: ${JSON.stringify(second.newRecords)}`,
		);
		check(sameKeys, 'run 2 used different Idempotency-Keys');
		check(sameResults, 'run 2 returned different results');

		printVerdict(print, { problems, expected, expectedActions });
		return {
			ok: problems.length === 0,
			problems,
			executionIds,
			purchases,
			first,
			second,
			state: after,
		};
	} finally {
		if (!options.sandbox) await sandbox.close();
	}
}

/** The command line: exit code 0 when the demo showed what it should, 1 otherwise. */
export async function main(): Promise<number> {
	try {
		return (await runDemo()).ok ? 0 : 1;
	} catch (error) {
		console.error(`Demo failed: ${(error as Error).message ?? String(error)}`);
		return 1;
	}
}

if (require.main === module) {
	void main().then((code) => {
		process.exitCode = code;
	});
}
