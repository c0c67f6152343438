import type { INode } from 'n8n-workflow';

import {
	createTodoParameters,
	recordAcquisitionParameters,
	TOKENS,
	updateBillingParameters,
} from '../fixtures';
import { nodeOutput } from '../harness/engine';
import { transportAttemptResult, transportErrors } from './package-modules';

import { keysSent, runError, runInventory, useSandbox } from './util';

const env = useSandbox();

const createTodo = createTodoParameters({ name: 'Label' });
const updateBilling = updateBillingParameters({ cost: 100 });
const recordAcquisition = recordAcquisitionParameters();

describe('API errors become NodeApiErrors a user can act on', () => {
	test.each<
		[
			string,
			INode['parameters'],
			string,
			{ message: string; description: string; httpCode: string },
		]
	>([
		[
			"401 gives the API's reason and points at the credential",
			createTodo,
			TOKENS.expired,
			{
				message:
					'The Inventory API rejected the API token (401): Unauthenticated: the token has expired. [item 0]',
				description:
					'The API refuses a token that is missing, expired, revoked or not a customer API token. Open the "Inventory API" credential of this node and enter a valid customer API token of your organization (its Test button checks it).',
				httpCode: '401',
			},
		],
		[
			'403 names the permission of to-dos',
			createTodo,
			TOKENS.noTodos,
			{
				message:
					'The API token lacks the permission this operation needs: assets:todos (403) [item 0]',
				description: expect.stringContaining('Give the token the "assets:todos" permission'),
				httpCode: '403',
			},
		],
		[
			'403 names the permission of billing',
			updateBilling,
			TOKENS.noBilling,
			{
				message:
					'The API token lacks the permission this operation needs: subscriptions:update (403) [item 0]',
				description: expect.stringContaining('"subscriptions:update"'),
				httpCode: '403',
			},
		],
		[
			'403 names the permission of acquisitions',
			recordAcquisition,
			TOKENS.noLifecycle,
			{
				message:
					'The API token lacks the permission this operation needs: assets:lifecycle (403) [item 0]',
				description: expect.stringContaining('"assets:lifecycle"'),
				httpCode: '403',
			},
		],
		[
			'404 names the record',
			{ ...createTodo, assetId: '1901' },
			TOKENS.fullAccess,
			{
				message: "Asset 1901 was not found in this token's organization (404) [item 0]",
				description: expect.stringContaining(
					'records of other organizations are reported as not found',
				),
				httpCode: '404',
			},
		],
		[
			'409 gives the reason of the API',
			{ ...updateBilling, subscriptionId: '2101' },
			TOKENS.fullAccess,
			{
				message: expect.stringMatching(
					/^The Inventory API refused the change \(409\): .+free.+ \[item 0\]$/i,
				),
				description:
					'The record changed or is in a state that does not allow this action. Refresh the record and try again.',
				httpCode: '409',
			},
		],
		[
			'422 lists the per-field errors',
			{ ...createTodo, additionalFields: { assignedTo: '501' } },
			TOKENS.fullAccess,
			{
				message: expect.stringMatching(
					/^The Inventory API rejected the input \(422\): .+ \[item 0\]$/,
				),
				description: expect.stringMatching(/^Fields with problems: assigned_to: .+/),
				httpCode: '422',
			},
		],
	])('%s', async (_case, parameters, token, expected) => {
		const { sandbox } = env;
		const run = await runInventory(sandbox, [{}], parameters, { token });
		expect(run.status).toBe('error');
		expect(runError(run)).toEqual(expected);
		expect(JSON.stringify(run)).not.toContain(token);
	});

	test.each([
		['revoked', TOKENS.revoked, 'Unauthenticated: the token has been revoked.'],
		[
			'not a customer API token',
			TOKENS.personal,
			'Unauthenticated: the token is not a customer API token.',
		],
		['unknown', 'inv_no_such_token', 'Unauthenticated: the token is invalid.'],
	])("401 for a token %s shows the API's own reason", async (_case, token, reason) => {
		const { sandbox } = env;
		const run = await runInventory(sandbox, [{}], createTodo, { token });
		expect(runError(run).message).toBe(
			`The Inventory API rejected the API token (401): ${reason} [item 0]`,
		);
	});

	test('a 401 without a reason of the API says what the API refuses', async () => {
		const { itemError } = transportErrors;
		const result = transportAttemptResult.classifyAnswer({
			statusCode: 401,
			body: { message: '' },
		});
		if (result.kind === 'success') throw new Error('401 is no success');
		const error = itemError(
			{ id: 'n', name: 'Inventory', type: 't', typeVersion: 1, position: [0, 0], parameters: {} },
			'inv_token',
			{
				request: {
					method: 'POST',
					path: '/api/v1/assets/1/todos',
					body: {},
					idempotencyKey: 'k',
					itemIndex: 3,
					itemTag: '[item 3]',
					permission: 'assets:todos',
					record: { kind: 'asset', id: 1 },
				},
				retries: 0,
				result,
				baseUrl: '',
				concurrencyOption: 'Fixed Concurrency',
			},
		);
		expect(error.message).toBe(
			'The Inventory API rejected the API token (401): it is missing, expired, revoked or not a customer API token [item 3]',
		);
	});

	test('409 for an Event Date before the last change of the record shows the date sent and asks for a later one', async () => {
		const { sandbox } = env;
		const run = await runInventory(
			sandbox,
			[{ purchased: '1970-01-01T00:00:00Z' }],
			recordAcquisitionParameters(
				{ assetId: '1001', eventTypeId: '301' },
				{ eventDate: '={{ $json.purchased }}' },
			),
			{ settings: { timezone: 'UTC' } },
		);
		expect(sandbox.requests().map(({ body, status }) => [body, status])).toEqual([
			[{ event_date: '1970-01-01T00:00:00+00:00', event_type_id: 301 }, 409],
		]);
		expect(runError(run)).toEqual({
			message:
				'The Event Date sent, 1970-01-01T00:00:00+00:00, is before the last change of Asset 1001 (2024-03-01T09:00:00.000000Z): the Inventory API refused it (409) [item 0]',
			description:
				"An event cannot be dated before a later change of its record, so refreshing the record changes nothing: give a later Event Date, at or after 2024-03-01T09:00:00.000000Z, or leave Event Date empty to date the event now. A date in 1970 is what a small number read as a Unix time gives, e.g. a spreadsheet's day number (46346 for 2026-11-20) converted with DateTime.fromSeconds: check the expression that gives Event Date.",
			httpCode: '409',
		});

		// The fix it offers works: the date it names is taken.
		sandbox.reset();
		const fixed = await runInventory(
			sandbox,
			[{ purchased: '2024-03-01T09:00:00Z' }],
			recordAcquisitionParameters(
				{ assetId: '1001', eventTypeId: '301' },
				{ eventDate: '={{ $json.purchased }}' },
			),
			{ settings: { timezone: 'UTC' } },
		);
		expect(fixed.status).toBe('success');
		expect(sandbox.requests().map(({ status }) => status)).toEqual([201]);
	});

	test('409 for an Event Date of a subscription, without the 1970 note', async () => {
		const { sandbox } = env;
		const run = await runInventory(
			sandbox,
			[{}],
			updateBillingParameters({ cost: 100 }, { eventDate: '2020-05-01T12:00:00+02:00' }),
			{ settings: { timezone: 'Europe/Berlin' } },
		);
		expect(runError(run).message).toMatch(
			/^The Event Date sent, 2020-05-01T12:00:00\+02:00, is before the last change of Subscription 2001 \(\d{4}-\d{2}-\d{2}T[\d:.]+Z\): the Inventory API refused it \(409\) \[item 0\]$/,
		);
		expect(runError(run).description).not.toContain('1970');
	});

	test('a token pasted with "Bearer " before it (any letter case, spaces around) works', async () => {
		const { sandbox } = env;
		for (const pasted of [
			`Bearer ${TOKENS.fullAccess}`,
			`  bearer   ${TOKENS.fullAccess}  `,
			`BEARER ${TOKENS.fullAccess}\n`,
			` ${TOKENS.fullAccess} `,
		]) {
			const run = await runInventory(sandbox, [{}], createTodo, { token: pasted });
			expect(run.status).toBe('success');
		}
		expect(sandbox.requests().map(({ status }) => status)).toEqual([201, 201, 201, 201]);
	});

	test('409 for a reused key explains what to do', async () => {
		const { sandbox } = env;
		const keyed = { ...createTodo, repeatProtection: 'expression', rowKey: 'intake-4712' };
		await runInventory(sandbox, [{}], createTodoParameters(keyed, { notes: 'Blue box' }));
		const run = await runInventory(
			sandbox,
			[{}],
			createTodoParameters(keyed, { notes: 'Both chargers' }),
		);
		const [key] = keysSent(sandbox);
		expect(runError(run)).toEqual({
			message:
				'A to-do for this row on Asset 1001 was booked before with other values, and the Inventory API keeps that booking (409) [Row Key intake-4712, item 0]',
			description: `If the row was corrected after it was booked, correct the to-do in Inventory: the API does not change a booking. If this is another to-do for the same row, give it an identity of its own: add a part that tells the two apart (e.g. a revision) to the Row Key, or give it another name. The Idempotency-Key ${key} is made of the operation, the record, the to-do's name and the row's key values (Row Key intake-4712); the node's name and the workflow play no part, so any workflow that books this row on Asset 1001 sends it. The API said: The Idempotency-Key has already been used for a different request (method, path or body); use a new key for a new action.`,
			httpCode: '409',
		});
	});

	test('429 says how often it retried', async () => {
		const { sandbox } = env;
		sandbox.setFaults({
			rateLimit: { requests: 0, windowMs: 600_000, retryAfterSeconds: 1 },
			maxFaultsPerKey: 10,
		});
		const run = await runInventory(sandbox, [{}], { ...createTodo, options: { maxRetries: 2 } });
		expect(runError(run)).toEqual({
			message:
				'The Inventory API rate limit was reached (429) and persisted after 2 retries [item 0]',
			description:
				"Lower the node's Max Automatic Concurrency option or raise Max Retries / Max Retry Wait in its options. The API asked to wait 1 s.",
			httpCode: '429',
		});
		expect(sandbox.requests().map(({ status }) => status)).toEqual([429, 429, 429]);
	});

	test.each([
		['automatic concurrency names Max Automatic Concurrency', {}, 'Max Automatic Concurrency'],
		['a fixed concurrency names Fixed Concurrency', { concurrency: 2 }, 'Fixed Concurrency'],
		[
			'Fixed Concurrency added and left empty still names Fixed Concurrency',
			{ concurrency: '' },
			'Fixed Concurrency',
		],
	])('429 advice with %s', async (_case, options, option) => {
		const { sandbox } = env;
		sandbox.setFaults({
			rateLimit: { requests: 0, windowMs: 600_000, retryAfterSeconds: 1 },
			maxFaultsPerKey: 10,
		});
		const run = await runInventory(sandbox, [{}], {
			...createTodo,
			options: { ...options, maxRetries: 0 },
		});
		expect(runError(run).description).toBe(
			`Lower the node's ${option} option or raise Max Retries / Max Retry Wait in its options. The API asked to wait 1 s.`,
		);
	});

	test('a rate limit asking to wait longer than Max Retry Wait fails at once', async () => {
		const { sandbox } = env;
		sandbox.setFaults({ rateLimit: { requests: 0, windowMs: 600_000, retryAfterSeconds: 120 } });
		const run = await runInventory(sandbox, [{}], {
			...createTodo,
			options: { maxRetryWait: 5000 },
		});
		expect(runError(run).message).toBe(
			'The Inventory API rate limit was reached (429) and persisted after 0 retries [item 0]',
		);
		expect(sandbox.requests()).toHaveLength(1);
	});

	test('a network failure says so, how often it retried, and keeps the code in the description', async () => {
		const { sandbox } = env;
		const closed = await import('node:net').then(
			({ createServer }) =>
				new Promise<number>((resolve) => {
					const server = createServer().listen(0, '127.0.0.1', () => {
						const { port } = server.address() as { port: number };
						server.close(() => resolve(port));
					});
				}),
		);
		const run = await runInventory({ ...sandbox, baseUrl: `http://127.0.0.1:${closed}` }, [{}], {
			...createTodo,
			options: { maxRetries: 1, retryDelay: 1 },
		});
		expect(runError(run)).toEqual({
			message:
				'Could not reach the Inventory API after 1 retry: the connection was refused [item 0]',
			description: expect.stringMatching(
				/^Network failure ECONNREFUSED\. Check the Base URL of the credential \(http:\/\/127\.0\.0\.1:\d+\)/,
			),
			httpCode: null,
		});
		expect(runError(run).description).toMatch(
			/ and the network between n8n and the service\. Nothing was sent to the Inventory API; a retry sends the same Idempotency-Key \([0-9a-f-]{36}\)\.$/,
		);
	});

	test('a response lost after the request was sent says it may have been applied, and the key replays it', async () => {
		const { sandbox } = env;
		sandbox.setFaults({ dropAfterApplyRate: 1 });
		const run = await runInventory(sandbox, [{}], {
			...createTodo,
			options: { maxRetries: 0 },
		});
		const [request] = sandbox.requests();
		expect(runError(run)).toEqual({
			message:
				'No answer from the Inventory API after 0 retries: the connection was reset [item 0]',
			description: expect.stringMatching(/^Network failure ECONNRESET\. Check the Base URL/),
			httpCode: null,
		});
		expect(runError(run).description).toMatch(
			new RegExp(
				` The request may have reached the API and been applied\\. The same Idempotency-Key \\(${request.key}\\) replays it, so Retry On Fail or Retry execution is safe: it never creates a second record\\.$`,
			),
		);
		expect(runError(run).description).not.toContain('Nothing was');
		// It was applied indeed: the to-do exists although the node got no answer.
		expect(sandbox.state().todos.map(({ name }) => name)).toEqual(['Label']);
	});

	test('401, 403, 404, 409 and 422 are never retried', async () => {
		const { sandbox } = env;
		await runInventory(sandbox, [{}], createTodo, { token: TOKENS.revoked });
		await runInventory(sandbox, [{}], createTodo, { token: TOKENS.noTodos });
		await runInventory(sandbox, [{}], { ...createTodo, assetId: '99999' });
		await runInventory(sandbox, [{}], { ...updateBilling, subscriptionId: '2101' });
		await runInventory(sandbox, [{}], { ...createTodo, additionalFields: { assignedTo: '501' } });
		// After the 404, a request without a token (the 401) asks whether the Base URL is the API.
		expect(sandbox.requests().map(({ status }) => status)).toEqual([401, 403, 404, 401, 409, 422]);
	});
});

