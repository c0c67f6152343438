import { randomUUID } from 'node:crypto';
import type { INode } from 'n8n-workflow';
import { v5 as uuidV5Reference } from 'uuid';
import { sleep } from 'n8n-workflow';

import { createTodoParameters, TOKENS } from '../fixtures';
import {
	INVENTORY_TYPE,
	instanceId,
	inventoryWorkflow,
	itemsNode,
	ITEMS_TYPE,
	nodeOutput,
	retryExecution,
	retryStartData,
	runWorkflow,
	storedAfterCrash,
	storedAtStart,
	type WorkflowDefinition,
} from '../harness/engine';
import { timeOutAttempt, UNREACHED_TIMEOUT_MS } from '../harness/attempts';
import { acquisitionKey, todoKey } from '../harness/keys';
import { idempotencyHelpers } from './package-modules';
import {
	holdUntilKeyAnsweredAgain,
	keysSent,
	runError,
	runInventory,
	useAttemptTimeouts,
	useSandbox,
	UUID_V5,
} from './util';

const { deriveIdempotencyKey, IDEMPOTENCY_NAMESPACE, ROOT_EXECUTION_DATA_KEY, uuidV5 } =
	idempotencyHelpers;

const env = useSandbox();
useAttemptTimeouts();

const createTodo = createTodoParameters({ assetId: '={{ $json.asset }}' });

describe('UUID v5', () => {
	test.each([
		['', IDEMPOTENCY_NAMESPACE],
		['n8n\ninstance\nwf\n42\nnode\n0\n0', IDEMPOTENCY_NAMESPACE],
		['ünïcödé ✓ and emoji 🚚', IDEMPOTENCY_NAMESPACE],
		['www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8'],
	])('matches the uuid package for %j', (name, namespace) => {
		expect(uuidV5(name, namespace)).toBe(uuidV5Reference(name, namespace));
	});
});

describe('derived keys', () => {
	test('are UUID v5 of instance, workflow, execution, node, run index and item index', async () => {
		const { sandbox } = env;
		await runInventory(sandbox, [{ asset: 1001 }, { asset: 1002 }], createTodo, {
			executionId: 'exec-1',
		});
		const expected = [0, 1].map((itemIndex) =>
			deriveIdempotencyKey({
				instanceId: instanceId(),
				workflowId: 'wf-test',
				rootExecutionId: 'exec-1',
				nodeId: 'inventory-node-1',
				runIndex: 0,
				itemIndex,
			}),
		);
		expect(keysSent(sandbox)).toEqual(expected);
		expect(expected[0]).toMatch(UUID_V5);
		expect(expected[0]).not.toBe(expected[1]);
	});

	test('differ between executions of the same workflow, so each execution creates anew', async () => {
		const { sandbox } = env;
		await runInventory(sandbox, [{ asset: 1001 }], createTodo, { executionId: 'exec-a' });
		await runInventory(sandbox, [{ asset: 1001 }], createTodo, { executionId: 'exec-b' });
		const [first, second] = keysSent(sandbox);
		expect(first).not.toBe(second);
		expect(sandbox.state().todos).toHaveLength(2);
	});

	test('differ between two runs of the node in one execution', async () => {
		const { sandbox } = env;
		const source = (name: string, asset: number): INode => ({
			id: `source-${name}`,
			name,
			type: ITEMS_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: { items: JSON.stringify([{ asset }]) },
		});
		const workflow: WorkflowDefinition = {
			nodes: [
				source('First batch', 1001),
				source('Second batch', 1001),
				{
					id: 'inventory-node-1',
					name: 'Inventory',
					type: INVENTORY_TYPE,
					typeVersion: 1,
					position: [200, 0],
					parameters: { ...createTodo, repeatProtection: 'execution' },
					credentials: { inventoryApi: { id: 'cred-1', name: 'Inventory sandbox' } },
				},
			],
			connections: {
				'First batch': { main: [[{ node: 'Inventory', type: 'main', index: 0 }]] },
				'Second batch': { main: [[{ node: 'Inventory', type: 'main', index: 0 }]] },
			},
		};
		const run = await runWorkflow(workflow, {
			credentials: { baseUrl: sandbox.baseUrl, apiToken: TOKENS.fullAccess },
			executionId: 'exec-loop',
		});
		expect(run.data.resultData.runData.Inventory).toHaveLength(2);
		const keys = keysSent(sandbox);
		expect(keys).toHaveLength(2);
		expect(new Set(keys).size).toBe(2);
		expect(sandbox.state().todos).toHaveLength(2);
		expect(keys[1]).toBe(
			deriveIdempotencyKey({
				instanceId: instanceId(),
				workflowId: 'wf-test',
				rootExecutionId: 'exec-loop',
				nodeId: 'inventory-node-1',
				runIndex: 1,
				itemIndex: 0,
			}),
		);
	});
});

