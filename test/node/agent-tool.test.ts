import type { IConnections, IDataObject, INode, IRun } from 'n8n-workflow';
import { v5 as uuidV5Reference } from 'uuid';

import type { ScriptedToolCall } from '../harness/fixture-nodes';
import {
	ENGINE_AGENT_TYPE,
	IN_PROCESS_AGENT_TYPE,
	instanceId,
	INVENTORY_TOOL_TYPE,
	itemsNode,
	nodeOutput,
	runWorkflow,
} from '../harness/engine';
import { actionKey } from '../harness/keys';
import { idempotencyHelpers } from './package-modules';

import { TOKENS } from '../fixtures';
import { keysSent, sent, useSandbox } from './util';

const { callActionKey, deriveIdempotencyKey, deriveToolCallKey, IDEMPOTENCY_NAMESPACE } =
	idempotencyHelpers;

/** The key of a call of the to-do tool ("Tag and label") keyed by a business id (Repeat Protection with a Row Key). */
const businessKey = (path: string, id: string) => actionKey('POST', path, 'Tag and label', id);

const env = useSandbox();

const WORKFLOW_ID = 'wf-agent';
const ACQUISITION_TOOL = 'Record acquisition';
const TODO_TOOL = 'Create to-do';

/** The tool nodes as a user sets them up: the model fills the $fromAI() parameters. */
const toolNodes: INode[] = [
	{
		id: 'tool-acquisition',
		name: ACQUISITION_TOOL,
		type: INVENTORY_TOOL_TYPE,
		typeVersion: 1,
		position: [200, 200],
		parameters: {
			resource: 'asset',
			operation: 'recordAcquisition',
			assetId: "={{ $fromAI('assetId', 'Numeric asset ID', 'number') }}",
			eventTypeId: '301',
			additionalFields: { price: "={{ $fromAI('price', 'Price, two decimals', 'number') }}" },
		},
		credentials: { inventoryApi: { id: 'cred-1', name: 'Inventory sandbox' } },
	},
	{
		id: 'tool-todo',
		name: TODO_TOOL,
		type: INVENTORY_TOOL_TYPE,
		typeVersion: 1,
		position: [400, 200],
		parameters: {
			resource: 'asset',
			operation: 'createTodo',
			assetId: "={{ $fromAI('assetId', 'Numeric asset ID', 'number') }}",
			name: 'Tag and label',
		},
		credentials: { inventoryApi: { id: 'cred-1', name: 'Inventory sandbox' } },
	},
];

function agentWorkflow(
	agentType: string,
	calls: ScriptedToolCall[],
	toolChanges: Record<string, Partial<INode>> = {},
) {
	const tools = toolNodes.map((node) => ({ ...node, ...toolChanges[node.name] }));
	const connections: IConnections = {
		Items: { main: [[{ node: 'Agent', type: 'main', index: 0 }]] },
	};
	for (const { name } of tools)
		connections[name] = { ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] };
	return {
		id: WORKFLOW_ID,
		nodes: [
			itemsNode([{ email: 'PO-7731' }]),
			{
				id: 'agent',
				name: 'Agent',
				type: agentType,
				typeVersion: 1,
				position: [200, 0],
				parameters: { toolCalls: JSON.stringify(calls) },
			} as INode,
			...tools,
		],
		connections,
		// n8n's default for new workflows; with the older order the engine would resume the agent
		// before running its tools.
		settings: { executionOrder: 'v1' as const },
	};
}

async function runAgent(
	agentType: string,
	calls: ScriptedToolCall[],
	toolChanges?: Record<string, Partial<INode>>,
	executionId = 'exec-agent',
) {
	return await runWorkflow(agentWorkflow(agentType, calls, toolChanges), {
		credentials: { baseUrl: env.sandbox.baseUrl, apiToken: TOKENS.fullAccess },
		executionId,
	});
}

const acquire = (id: string, assetId: number, price = 1249): ScriptedToolCall => ({
	id,
	tool: ACQUISITION_TOOL,
	args: { assetId, price },
});
const todo = (id: string, assetId: number): ScriptedToolCall => ({
	id,
	tool: TODO_TOOL,
	args: { assetId },
});

/** The key of a call keyed by its arguments (the tool's default): its request, whichever tool sends it. */
const callKey = (path: string, body: IDataObject) => callActionKey({ method: 'POST', path, body });
const todoCallKey = (assetId: number) =>
	callKey(`/api/v1/assets/${assetId}/todos`, { name: 'Tag and label' });
