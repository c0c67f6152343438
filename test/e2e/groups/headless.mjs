// Headless group: workflows imported with the n8n CLI and run with `n8n execute --id`, asserted on
// the JSON result and on what the sandbox received.
import {
	applied,
	assertDistinct,
	executeOk,
	lastSeq,
	outputItems,
	requestsSince,
	runOf,
} from '../lib/checks.mjs';
import { HOST_FLAVOR } from '../lib/host.mjs';
import { API_TOKEN } from '../lib/sandbox.mjs';
import { assert, assertEqual } from '../lib/util.mjs';
import * as W from '../lib/workflows.mjs';

export async function headless({ n8n, sandbox }, check) {
	await check('headless: createTodo (2 items), then the same workflow again', async () => {
		await sandbox.reset();
		const wf = W.createTodoWorkflow();
		const r1 = await executeOk(n8n, wf.id);
		const out = outputItems(runOf(r1, 'Create Todo')[0]);
		assertEqual(out.length, 2, 'output items');
		assertEqual(
			out.map((o) => o.todo?.name),
			['Tag and label', 'Replace battery'],
			'to-do names in the output',
		);
		assertEqual(
			out.map((o) => o.asset_id),
			[1001, 1002],
			'asset ids in the output',
		);
		assertEqual(out[0].todo.due_date, '2026-12-31', 'due_date');
		assertEqual(out[0].todo.assigned_to, 102, 'assigned_to');
		let state = await sandbox.state();
		assertEqual(state.todos.length, 2, 'to-dos in the sandbox after one execution');
		const firstKeys = applied(await requestsSince(sandbox, 0)).map((r) => r.key);
		assertEqual(firstKeys.length, 2, 'applied requests after one execution');
		assertDistinct(firstKeys, 'keys of the two items');

		const seq = await lastSeq(sandbox);
		await executeOk(n8n, wf.id);
		state = await sandbox.state();
		assertEqual(
			state.todos.length,
			4,
			'to-dos after running the same workflow again (a new execution creates new records)',
		);
		const secondKeys = applied(await requestsSince(sandbox, seq)).map((r) => r.key);
		assertEqual(secondKeys.length, 2, 'applied requests of the second execution');
		assertDistinct([...firstKeys, ...secondKeys], 'keys across the two executions');
		assertEqual(state.counters.replays, 0, 'replays');
	});

	await check('headless: updateBilling (per_license)', async () => {
		await sandbox.reset();
		const r = await executeOk(n8n, W.updateBillingWorkflow().id);
		const [out] = outputItems(runOf(r, 'Update Billing')[0]);
		assertEqual(out.subscription_id, 2002, 'subscription_id');
		assertEqual(
			[out.state.price_model, out.state.cost, out.state.billing_frequency, out.state.license_count],
			['per_license', '12.50', 'Quarterly', 30],
			'billing state in the output',
		);
		const state = await sandbox.state();
		assertEqual(state.billingChanges.length, 1, 'billing changes in the sandbox');
		const sub = state.subscriptions.find((s) => s.id === 2002);
		assertEqual(
			[sub.price_model, sub.cost, sub.billing_frequency, sub.license_count],
			['per_license', '12.50', 'Quarterly', 30],
			'subscription 2002 in the sandbox',
		);
	});

	await check('headless: recordAcquisition (purchase; lease with custom fields)', async () => {
		await sandbox.reset();
		const r = await executeOk(n8n, W.recordAcquisitionWorkflow().id);
		const [purchase] = outputItems(runOf(r, 'Record Purchase')[0]);
		const [lease] = outputItems(runOf(r, 'Record Lease')[0]);
		assertEqual(purchase.asset_id, 1003, 'purchase asset_id');
		assertEqual(lease.asset_id, 1004, 'lease asset_id');
		const state = await sandbox.state();
		assertEqual(state.acquisitions.length, 2, 'acquisitions in the sandbox');
		const p = state.acquisitions.find((a) => a.asset_id === 1003);
		const l = state.acquisitions.find((a) => a.asset_id === 1004);
		assertEqual(
			[p.event_type_id, p.acquired_from, p.cost, p.price],
			[301, 'ACME Reseller', '999.99', '999.99'],
			'purchase record',
		);
		assertEqual(
			[l.event_type_id, l.payment, l.billing_frequency, l.number_of_payments],
			[302, '100.00', 'monthly', 24],
			'lease record',
		);
		assertEqual(l.field_values, { 401: 'LC-2026-001', 402: 4021 }, 'lease custom field values');
		assertDistinct(
			state.acquisitions.map((a) => a.idempotency_key),
			'keys of the two nodes',
		);
	});

	await check('headless: error output (On Error: Continue using error output)', async () => {
		await sandbox.reset();
		const r = await executeOk(n8n, W.errorOutputWorkflow().id);
		const [run] = runOf(r, 'Create Todo');
		// n8n 1.x routes to the error output only an item whose json is `{ error }` (or with `message`):
		// there the error item `{ error, details }` stays in place on the success output.
		const routed = HOST_FLAVOR === 'n8n2';
		const ok = outputItems(run, 0).filter((o) => o.error === undefined);
		const bad = routed
			? outputItems(run, 1)
			: outputItems(run, 0).filter((o) => o.error !== undefined);
		assertEqual(
			ok.map((o) => o.asset_id),
			[1005, 1006],
			'items on the success output',
		);
		assertEqual(bad.length, 1, routed ? 'items on the error output' : 'error items in place');
		assertEqual(bad[0].details?.status, 404, 'the error item carries its details');
		assert(
			typeof bad[0].error === 'string' || typeof bad[0].error === 'object',
			`the error item carries an error: ${JSON.stringify(bad[0])}`,
		);
		assert(
			!JSON.stringify(bad[0]).includes(API_TOKEN),
			'the API token must not appear in the error item',
		);
		const pairs = (
			routed ? (run.data.main[1] ?? []) : run.data.main[0].filter((i) => i.json.error)
		).map((i) => i.pairedItem);
		assertEqual(
			JSON.stringify(pairs).includes('"item":1'),
			true,
			`the error item is paired with input item 1 (${JSON.stringify(pairs)})`,
		);
		assertEqual(
			outputItems(runOf(r, 'Succeeded')[0]).length,
			routed ? 2 : 3,
			'Succeeded node items',
		);
		if (routed) assertEqual(outputItems(runOf(r, 'Failed')[0]).length, 1, 'Failed node items');
		const state = await sandbox.state();
		assertEqual(state.todos.map((t) => t.asset_id).sort(), [1005, 1006], 'to-dos in the sandbox');
	});

	// n8n routes `{ error, details }` to the error output from 2.36 on; n8n 1.x routes only `{ error }`
	// (checked by the error output check above).
	if (HOST_FLAVOR === 'n8n2')
		await check(
			'headless: the error item on the error output (status, reasons, fate, key, the input row)',
			async () => {
				await sandbox.reset();
				const seq = await lastSeq(sandbox);
				const r = await executeOk(n8n, W.errorDetailsWorkflow().id);
				const [run] = runOf(r, 'Create Todo');
				assertEqual(
					outputItems(run, 0).map((o) => o.asset_id),
					[1005],
					'items on the success output',
				);
				const sent = await requestsSince(sandbox, seq);
				assertEqual(
					sent.map((q) => [q.path, q.status]),
					[
						['/api/v1/assets/1005/todos', 201],
						['/api/v1/assets/1006/todos', 422],
					],
					'requests at the sandbox (row 4 never sent)',
				);
				const [refused, unchecked] = outputItems(run, 1);
				assertEqual(
					[refused.sheetRow, refused.assetId, refused.title, refused.user],
					[3, 1006, 'Assign to a person', 501],
					'the input row merged into the refused row',
				);
				assert(
					/^The Inventory API rejected the input \(422\)/.test(refused.error),
					`error: ${refused.error}`,
				);
				const { status, reasons, fate, idempotencyKey, apiMessage } = refused.details ?? {};
				assertEqual([status, fate, idempotencyKey], [422, 'rejected', sent[1].key], 'details');
				assert(typeof apiMessage === 'string' && apiMessage !== '', `apiMessage: ${apiMessage}`);
				assert(
					typeof reasons?.assigned_to === 'string' && !reasons.assigned_to.includes('[object'),
					`reasons: ${JSON.stringify(reasons)}`,
				);
				assertEqual(
					[
						unchecked.sheetRow,
						unchecked.details?.fate,
						unchecked.details?.idempotencyKey,
						Object.keys(unchecked.details?.reasons ?? {}),
					],
					[4, 'notSent', null, ['name']],
					'the row that failed its check (its reason under the API field, as the 422)',
				);
				assert(/Name must be at most 255 characters/.test(unchecked.error), unchecked.error);
				assertEqual(outputItems(runOf(r, 'Failed')[0]).length, 2, 'Failed node items');
				assert(!JSON.stringify(run).includes(API_TOKEN), 'the API token must not appear');
			},
		);

	await check('headless: the node runs twice in one execution (loop)', async () => {
		await sandbox.reset();
		const r = await executeOk(n8n, W.loopWorkflow().id);
		const runs = runOf(r, 'Create Todo');
		assertEqual(runs.length, 2, 'runs of the Inventory node');
		const state = await sandbox.state();
		assertEqual(
			state.todos.map((t) => t.name),
			['Loop run 1', 'Loop run 2'],
			'to-dos in the sandbox (each once)',
		);
		const keys = applied(await requestsSince(sandbox, 0)).map((r) => r.key);
		assertEqual(keys.length, 2, 'applied requests');
		assertDistinct(keys, 'keys of run 0 and run 1 (same item index)');
	});
}
