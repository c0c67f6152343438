// Examples group: examples/procurement-intake.workflow.json imported as shipped (only its credential
// pointed at the e2e's sandbox) and run with `n8n execute --id`: the real Manual Trigger and Code node,
// then the Inventory nodes (the node's one version). The other example,
// examples/purchase-email-agent.workflow.json, needs a chat model: the agent group imports and runs it.
import fs from 'node:fs';
import path from 'node:path';

import {
	applied,
	assertDistinct,
	executeOk,
	lastSeq,
	outputItems,
	requestsSince,
	runOf,
} from '../lib/checks.mjs';
import { REPO_DIR, assertEqual } from '../lib/util.mjs';
import * as W from '../lib/workflows.mjs';

export const PROCUREMENT_EXAMPLE_FILE = 'examples/procurement-intake.workflow.json';
export const PROCUREMENT_WORKFLOW_ID = 'e2eWfProcurementExample';
/**
 * The same example under another id and name (its own keys in n8n's deduplication store), where the
 * e2e checks that Execute step of one node replays what the whole workflow booked.
 */
export const EXECUTE_STEP_WORKFLOW_ID = 'e2eWfProcurementExecuteStep';
export const EXAMPLE_NODES = ['Record acquisition', 'Create to-do', 'Update billing'];

export function procurementExample() {
	return JSON.parse(fs.readFileSync(path.join(REPO_DIR, PROCUREMENT_EXAMPLE_FILE), 'utf8'));
}

/** The purchases its Code node returns: declared there as one JSON array literal. */
export function purchasesOf(example) {
	const code = example.nodes.find((node) => node.type === 'n8n-nodes-base.code');
	return JSON.parse(/const purchases = (\[[\s\S]*?\n\]);/.exec(code.parameters.jsCode)[1]);
}

export function exampleWorkflows() {
	return [
		W.exampleWorkflow(procurementExample(), {
			id: PROCUREMENT_WORKFLOW_ID,
			name: 'Procurement intake (Inventory example)',
		}),
		W.exampleWorkflow(procurementExample(), {
			id: EXECUTE_STEP_WORKFLOW_ID,
			name: 'Procurement intake (Inventory example), copy to try Execute step',
		}),
	];
}

/** Every output item's repeat check outcome, node by node (`repeatCheck`). */
export const outcomesOf = (itemsByNode) =>
	itemsByNode.map((items) => items.map((item) => item.repeatCheck?.outcome));

export async function examples({ n8n, sandbox }, check) {
	await check(`examples: ${PROCUREMENT_EXAMPLE_FILE} as shipped`, async () => {
		const example = procurementExample();
		assertEqual(
			example.nodes.filter((n) => n.type === W.NODE_TYPE).map((n) => n.typeVersion),
			[1, 1, 1],
			'the Inventory nodes of the example are version 1, the only one',
		);
		const purchases = purchasesOf(example);
		await sandbox.reset();
		const r = await executeOk(n8n, PROCUREMENT_WORKFLOW_ID);
		const acquired = outputItems(runOf(r, 'Record acquisition')[0]);
		const todos = outputItems(runOf(r, 'Create to-do')[0]);
		const billing = outputItems(runOf(r, 'Update billing')[0]);
		assertEqual(
			acquired.map((item) => item.asset_id),
			purchases.map((p) => p.assetId),
			'Record acquisition: one item per purchase, in order',
		);
		assertEqual(
			todos.map((item) => [item.asset_id, item.todo?.name, item.todo?.assigned_to]),
			purchases.map((p) => [p.assetId, 'Tag and label', 103]),
			'Create to-do: one item per purchase, in order',
		);
		assertEqual(
			billing.map((item) => [item.subscription_id, item.state?.license_count]),
			[[2002, 30]],
			'Update billing: once (Execute Once)',
		);

		const state = await sandbox.state();
		const byAsset = (records) => [...records].sort((a, b) => a.asset_id - b.asset_id);
		assertEqual(
			byAsset(state.acquisitions).map((a) => [
				a.asset_id,
				a.event_type_id,
				a.acquired_from,
				a.price,
			]),
			purchases.map((p) => [p.assetId, p.eventTypeId, p.vendor, p.price.toFixed(2)]),
			'acquisitions in the sandbox',
		);
		assertEqual(
			byAsset(state.todos).map((t) => [t.asset_id, t.name]),
			purchases.map((p) => [p.assetId, 'Tag and label']),
			'to-dos in the sandbox',
		);
		assertEqual(state.billingChanges.length, 1, 'billing changes in the sandbox');
		const requests = applied(await sandbox.requests());
		assertEqual(requests.length, 11, 'applied requests (5 acquisitions, 5 to-dos, 1 billing)');
		assertDistinct(
			requests.map((request) => request.key),
			'Idempotency-Keys',
		);
		assertEqual(
			outcomesOf([acquired, todos, billing]),
			[Array(5).fill('recorded'), Array(5).fill('recorded'), ['recorded']],
			'repeatCheck of the first run: recorded',
		);
	});

	await check(
		`examples: ${PROCUREMENT_EXAMPLE_FILE} run again books nothing, says replayed`,
		async () => {
			const before = await sandbox.state();
			const seq = await lastSeq(sandbox);
			const r = await executeOk(n8n, PROCUREMENT_WORKFLOW_ID);
			const outputs = EXAMPLE_NODES.map((name) => outputItems(runOf(r, name)[0]));
			assertEqual(
				outcomesOf(outputs),
				[Array(5).fill('replayed'), Array(5).fill('replayed'), ['replayed']],
				'repeatCheck of the second run (a new execution): replayed',
			);
			const after = await sandbox.state();
			assertEqual(
				[after.acquisitions.length, after.todos.length, after.billingChanges.length],
				[before.acquisitions.length, before.todos.length, before.billingChanges.length],
				'records in the sandbox unchanged (5 acquisitions, 5 to-dos, 1 billing change)',
			);
			const again = await requestsSince(sandbox, seq);
			assertEqual(
				again.map((request) => request.replayed),
				Array(11).fill(true),
				'the sandbox replayed all 11 requests',
			);
		},
	);
}