const acquisitionCallKey = (assetId: number, price = 1249) =>
	callKey(`/api/v1/assets/${assetId}/acquisitions`, {
		event_type_id: 301,
		price,
	});

/** The tools with Repeat Protection "Only Retries of This Execution": keys of the execution. */
const keyedByExecution = (changes: Record<string, Partial<INode>> = {}) =>
	Object.fromEntries(
		toolNodes.map((node) => {
			const change = changes[node.name] ?? {};
			return [
				node.name,
				{
					...change,
					parameters: {
						...(change.parameters ?? node.parameters),
						repeatProtection: 'execution',
					},
				},
			];
		}),
	);

/** The ordinary derived key of a tool node's run (item 0, the only item of a tool call). */
const runKey = (nodeId: string, runIndex: number, executionId = 'exec-agent') =>
	deriveIdempotencyKey({
		instanceId: instanceId(),
		workflowId: WORKFLOW_ID,
		rootExecutionId: executionId,
		nodeId,
		runIndex,
		itemIndex: 0,
	});

/** Retry On Fail on the acquisition tool (2 tries, no wait), with the node's own retries off. */
const retryOnFail: Record<string, Partial<INode>> = {
	[ACQUISITION_TOOL]: {
		retryOnFail: true,
		maxTries: 2,
		waitBetweenTries: 0,
		parameters: { ...toolNodes[0].parameters, options: { maxRetries: 0 } },
	},
};

/** Every fresh key gets one 503 (nothing applied): a retry goes through only if it resends its key. */
const failFreshKeysOnce = () =>
	env.sandbox.setFaults({
		operations: ['recordAcquisition'],
		serverErrorRate: 1,
		maxFaultsPerKey: 1,
	});

const agentItems = (run: IRun) => nodeOutput(run, 'Agent').map(({ json }) => json);
const toolRuns = (run: IRun, name: string) => run.data.resultData.runData[name] ?? [];

/** Sandbox records created by the calls, with the keys that created them (not replays). */
const appliedKeys = () =>
	env.sandbox
		.requests()
		.filter((r) => !r.replayed && r.status !== null && r.status < 300)
		.map((r) => ({ path: r.path, key: r.key }));

/** What the agent gets for the to-do the call created: the data object without its null fields. */
function compactTodoResult(assetId: number): IDataObject {
	const created = env.sandbox.state().todos.find((t) => t.asset_id === assetId);
	if (!created) throw new Error(`no to-do on asset ${assetId}`);
	return {
		asset_id: assetId,
		// due_date, notes and assigned_to are null here, so left out.
		todo: {
			id: created.id,
			name: 'Tag and label',
			is_complete: false,
			created_by: 101,
			created_at: created.created_at,
			updated_at: created.updated_at,
		},
		tracker_disconnect_pending: false,
		state: { status: 'available', is_in_storage: false },
	};
}