describe('retries resend the same key', () => {
	test.each([
		['a 5xx before the action is applied', { serverErrorRate: 1, maxFaultsPerKey: 2 }, 3],
		['a connection reset', { resetBeforeApplyRate: 1, maxFaultsPerKey: 2 }, 3],
		[
			'a response lost after the action was applied',
			{ dropAfterApplyRate: 1, maxFaultsPerKey: 1 },
			2,
		],
		// Held until the retry was answered; the node's attempt times out as the hold begins.
		['a response slower than the timeout', { slowResponseRate: 1, maxFaultsPerKey: 1 }, 2],
		[
			'a 429 with Retry-After',
			{ rateLimit: { requests: 1, windowMs: 60_000, retryAfterSeconds: 1 }, maxFaultsPerKey: 1 },
			3,
		],
	])('inside the node, after %s: one record', async (_fault, faults, requests) => {
		const { sandbox } = env;
		sandbox.setFaults(faults);
		const timedOut: boolean[] = [];
		holdUntilKeyAnsweredAgain(env, (held) => timedOut.push(timeOutAttempt(held.key)));
		// The rate limit lets the first request through, so it needs a second item to bite.
		const items = 'rateLimit' in faults ? [{ asset: 1001 }, { asset: 1002 }] : [{ asset: 1001 }];
		const run = await runInventory(sandbox, items, {
			...createTodo,
			options: { maxRetries: 3, retryDelay: 1, timeout: UNREACHED_TIMEOUT_MS },
		});
		expect(run.status).toBe('success');
		expect(timedOut).toEqual('slowResponseRate' in faults ? [true] : []);
		// A slow response is recorded when the sandbox finally answers, after the node gave up on it.
		for (let waited = 0; sandbox.requests().length < requests && waited < 5000; waited += 50) {
			await sleep(50);
		}
		const keys = keysSent(sandbox);
		expect(keys).toHaveLength(requests);
		const itemKeys = new Set(keys);
		expect(sandbox.state().todos).toHaveLength(itemKeys.size);
		expect(nodeOutput(run, 'Inventory')).toHaveLength(itemKeys.size);
	});

	test("with n8n's Retry On Fail of the node: replays, no duplicate", async () => {
		const { sandbox } = env;
		sandbox.setFaults({ serverErrorRate: 1, maxFaultsPerKey: 1 });
		const run = await runInventory(
			sandbox,
			[{ asset: 1001 }],
			{ ...createTodo, options: { maxRetries: 0 } },
			{ node: { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 } },
		);
		expect(run.status).toBe('success');
		const requests = sandbox.requests();
		expect(requests.map(({ status }) => status)).toEqual([503, 201]);
		expect(requests[0].key).toBe(requests[1].key);
		expect(sandbox.state().todos).toHaveLength(1);
	});
});