describe('On Error settings', () => {
	const items = [{ asset: 1001 }, { asset: 1901 }, { asset: 1002 }];
	const parameters = { ...createTodo, assetId: '={{ $json.asset }}' };

	test('Continue: a failed item becomes an error item in place, the others succeed', async () => {
		const { sandbox } = env;
		const run = await runInventory(sandbox, items, parameters, {
			node: { onError: 'continueRegularOutput' },
		});
		expect(run.status).toBe('success');
		const output = nodeOutput(run, 'Inventory');
		expect(output.map(({ json, pairedItem }) => [json.asset_id ?? json.error, pairedItem])).toEqual(
			[
				[1001, { item: 0 }],
				["Asset 1901 was not found in this token's organization (404) [item 1]", { item: 1 }],
				[1002, { item: 2 }],
			],
		);
		expect(output[1]).toEqual({
			json: {
				error: "Asset 1901 was not found in this token's organization (404) [item 1]",
				details: expect.objectContaining({ status: 404, fate: 'rejected' }) as unknown,
			},
			pairedItem: { item: 1 },
		});
		expect(sandbox.state().todos.map(({ asset_id }) => asset_id)).toEqual([1001, 1002]);
	});

	test('Continue (using error output): failed items go to the error output', async () => {
		const { sandbox } = env;
		const run = await runInventory(sandbox, items, parameters, {
			node: { onError: 'continueErrorOutput' },
		});
		expect(run.status).toBe('success');
		expect(nodeOutput(run, 'Inventory', 0).map(({ json }) => json.asset_id)).toEqual([1001, 1002]);
		const errors = nodeOutput(run, 'Inventory', 1);
		expect(errors).toHaveLength(1);
		expect(errors[0].json.error).toBe(
			"Asset 1901 was not found in this token's organization (404) [item 1]",
		);
		expect(errors[0].json.asset).toBe(1901);
	});

	test('Stop Workflow: the first failure stops the node with that item named (Concurrency 1: nothing after it is sent)', async () => {
		const { sandbox } = env;
		const run = await runInventory(sandbox, items, { ...parameters, options: { concurrency: 1 } });
		expect(run.status).toBe('error');
		expect(runError(run).message).toBe(
			"Asset 1901 was not found in this token's organization (404) [item 1]",
		);
		expect(sandbox.requests().map(({ path }) => path)).toEqual([
			'/api/v1/assets/1001/todos',
			'/api/v1/assets/1901/todos',
			// Whether the Base URL is the API: a request without a token (the API answers 401).
			'/api/v1/assets/0/todos',
		]);
	});
});

// The credential test: base-url.test.ts.