describe('tool calls through engine requests (AI Agent 3.x at the top of a workflow)', () => {
	test('each call is a run of its own, keyed by its arguments: distinct calls, distinct keys', async () => {
		const run = await runAgent(ENGINE_AGENT_TYPE, [
			acquire('call_1', 1001),
			acquire('call_2', 1002),
			todo('call_3', 1001),
		]);
		expect(run.status).toBe('success');
		expect(toolRuns(run, ACQUISITION_TOOL)).toHaveLength(2);
		expect(toolRuns(run, TODO_TOOL)).toHaveLength(1);
		const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
		expect(appliedKeys().sort(byPath)).toEqual(
			[
				{ path: '/api/v1/assets/1001/acquisitions', key: acquisitionCallKey(1001) },
				{ path: '/api/v1/assets/1002/acquisitions', key: acquisitionCallKey(1002) },
				{ path: '/api/v1/assets/1001/todos', key: todoCallKey(1001) },
			].sort(byPath),
		);
		expect(new Set(keysSent(env.sandbox)).size).toBe(3);
		expect(env.sandbox.state().todos).toHaveLength(1);
	});

	test('with Only Retries of This Execution, each run gets the ordinary derivation of its run index', async () => {
		const run = await runAgent(
			ENGINE_AGENT_TYPE,
			[acquire('call_1', 1001), acquire('call_2', 1002)],
			keyedByExecution(),
		);
		expect(run.status).toBe('success');
		const assetOfRun = (runIndex: number) =>
			(toolRuns(run, ACQUISITION_TOOL)[runIndex].data?.ai_tool?.[0]?.[0]?.json as IDataObject)
				.asset_id;
		const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
		expect(appliedKeys().sort(byPath)).toEqual(
			[0, 1]
				.map((runIndex) => ({
					path: `/api/v1/assets/${String(assetOfRun(runIndex))}/acquisitions`,
					key: runKey('tool-acquisition', runIndex),
				}))
				.sort(byPath),
		);
	});

	test('the agent gets each result compact: the data object without null or empty fields', async () => {
		const run = await runAgent(ENGINE_AGENT_TYPE, [todo('call_1', 1003)]);
		expect(agentItems(run)).toEqual([
			{
				toolCallId: 'call_1',
				result: [
					{
						...compactTodoResult(1003),
						repeatCheck: { outcome: 'recorded', idempotencyKey: todoCallKey(1003) },
					},
				],
			},
		]);
	});

	test.each([
		['engine requests', ENGINE_AGENT_TYPE],
		['in-process', IN_PROCESS_AGENT_TYPE],
	])(
		'%s: a call with a bad argument is refused in words for the model: the argument, what is accepted, nothing booked',
		async (_, agentType) => {
			const run = await runAgent(agentType, [
				acquire('call_bad', 1004, 189.999),
				{ id: 'call_id', tool: TODO_TOOL, args: { assetId: 0 } },
			]);
			expect(run.status).toBe('success');
			// The engine hands the agent the tool's error item; an in-process call, the error itself.
			const refused = (toolCallId: string, error: string) =>
				agentType === ENGINE_AGENT_TYPE
					? { toolCallId, result: [{ error }] }
					: { toolCallId, error };
			expect(agentItems(run)).toEqual([
				refused(
					'call_bad',
					'Nothing was booked: the argument "price" was refused: Price must have at most two decimal places, got 189.999. Send a number of at most two decimal places, e.g. 1249.99. Call the tool again with "price" corrected.',
				),
				refused(
					'call_id',
					'Nothing was booked: the argument "assetId" was refused: Asset ID must be a numeric ID (a whole number of 1 or more), got 0. Send the numeric ID, e.g. 1001. Call the tool again with "assetId" corrected.',
				),
			]);
			expect(env.sandbox.requests()).toEqual([]);
		},
	);

	test('a call with two bad arguments is told both at once, each with what is accepted', async () => {
		const run = await runAgent(ENGINE_AGENT_TYPE, [acquire('call_two', 0, 189.999)]);
		expect(agentItems(run)).toEqual([
			{
				toolCallId: 'call_two',
				result: [
					{
						error:
							'Nothing was booked: the argument "assetId" was refused: Asset ID must be a numeric ID (a whole number of 1 or more), got 0. Send the numeric ID, e.g. 1001. ' +
							'The argument "price" was refused: Price must have at most two decimal places, got 189.999. Send a number of at most two decimal places, e.g. 1249.99. ' +
							'Call the tool again with "assetId", "price" corrected.',
					},
				],
			},
		]);
		expect(env.sandbox.requests()).toEqual([]);
	});

	test("a value fixed in the tool (not an argument) is refused as the workflow's: the model is told to report it", async () => {
		const run = await runAgent(ENGINE_AGENT_TYPE, [acquire('call_1', 1004)], {
			[ACQUISITION_TOOL]: { parameters: { ...toolNodes[0].parameters, eventTypeId: 'purchase' } },
		});
		expect(agentItems(run)).toEqual([
			{
				toolCallId: 'call_1',
				result: [
					{
						error:
							'Nothing was booked: Event Type ID must be a numeric ID (a whole number of 1 or more), got "purchase". This value is set in the tool\'s configuration, not by an argument, so calling again will not help: tell the user.',
					},
				],
			},
		]);
		expect(env.sandbox.requests()).toEqual([]);
	});

	test('Retry On Fail reruns the call with the same run index, so with the same key', async () => {
		failFreshKeysOnce();
		const run = await runAgent(ENGINE_AGENT_TYPE, [acquire('call_1', 1005)], retryOnFail);
		expect(env.sandbox.requests().map(({ status, key }) => [status, key])).toEqual([
			[503, acquisitionCallKey(1005)],
			[201, acquisitionCallKey(1005)],
		]);
		expect(toolRuns(run, ACQUISITION_TOOL)).toHaveLength(1);
		expect(env.sandbox.state().acquisitions).toHaveLength(1);
	});
});