describe('Retry execution', () => {
	test('reuses the original execution keys: items created before the failure replay, the rest are created', async () => {
		const { sandbox } = env;
		const workflow = inventoryWorkflow([{ asset: 1001 }, { asset: 1002 }, { asset: 1003 }], {
			...createTodo,
			options: { maxRetries: 0 },
		});
		const credentials = { baseUrl: sandbox.baseUrl, apiToken: TOKENS.fullAccess };
		// The third request of the run is rate limited and the node may not retry: the execution fails.
		sandbox.setFaults({ rateLimit: { requests: 2, windowMs: 600_000, retryAfterSeconds: 1 } });
		const failed = await runWorkflow(workflow, { credentials, executionId: 'exec-original' });
		expect(failed.status).toBe('error');
		expect(runError(failed).message).toContain('(429)');
		expect(sandbox.state().todos.map(({ asset_id }) => asset_id)).toEqual([1001, 1002]);
		const firstKeys = keysSent(sandbox);

		sandbox.setFaults(null);
		const retried = await retryExecution(workflow, failed, {
			credentials,
			failedExecutionId: 'exec-original',
			executionId: 'exec-retry',
		});
		expect(retried.status).toBe('success');
		const retryRequests = sandbox.requests().slice(3);
		expect(retryRequests.map(({ key }) => key)).toEqual(firstKeys);
		expect(retryRequests.map(({ replayed }) => replayed)).toEqual([true, true, false]);
		expect(sandbox.state().todos.map(({ asset_id }) => asset_id)).toEqual([1001, 1002, 1003]);
		expect(nodeOutput(retried, 'Inventory').map(({ json }) => json.asset_id)).toEqual([
			1001, 1002, 1003,
		]);
	});
});

