/**
 * Failed rows that say how to fix them: the error item keeps `error` (the message)
 * and carries `details` (status, the API's message, per-field reasons, the request's fate, the key),
 * in both "Continue" modes; n8n routes it to the error output and merges the input row in. And the
 * node's error, without Continue, prints nested reasons readably.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IDataObject } from 'n8n-workflow';

import { createTodoParameters, TOKENS } from '../fixtures';
import { nodeOutput } from '../harness/engine';
import type { SandboxHandle } from '../../sandbox/src';
import { keysSent, runError, runInventory, useSandbox } from './util';

const env = useSandbox();

const FATE = {
	notSent: 'The request never reached the Inventory API: nothing was applied.',
	rejected: 'The Inventory API refused the request: nothing was applied.',
	mayHaveBeenApplied:
		'The request may have reached the Inventory API and been applied; the same Idempotency-Key replays it instead of applying it twice.',
};

const rows = [
	{ asset: 1001, title: 'Label' },
	{ asset: 1901, title: 'Not ours' },
	{ asset: 1002, title: 'Too long '.repeat(40) },
	{ asset: 1003, title: 'Assigned to a person', user: 501 },
];
/** Repeat Protection kept to this execution's retries: the keys are derived. */
const EXECUTION_KEYS = { repeatProtection: 'execution' };
const parameters = createTodoParameters({
	...EXECUTION_KEYS,
	assetId: '={{ $json.asset }}',
	name: '={{ $json.title }}',
	additionalFields: { assignedTo: '={{ $json.user ?? "" }}' },
});

/** The key the sandbox received on a path. */
function keyOn(sandbox: SandboxHandle, path: string): string | undefined {
	return sandbox.requests().find((request) => request.path === path)?.key ?? undefined;
}

function expectedErrorItems(sandbox: SandboxHandle): IDataObject[] {
	const key404 = keyOn(sandbox, '/api/v1/assets/1901/todos');
	const key422 = keyOn(sandbox, '/api/v1/assets/1003/todos');
	return [
		{
			error: "Asset 1901 was not found in this token's organization (404) [item 1]",
			details: {
				status: 404,
				apiMessage: expect.any(String),
				reasons: {},
				fate: 'rejected',
				fateDescription: FATE.rejected,
				idempotencyKey: key404,
				description: expect.stringContaining('Check the ID'),
			},
		},
		{
			error: 'Name must be at most 255 characters, got 360 [item 2]',
			details: {
				status: null,
				apiMessage: null,
				// Named as the API names its 422 reasons (item 3's), so both are fixed the same way.
				reasons: { name: 'must be at most 255 characters, got 360' },
				fate: 'notSent',
				fateDescription: FATE.notSent,
				idempotencyKey: null,
				description: expect.stringContaining(
					'Nothing was sent to the Inventory API for this item.',
				),
			},
		},
		{
			error: expect.stringMatching(/^The Inventory API rejected the input \(422\): .+ \[item 3\]$/),
			details: {
				status: 422,
				apiMessage: expect.any(String),
				reasons: { assigned_to: expect.any(String) },
				fate: 'rejected',
				fateDescription: FATE.rejected,
				idempotencyKey: key422,
				description: expect.stringMatching(/^Fields with problems: assigned_to: .+/),
			},
		},
	];
}