describe('tool calls in-process (sub-agents, AI Agent before 3.x, the MCP server trigger)', () => {
	const toolCallKey = (nodeId: string, path: string, body: IDataObject) =>
		deriveToolCallKey(
			{ instanceId: instanceId(), workflowId: WORKFLOW_ID, rootExecutionId: 'exec-agent', nodeId },
			{ method: 'POST', path, body },
		);

	test('Retry On Fail gives each try a new run index, and the key stays the same', async () => {
		failFreshKeysOnce();
		const run = await runAgent(
			IN_PROCESS_AGENT_TYPE,
			[acquire('call_1', 1006)],
			keyedByExecution(retryOnFail),
		);
		// n8n logged the failed try and the retry as two runs of the tool node...
		expect(toolRuns(run, ACQUISITION_TOOL).map((task) => task.executionStatus)).toEqual([
			'error',
			'success',
		]);
		// ...and both sent the key of the call in this execution, not of the run.
		const key = toolCallKey('tool-acquisition', '/api/v1/assets/1006/acquisitions', {
			event_type_id: 301,
			price: 1249,
		});
		expect(
			sent(env.sandbox).map(({ path, headers }) => [path, headers['idempotency-key']]),
		).toEqual([
			['/api/v1/assets/1006/acquisitions', key],
			['/api/v1/assets/1006/acquisitions', key],
		]);
		expect(env.sandbox.requests().map(({ status }) => status)).toEqual([503, 201]);
		expect(env.sandbox.state().acquisitions).toHaveLength(1);
		expect(agentItems(run)[0]).toMatchObject({
			toolCallId: 'call_1',
			result: [{ asset_id: 1006 }],
		});
	});

	test('distinct calls get distinct keys; an identical call again is the same action (replayed)', async () => {
		const run = await runAgent(IN_PROCESS_AGENT_TYPE, [
			todo('call_1', 1001),
			todo('call_2', 1002),
			todo('call_3', 1001),
		]);
		expect(run.status).toBe('success');
		const keys = keysSent(env.sandbox);
		expect(keys[0]).toBe(todoCallKey(1001));
		expect(keys[1]).toBe(todoCallKey(1002));
		expect(keys[2]).toBe(keys[0]);
		expect(env.sandbox.requests().map(({ replayed }) => replayed)).toEqual([false, false, true]);
		expect(env.sandbox.state().todos.map((t) => t.asset_id)).toEqual([1001, 1002]);
		const [first, , third] = agentItems(run) as Array<{ result: IDataObject[] }>;
		const withoutCheck = (data: IDataObject) => {
			const copy = { ...data };
			delete copy.repeatCheck;
			return copy;
		};
		expect(third.result.map(withoutCheck)).toEqual(first.result.map(withoutCheck));
		expect(third.result[0].repeatCheck).toMatchObject({
			outcome: 'replayed',
			idempotencyKey: keys[0],
		});
	});
});