describe('Retry of an execution killed while the node ran', () => {
	const assets = (count: number) =>
		Array.from({ length: count }, (_, index) => ({ asset: 1001 + index }));
	/** The keys the node derives for the first `count` items of a run with this root execution. */
	const keysOf = (rootExecutionId: string, count: number, runIndex = 0) =>
		Array.from({ length: count }, (_, itemIndex) =>
			deriveIdempotencyKey({
				instanceId: instanceId(),
				workflowId: 'wf-test',
				rootExecutionId,
				nodeId: 'inventory-node-1',
				runIndex,
				itemIndex,
			}),
		);
	const rootRecorded = (run: { data: { resultData: { metadata?: Record<string, string> } } }) =>
		run.data.resultData.metadata?.[ROOT_EXECUTION_DATA_KEY];
	const createdAssets = () => env.sandbox.state().todos.map(({ asset_id }) => asset_id);

	/**
	 * Runs `execution` until the sandbox's rate limit (`created` requests) stops the node, standing in
	 * for n8n killed at that point; returns what n8n keeps of it (its data when it started, amended).
	 */
	async function crashAfter(created: number, execution: () => Promise<unknown>) {
		env.sandbox.setFaults({ rateLimit: { requests: created, windowMs: 600_000 } });
		await execution();
		env.sandbox.setFaults(null);
	}

	test('derives the keys of the killed execution: what it created is replayed, the rest created', async () => {
		const { sandbox } = env;
		const workflow = inventoryWorkflow(assets(3), { ...createTodo, options: { maxRetries: 0 } });
		const credentials = { baseUrl: sandbox.baseUrl, apiToken: TOKENS.fullAccess };
		await crashAfter(2, () => runWorkflow(workflow, { credentials, executionId: 'exec-killed' }));
		expect(createdAssets()).toEqual([1001, 1002]);
		const killed = storedAfterCrash(storedAtStart(workflow), {
			finished: ['Items'],
			crashed: 'Inventory',
		});
		expect(rootRecorded(killed)).toBeUndefined();

		const retried = await retryExecution(workflow, killed, {
			credentials,
			failedExecutionId: 'exec-killed',
			executionId: 'exec-retry',
		});
		expect(retried.status).toBe('success');
		const retryRequests = sandbox.requests().slice(3);
		expect(retryRequests.map(({ key }) => key)).toEqual(keysOf('exec-killed', 3));
		expect(retryRequests.map(({ replayed }) => replayed)).toEqual([true, true, false]);
		expect(createdAssets()).toEqual([1001, 1002, 1003]);
		expect(rootRecorded(retried)).toBe('exec-killed');
	});

	test("a retry killed in turn keeps the first execution's keys when that one had recorded them", async () => {
		const { sandbox } = env;
		const workflow = inventoryWorkflow(assets(4), { ...createTodo, options: { maxRetries: 0 } });
		const credentials = { baseUrl: sandbox.baseUrl, apiToken: TOKENS.fullAccess };
		sandbox.setFaults({ rateLimit: { requests: 1, windowMs: 600_000 } });
		const failed = await runWorkflow(workflow, { credentials, executionId: 'exec-original' });
		expect(failed.status).toBe('error');
		expect(rootRecorded(failed)).toBe('exec-original');
		await crashAfter(2, () =>
			retryExecution(workflow, failed, {
				credentials,
				failedExecutionId: 'exec-original',
				executionId: 'exec-retry-1',
			}),
		);
		expect(createdAssets()).toEqual([1001, 1002]);
		const killedRetry = storedAfterCrash(retryStartData(failed), {
			finished: [],
			crashed: 'Inventory',
		});

		const retried = await retryExecution(workflow, killedRetry, {
			credentials,
			failedExecutionId: 'exec-retry-1',
			executionId: 'exec-retry-2',
		});
		expect(retried.status).toBe('success');
		const lastRequests = sandbox.requests().slice(-4);
		expect(lastRequests.map(({ key }) => key)).toEqual(keysOf('exec-original', 4));
		expect(lastRequests.map(({ replayed }) => replayed)).toEqual([true, true, false, false]);
		expect(createdAssets()).toEqual([1001, 1002, 1003, 1004]);
		expect(rootRecorded(retried)).toBe('exec-original');
	});

	test('a killed retry of a killed execution: its retry cannot see the first one and creates again', async () => {
		const { sandbox } = env;
		const workflow = inventoryWorkflow(assets(3), { ...createTodo, options: { maxRetries: 0 } });
		const credentials = { baseUrl: sandbox.baseUrl, apiToken: TOKENS.fullAccess };
		await crashAfter(1, () => runWorkflow(workflow, { credentials, executionId: 'exec-killed' }));
		const killed = storedAfterCrash(storedAtStart(workflow), {
			finished: ['Items'],
			crashed: 'Inventory',
		});
		await crashAfter(2, () =>
			retryExecution(workflow, killed, {
				credentials,
				failedExecutionId: 'exec-killed',
				executionId: 'exec-retry-1',
			}),
		);
		expect(createdAssets()).toEqual([1001, 1002]);
		const killedRetry = storedAfterCrash(retryStartData(killed), {
			finished: ['Items'],
			crashed: 'Inventory',
		});
		expect(rootRecorded(killedRetry)).toBeUndefined();

		const retried = await retryExecution(workflow, killedRetry, {
			credentials,
			failedExecutionId: 'exec-retry-1',
			executionId: 'exec-retry-2',
		});
		expect(retried.status).toBe('success');
		expect(
			sandbox
				.requests()
				.slice(-3)
				.map(({ key }) => key),
		).toEqual(keysOf('exec-retry-1', 3));
		expect(createdAssets()).toEqual([1001, 1002, 1001, 1002, 1003]);
	});

	test('n8n killed in a later node: the Retry runs the workflow again from its trigger, the node as its run 1, and creates again', async () => {
		const { sandbox } = env;
		const workflow = inventoryWorkflow(assets(2), { ...createTodo, options: { maxRetries: 0 } });
		workflow.nodes.push({ ...itemsNode([{ done: true }]), id: 'later-node', name: 'Later' });
		workflow.connections.Inventory = { main: [[{ node: 'Later', type: 'main', index: 0 }]] };
		const credentials = { baseUrl: sandbox.baseUrl, apiToken: TOKENS.fullAccess };
		await runWorkflow(workflow, { credentials, executionId: 'exec-killed' });
		const killed = storedAfterCrash(storedAtStart(workflow), {
			finished: ['Items', 'Inventory'],
			crashed: 'Later',
		});

		const retried = await retryExecution(workflow, killed, {
			credentials,
			failedExecutionId: 'exec-killed',
			executionId: 'exec-retry',
		});
		expect(retried.status).toBe('success');
		expect(retried.data.resultData.runData.Inventory).toHaveLength(2);
		expect(
			sandbox
				.requests()
				.slice(2)
				.map(({ key }) => key),
		).toEqual(keysOf('exec-killed', 2, 1));
		expect(createdAssets()).toEqual([1001, 1002, 1001, 1002]);
	});

	test("without n8n's retryOf (n8n 1.x) the retry keys itself by its own id, as before, without an error", async () => {
		const { sandbox } = env;
		const workflow = inventoryWorkflow(assets(3), { ...createTodo, options: { maxRetries: 0 } });
		const credentials = { baseUrl: sandbox.baseUrl, apiToken: TOKENS.fullAccess };
		await crashAfter(2, () => runWorkflow(workflow, { credentials, executionId: 'exec-killed' }));
		const killed = storedAfterCrash(storedAtStart(workflow), {
			finished: ['Items'],
			crashed: 'Inventory',
		});

		const retried = await runWorkflow(workflow, {
			credentials,
			mode: 'retry',
			executionData: retryStartData(killed),
			executionId: 'exec-retry',
		});
		expect(retried.status).toBe('success');
		expect(
			sandbox
				.requests()
				.slice(3)
				.map(({ key }) => key),
		).toEqual(keysOf('exec-retry', 3));
		expect(createdAssets()).toEqual([1001, 1002, 1001, 1002, 1003]);
		expect(rootRecorded(retried)).toBe('exec-retry');
	});
});