describe('error items', () => {
	test('Continue (regular output): each failed row in place, with status, reasons, fate and key', async () => {
		const { sandbox } = env;
		const run = await runInventory(sandbox, rows, parameters, {
			node: { onError: 'continueRegularOutput' },
		});
		expect(run.status).toBe('success');
		const output = nodeOutput(run, 'Inventory');
		expect(output.map(({ pairedItem }) => pairedItem)).toEqual(rows.map((_, item) => ({ item })));
		expect(output[0].json.asset_id).toBe(1001);
		// Items 1 and 3 were sent (and refused); item 2 failed its check and was never sent.
		// After the 404, once per run, a request without a token asks whether the Base URL is the API (401).
		expect(
			sandbox
				.requests()
				.map(({ path, status }) => [path, status])
				.sort(),
		).toEqual([
			['/api/v1/assets/0/todos', 401],
			['/api/v1/assets/1001/todos', 201],
			['/api/v1/assets/1003/todos', 422],
			['/api/v1/assets/1901/todos', 404],
		]);
		expect(output.slice(1).map(({ json }) => json)).toEqual(expectedErrorItems(sandbox));
	});

	test('Continue (using error output): the same fields, and the input row merged in by n8n', async () => {
		const { sandbox } = env;
		const run = await runInventory(sandbox, rows, parameters, {
			node: { onError: 'continueErrorOutput' },
		});
		expect(run.status).toBe('success');
		expect(nodeOutput(run, 'Inventory', 0).map(({ json }) => json.asset_id)).toEqual([1001]);
		const errors = nodeOutput(run, 'Inventory', 1);
		const expected = expectedErrorItems(sandbox);
		expect(errors.map(({ json }) => json)).toEqual(
			[1, 2, 3].map((row, index) => ({ ...rows[row], ...expected[index] })),
		);
		expect(errors.map(({ pairedItem }) => pairedItem)).toEqual([
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
	});

	test('a server failure may have been applied: the key that replays it is given', async () => {
		const { sandbox } = env;
		sandbox.setFaults({ serverErrorRate: 1, maxFaultsPerKey: 10 });
		const run = await runInventory(
			sandbox,
			[{}],
			createTodoParameters({ ...EXECUTION_KEYS, name: 'Label', options: { maxRetries: 0 } }),
			{ node: { onError: 'continueRegularOutput' } },
		);
		const [{ json }] = nodeOutput(run, 'Inventory');
		expect(json).toEqual({
			error: 'The Inventory API failed (503) after 0 retries [item 0]',
			details: {
				status: 503,
				apiMessage: expect.any(String),
				reasons: {},
				fate: 'mayHaveBeenApplied',
				fateDescription: FATE.mayHaveBeenApplied,
				idempotencyKey: keysSent(sandbox)[0],
				description: expect.any(String),
			},
		});
	});
});

describe("a row that fails the node's own check", () => {
	test('names the field as the API names its reasons: a custom field by dotted path, the record in the path by its parameter', async () => {
		const { sandbox } = env;
		const run = await runInventory(
			sandbox,
			[
				{ asset: 1001, price: 'about 40' },
				{ asset: 'the blue laptop', price: '40' },
			],
			{
				resource: 'asset',
				operation: 'recordAcquisition',
				assetId: '={{ $json.asset }}',
				eventTypeId: '302',
				repeatProtection: 'execution',
				additionalFields: {
					fieldValues: {
						values: [{ fieldId: '402', type: 'number', value: '={{ $json.price }}' }],
					},
				},
			},
			{ node: { onError: 'continueErrorOutput' } },
		);
		expect(sandbox.requests()).toEqual([]);
		expect(
			nodeOutput(run, 'Inventory', 1).map(({ json }) => [
				json.error,
				(json.details as IDataObject).reasons,
				(json.details as IDataObject).fate,
			]),
		).toEqual([
			[
				'Custom Field Values: field 402 must be a number, got "about 40" [item 0]',
				{ 'field_values.402': 'must be a number, got "about 40"' },
				'notSent',
			],
			[
				'Asset ID must be a numeric ID (a whole number of 1 or more), got "the blue laptop" [item 1]',
				{ assetId: 'must be a numeric ID (a whole number of 1 or more), got "the blue laptop"' },
				'notSent',
			],
		]);
	});
});

describe('nested per-field reasons', () => {
	let server: Server;
	let baseUrl: string;
	beforeAll(async () => {
		server = createServer((req, res) => {
			req.resume();
			res.writeHead(422, { 'Content-Type': 'application/json' });
			res.end(
				JSON.stringify({
					message: 'The given data was invalid.',
					errors: {
						name: ['The name field is required.'],
						field_values: { '5': ['must be a date.'], '7': { value: ['is too long.'] } },
					},
				}),
			);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(async () => await new Promise<void>((resolve) => server.close(() => resolve())));

	test('the node stops with them as readable text, not [object Object]', async () => {
		const run = await runInventory(
			{ ...env.sandbox, baseUrl },
			[{}],
			createTodoParameters(EXECUTION_KEYS),
			{},
		);
		expect(runError(run)).toEqual({
			message: 'The Inventory API rejected the input (422): The given data was invalid. [item 0]',
			description:
				'Fields with problems: name: The name field is required.; field_values.5: must be a date.; field_values.7.value: is too long.',
			httpCode: '422',
		});
	});

	test('the error item holds them by dotted path', async () => {
		const run = await runInventory(
			{ ...env.sandbox, baseUrl },
			[{}],
			createTodoParameters(EXECUTION_KEYS),
			{
				node: { onError: 'continueErrorOutput' },
				token: TOKENS.fullAccess,
			},
		);
		const [{ json }] = nodeOutput(run, 'Inventory', 1);
		expect((json.details as IDataObject).reasons).toEqual({
			name: 'The name field is required.',
			'field_values.5': 'must be a date.',
			'field_values.7.value': 'is too long.',
		});
	});
});