describe('Repeat Protection of the tool', () => {
	test.each([
		['engine requests', ENGINE_AGENT_TYPE],
		['in-process', IN_PROCESS_AGENT_TYPE],
	])(
		'%s: by default the same call in another execution, or in one n8n gives no id (an MCP call), replays',
		async (_, agentType) => {
			const first = await runAgent(agentType, [todo('call_1', 1007)], {}, 'exec-1');
			const again = await runAgent(agentType, [todo('call_1', 1007)], {}, 'exec-2');
			const withoutId = await runAgent(agentType, [todo('call_9', 1007)], {}, '');
			const other = await runAgent(agentType, [todo('call_1', 1011)], {}, '');
			const key = todoCallKey(1007);
			expect(env.sandbox.requests().map(({ key: sent, replayed }) => [sent, replayed])).toEqual([
				[key, false],
				[key, true],
				[key, true],
				[todoCallKey(1011), false],
			]);
			expect(env.sandbox.state().todos.map((t) => t.asset_id)).toEqual([1007, 1011]);
			const checkOf = (run: IRun) =>
				(agentItems(run)[0] as { result: IDataObject[] }).result[0].repeatCheck as IDataObject;
			expect([first, again, withoutId, other].map((run) => checkOf(run).outcome)).toEqual([
				'recorded',
				'replayed',
				'replayed',
				'recorded',
			]);
			expect(checkOf(again).note).toBe(
				'A call with the same arguments was booked before: this is that booking, and nothing new was booked. Calls with the same arguments are one action.',
			);
			expect(agentItems(first)).toEqual([
				{
					toolCallId: 'call_1',
					result: [
						{
							...compactTodoResult(1007),
							repeatCheck: { outcome: 'recorded', idempotencyKey: key },
						},
					],
				},
			]);
		},
	);

	/** The to-do tool keyed by the order ID the model supplies. */
	const keyedByOrder: Record<string, Partial<INode>> = {
		[TODO_TOOL]: {
			parameters: {
				...toolNodes[1].parameters,
				repeatProtection: 'expression',
				rowKey: "={{ $fromAI('orderId', 'The order ID of the purchase', 'string') }}",
			},
		},
	};
	const orderTodo = (id: string, assetId: number, orderId: string): ScriptedToolCall => ({
		id,
		tool: TODO_TOOL,
		args: { assetId, orderId },
	});

	test.each([
		['engine requests', ENGINE_AGENT_TYPE],
		['in-process', IN_PROCESS_AGENT_TYPE],
	])(
		'%s: keyed by the order ID, the same order in a second execution replays instead of booking twice',
		async (_, agentType) => {
			const first = await runAgent(
				agentType,
				[orderTodo('call_1', 1008, 'PO-7731')],
				keyedByOrder,
				'exec-1',
			);
			const second = await runAgent(
				agentType,
				[orderTodo('call_1', 1008, 'PO-7731')],
				keyedByOrder,
				'exec-2',
			);
			expect([first.status, second.status]).toEqual(['success', 'success']);
			const key = businessKey('/api/v1/assets/1008/todos', 'PO-7731');
			expect(
				env.sandbox.requests().map(({ path, key: sentKey, replayed }) => [path, sentKey, replayed]),
			).toEqual([
				['/api/v1/assets/1008/todos', key, false],
				['/api/v1/assets/1008/todos', key, true],
			]);
			expect(env.sandbox.state().todos.filter((t) => t.asset_id === 1008)).toHaveLength(1);
			const checkOf = (run: IRun) =>
				(agentItems(run)[0] as { result: IDataObject[] }).result[0].repeatCheck;
			expect([checkOf(first), checkOf(second)]).toEqual([
				{ outcome: 'recorded', idempotencyKey: key, keyValues: { rowKey: 'PO-7731' } },
				expect.objectContaining({
					outcome: 'replayed',
					idempotencyKey: key,
					keyValues: { rowKey: 'PO-7731' },
				}),
			]);
		},
	);

	test('a new order ID is booked; with Only Retries of This Execution the same call in a second execution books again', async () => {
		await runAgent(ENGINE_AGENT_TYPE, [orderTodo('call_1', 1009, 'PO-1')], keyedByOrder, 'exec-1');
		await runAgent(ENGINE_AGENT_TYPE, [orderTodo('call_1', 1009, 'PO-2')], keyedByOrder, 'exec-2');
		await runAgent(ENGINE_AGENT_TYPE, [todo('call_1', 1010)], keyedByExecution(), 'exec-3');
		await runAgent(ENGINE_AGENT_TYPE, [todo('call_1', 1010)], keyedByExecution(), 'exec-4');
		expect(env.sandbox.requests().map(({ key }) => key)).toEqual([
			businessKey('/api/v1/assets/1009/todos', 'PO-1'),
			businessKey('/api/v1/assets/1009/todos', 'PO-2'),
			runKey('tool-todo', 0, 'exec-3'),
			runKey('tool-todo', 0, 'exec-4'),
		]);
		expect(env.sandbox.requests().every(({ replayed }) => !replayed)).toBe(true);
		expect(env.sandbox.state().todos.map((t) => t.asset_id)).toEqual([1009, 1009, 1010, 1010]);
	});
});

describe('ordinary runs keep their keys', () => {
	test('the derivation of a saved workflow is unchanged (pinned value)', () => {
		const identity = {
			instanceId: 'instance-1',
			workflowId: 'wf-1',
			rootExecutionId: '42',
			nodeId: 'node-1',
			runIndex: 3,
			itemIndex: 7,
		};
		expect(deriveIdempotencyKey(identity)).toBe('ad4ac7f9-5f63-5b8a-bf97-de931824ac43');
		expect(deriveIdempotencyKey(identity)).toBe(
			uuidV5Reference('n8n\ninstance-1\nwf-1\n42\nnode-1\n3\n7', IDEMPOTENCY_NAMESPACE),
		);
	});
});
