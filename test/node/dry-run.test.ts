/**
 * The Dry Run option: every check on every row, the request each would send, nothing sent at all.
 */
import { createTodoParameters, PER_LICENSE_BILLING, updateBillingParameters } from '../fixtures';
import { nodeOutput } from '../harness/engine';
import { keysSent, runError, runInventory, useSandbox, UUID_V5 } from './util';

const env = useSandbox();

const DERIVED_KEY_NOTE =
	'Dry run: nothing was sent. The Idempotency-Key belongs to this execution; a real run is another execution and sends keys of its own.';

const rows = [
	{ asset: 1001, title: 'Label', due: '2026-12-31' },
	{ asset: 1002, title: 'x'.repeat(256), due: '' },
	{ asset: 1003, title: 'Replace battery', due: '' },
];
/** Repeat Protection kept to this execution's retries: derived keys. */
const parameters = (options: Record<string, unknown> = {}) =>
	createTodoParameters({
		repeatProtection: 'execution',
		assetId: '={{ $json.asset }}',
		name: '={{ $json.title }}',
		additionalFields: { dueDate: '={{ $json.due }}' },
		options: { dryRun: true, ...options },
	});

test('each valid row gives the request it would send, the failing row goes to the error output, nothing is sent', async () => {
	const { sandbox } = env;
	const run = await runInventory(sandbox, rows, parameters(), {
		node: { onError: 'continueErrorOutput' },
	});
	expect(run.status).toBe('success');
	const would = nodeOutput(run, 'Inventory', 0);
	expect(would.map(({ json }) => json)).toEqual([
		{
			dryRun: true,
			method: 'POST',
			path: '/api/v1/assets/1001/todos',
			url: `${sandbox.baseUrl}/api/v1/assets/1001/todos`,
			body: { name: 'Label', due_date: '2026-12-31' },
			idempotencyKey: expect.stringMatching(UUID_V5),
			note: DERIVED_KEY_NOTE,
		},
		{
			dryRun: true,
			method: 'POST',
			path: '/api/v1/assets/1003/todos',
			url: `${sandbox.baseUrl}/api/v1/assets/1003/todos`,
			body: { name: 'Replace battery' },
			idempotencyKey: expect.stringMatching(UUID_V5),
			note: DERIVED_KEY_NOTE,
		},
	]);
	expect(would.map(({ pairedItem }) => pairedItem)).toEqual([{ item: 0 }, { item: 2 }]);
	expect(would[0].json.idempotencyKey).not.toBe(would[1].json.idempotencyKey);
	const failed = nodeOutput(run, 'Inventory', 1);
	expect(failed.map(({ json, pairedItem }) => [json, pairedItem])).toEqual([
		[
			{
				...rows[1],
				error: 'Name must be at most 255 characters, got 256 [item 1]',
				details: expect.objectContaining({ fate: 'notSent', status: null, idempotencyKey: null }),
			},
			{ item: 1 },
		],
	]);
	expect(sandbox.requests()).toEqual([]);
	expect(sandbox.state().counters.applied).toBe(0);
});

test('a real run afterwards sends the same bodies, with keys of its own execution', async () => {
	const { sandbox } = env;
	const valid = [rows[0], rows[2]];
	const dry = await runInventory(sandbox, valid, parameters());
	expect(sandbox.requests()).toEqual([]);
	const real = await runInventory(sandbox, valid, parameters({ dryRun: false }), {
		node: {},
	});
	expect(real.status).toBe('success');
	const shown = nodeOutput(dry, 'Inventory').map(({ json }) => json);
	expect(sandbox.requests().map(({ method, path, body }) => ({ method, path, body }))).toEqual(
		shown.map(({ method, path, body }) => ({ method, path, body })),
	);
	const sentKeys = keysSent(sandbox);
	expect(sentKeys).toHaveLength(2);
	for (const { idempotencyKey } of shown) expect(sentKeys).not.toContain(idempotencyKey);
});

test.each([
	["keyed by a row's columns", { repeatProtection: 'columns', keyColumns: 'submissionId' }],
	[
		'keyed by a Row Key expression',
		{ repeatProtection: 'expression', rowKey: '={{ $json.submissionId }}' },
	],
])('%s: the key shown is the one a real run sends', async (_case, protection) => {
	const { sandbox } = env;
	const rows = [{ submissionId: 'S-4711' }];
	const billing = (dryRun: boolean) =>
		updateBillingParameters({
			...PER_LICENSE_BILLING,
			...protection,
			options: { dryRun },
		});
	const dry = await runInventory(sandbox, rows, billing(true));
	const [{ json: shown }] = nodeOutput(dry, 'Inventory');
	expect(shown).toMatchObject({
		method: 'PUT',
		path: `/api/v1/subscriptions/${PER_LICENSE_BILLING.subscriptionId}/billing`,
		note: "Dry run: nothing was sent. The Idempotency-Key comes from this row's data (Repeat Protection's key), so a real run sends this same key.",
	});
	expect(sandbox.requests()).toEqual([]);
	await runInventory(sandbox, rows, billing(false));
	expect(keysSent(sandbox)).toEqual([shown.idempotencyKey]);
});

test('without Continue, the node stops listing every failing row, and nothing is sent', async () => {
	const { sandbox } = env;
	const bad = [rows[1], { ...rows[2], due: '04.12.2026' }, rows[0]];
	const run = await runInventory(sandbox, bad, parameters());
	const error = runError(run);
	expect(error.message).toBe(
		'Dry run: 2 of 3 items would fail. The first: Name must be at most 255 characters, got 256 [item 0]',
	);
	expect(error.description).toMatch(
		/^Nothing was sent\. Name must be at most 255 characters, got 256 \[item 0\]; Due Date .+ \[item 1\]\. Set On Error to "Continue \(using error output\)" to get every failing item with its reasons\.$/,
	);
	expect(sandbox.requests()).toEqual([]);
});

test('the option set alone makes a dry run; without it the row is sent', async () => {
	const { sandbox } = env;
	const run = await runInventory(sandbox, [rows[0]], parameters());
	expect(nodeOutput(run, 'Inventory').map(({ json }) => json.dryRun)).toEqual([true]);
	expect(sandbox.requests()).toEqual([]);
	const withoutOptions = parameters();
	delete withoutOptions.options;
	const real = await runInventory(sandbox, [rows[0]], withoutOptions);
	expect(nodeOutput(real, 'Inventory').map(({ json }) => json.dryRun)).toEqual([undefined]);
	expect(sandbox.requests()).toHaveLength(1);
});

test('only the switch itself turns a dry run on: an expression giving "yes" sends the rows', async () => {
	const { sandbox } = env;
	const run = await runInventory(
		sandbox,
		[rows[0], rows[2]],
		parameters({ dryRun: '={{ "yes" }}' }),
	);
	expect(run.status).toBe('success');
	expect(keysSent(sandbox)).toHaveLength(2);
	expect(nodeOutput(run, 'Inventory').map(({ json }) => json.dryRun)).toEqual([
		undefined,
		undefined,
	]);
});