describe('a Row Key: the business id of a row', () => {
	const byRowKey = (rowKey: string) => ({ ...createTodo, repeatProtection: 'expression', rowKey });

	test("a UUID is made into a key with the operation, the record and the to-do's name too, as any other id", async () => {
		const { sandbox } = env;
		const key = randomUUID();
		await runInventory(sandbox, [{ asset: 1001 }], byRowKey(key));
		expect(keysSent(sandbox)).toEqual([todoKey(1001, 'Tag and label', key)]);
	});

	test('turns a business id into a key per operation and record: same id, same action, once', async () => {
		const { sandbox } = env;
		const parameters = byRowKey('={{ $json.submission }}');
		const items = [
			{ asset: 1001, submission: 'form-7781' },
			{ asset: 1002, submission: 'form-7781' },
		];
		await runInventory(sandbox, items, parameters, { executionId: 'exec-1' });
		await runInventory(sandbox, items, parameters, { executionId: 'exec-2' });
		await runInventory(
			sandbox,
			[{ asset: 1001, submission: 'form-7781' }],
			{
				resource: 'asset',
				operation: 'recordAcquisition',
				assetId: '={{ $json.asset }}',
				eventTypeId: '301',
				repeatProtection: 'expression',
				rowKey: '={{ $json.submission }}',
			},
			{ executionId: 'exec-3' },
		);
		const keys = keysSent(sandbox);
		expect(keys[0]).toBe(todoKey(1001, 'Tag and label', 'form-7781'));
		expect(keys[1]).toBe(todoKey(1002, 'Tag and label', 'form-7781'));
		expect(keys.slice(2, 4)).toEqual(keys.slice(0, 2));
		expect(keys[4]).toBe(acquisitionKey(1001, 'form-7781'));
		expect(sandbox.requests().map(({ replayed }) => replayed)).toEqual([
			false,
			false,
			true,
			true,
			false,
		]);
		expect(sandbox.state().todos).toHaveLength(2);
		expect(sandbox.state().acquisitions).toHaveLength(1);
	});

	test('an object is taken as its JSON text', async () => {
		const { sandbox } = env;
		await runInventory(
			sandbox,
			[{ asset: 1001, submission: { id: 7 } }],
			byRowKey('={{ $json.submission }}'),
		);
		expect(keysSent(sandbox)).toEqual([todoKey(1001, 'Tag and label', '{"id":7}')]);
	});

	test('a number is taken as its text', async () => {
		const { sandbox } = env;
		await runInventory(
			sandbox,
			[{ asset: 1001, submission: 4711 }],
			byRowKey('={{ $json.submission }}'),
		);
		expect(keysSent(sandbox)).toEqual([todoKey(1001, 'Tag and label', '4711')]);
	});
});
