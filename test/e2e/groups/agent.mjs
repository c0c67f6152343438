// Agent group: the node as an AI agent's tool in the real n8n. The example workflow
// (examples/purchase-email-agent.workflow.json: AI Agent 3.1, n8n's OpenAI Chat Model, the node's tool
// variant twice with $fromAI() parameters) runs through the REST API like the editor's "Execute
// workflow"; its chat model is the scripted OpenAI-compatible server (lib/scripted-openai.mjs), which
// answers with fixed tool calls and then a final message built from the tool results it received.
// Asserted: the exact requests at the sandbox, their Idempotency-Keys against the derivation from
// the execution's run data, what the agent sent to the model (tool descriptions and schema, the
// compact tool results, the validation error) and the agent's final answer.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { v5 as uuidV5 } from 'uuid';

import {
	assertTextsVisible,
	closeNode,
	openNode,
	openWorkflow,
	withSignedInPage,
} from '../lib/editor.mjs';
import { unflatten } from '../lib/n8n.mjs';
import { toolCall, toolNamed, toolResults } from '../lib/scripted-openai.mjs';
import { REPO_DIR, assert, assertEqual } from '../lib/util.mjs';
import * as W from '../lib/workflows.mjs';

/** The node's UUID namespace, from the built package (run.mjs builds it before the checks). */
const idempotencyNamespace = () =>
	createRequire(import.meta.url)(path.join(REPO_DIR, 'dist/nodes/Inventory/idempotency/keys.js'))
		.IDEMPOTENCY_NAMESPACE;

const ACQUISITION_TOOL = 'Record acquisition';
const TODO_TOOL = 'Create tagging to-do';
const PURCHASE_EVENT_TYPE = 301;

export function agentExample() {
	return JSON.parse(fs.readFileSync(path.join(REPO_DIR, W.AGENT_EXAMPLE_FILE), 'utf8'));
}

export function agentWorkflows(example = agentExample()) {
	// Retry On Fail on the acquisition tool, with the node's own retries off: a 503 fails the try,
	// n8n runs the tool again.
	const retryOnFail = {
		retryOnFail: true,
		maxTries: 2,
		waitBetweenTries: 0,
		parameters: {
			...example.nodes.find((n) => n.name === ACQUISITION_TOOL).parameters,
			options: { maxRetries: 0 },
		},
	};
	const agentNode = example.nodes.find((n) => n.name === 'AI Agent');
	return [
		W.exampleWorkflow(example, { id: 'e2eWfAgentPurchase', name: 'E2E: purchase e-mail agent' }),
		W.exampleWorkflow(example, {
			id: 'e2eWfAgentRetryOnFail',
			name: 'E2E: agent tool with Retry On Fail',
			nodeChanges: { [ACQUISITION_TOOL]: retryOnFail },
		}),
		// AI Agent 2.2 calls its tools in-process (as sub-agents do): another numbering of the runs.
		W.exampleWorkflow(example, {
			id: 'e2eWfAgentV2RetryOnFail',
			name: 'E2E: AI Agent 2.2 (in-process tools), Retry On Fail',
			nodeChanges: {
				[ACQUISITION_TOOL]: retryOnFail,
				'AI Agent': { typeVersion: 2.2, parameters: agentNode.parameters },
			},
		}),
	];
}

const acquisitionArgs = (assetId, price) => ({
	assetId,
	eventTypeId: PURCHASE_EVENT_TYPE,
	price,
	purchaseDate: '2026-11-02',
	notes: 'Order PO-7731',
});

/**
 * The purchase e-mail conversation: (1) two acquisitions and two to-dos in one answer (four tool
 * calls, two per tool node), (2) an acquisition with a price of three decimals, which the node
 * refuses before sending, (3) the final answer, made of the tool results the agent sent back.
 */
function purchaseScript(request) {
	const results = toolResults(request);
	const acquire = toolNamed(request, 'Record_acquisition');
	const todo = toolNamed(request, 'Create_tagging');
	if (results.length === 0) {
		return {
			content: '',
			tool_calls: [
				toolCall('call_acq_1001', acquire, acquisitionArgs(1001, 1249.0)),
				toolCall('call_acq_1002', acquire, acquisitionArgs(1002, 1249.0)),
				toolCall('call_todo_1001', todo, { assetId: 1001, notes: 'Order PO-7731' }),
				toolCall('call_todo_1002', todo, { assetId: 1002, notes: 'Order PO-7731' }),
			],
		};
	}
	if (results.length === 4)
		return {
			content: '',
			tool_calls: [toolCall('call_acq_1003', acquire, acquisitionArgs(1003, 189.999))],
		};
	return { content: finalAnswer(results) };
}

/** The final message: one line per tool result, as the agent returned it to the model. */
const finalAnswer = (results) =>
	`Recorded order PO-7731:\n${results.map((r) => `${r.tool_call_id}: ${r.content}`).join('\n')}`;

function retryScript(request) {
	const results = toolResults(request);
	if (results.length === 0)
		return {
			content: '',
			tool_calls: [
				toolCall(
					'call_acq_1004',
					toolNamed(request, 'Record_acquisition'),
					acquisitionArgs(1004, 899.5),
				),
			],
		};
	return { content: finalAnswer(results) };
}

/** JSON with every object's keys sorted, as the node writes a call's body into its key. */
const canonicalJson = (value) =>
	Array.isArray(value)
		? `[${value.map(canonicalJson).join(',')}]`
		: typeof value === 'object' && value !== null
			? `{${Object.keys(value)
					.filter((name) => value[name] !== undefined)
					.sort()
					.map((name) => `${JSON.stringify(name)}:${canonicalJson(value[name])}`)
					.join(',')}}`
			: JSON.stringify(value);

/**
 * The key of a tool call at the tool's default Repeat Protection (Each Call Once, Keyed by Its
 * Arguments): UUID v5 of "call" and the request (method, path, body), with no tool name and no
 * execution, however n8n runs the call.
 */
const callKey = ({ path: requestPath, body }) =>
	uuidV5(['call', 'POST', requestPath, canonicalJson(body)].join('\n'), idempotencyNamespace());

const sortedBy = (list, key) =>
	[...list].sort((a, b) => String(a[key]).localeCompare(String(b[key])));

/** Every fresh key gets one 503 (nothing applied) while `fn` runs: a retry goes through only if it resends its key. */
async function withFreshKeysFailingOnce(sandbox, fn) {
	await sandbox.setFaults({
		operations: ['recordAcquisition'],
		serverErrorRate: 1,
		maxFaultsPerKey: 1,
	});
	try {
		return await fn();
	} finally {
		await sandbox.setFaults(null);
	}
}

async function runAgent(api, workflow) {
	const executionId = await api.runManually(workflow.id, W.TRIGGER);
	const execution = await api.waitForExecution(executionId);
	const data = await unflatten(execution.data);
	assertEqual(
		execution.status,
		'success',
		`status of the agent's execution ${executionId} (error: ${JSON.stringify(data?.resultData?.error)?.slice(0, 800)})`,
	);
	return { executionId, execution, runData: data.resultData.runData };
}

/** The item a tool node's run gave the agent (what n8n logs as the run's ai_tool output). */
const toolOutput = (run) => run.data?.ai_tool?.[0]?.[0]?.json;

export async function agent({ n8n, sandbox, api, model, screenshotDir, skipBrowser }, check) {
	const example = agentExample();
	const [purchaseWf, retryWf, inProcessRetryWf] = agentWorkflows(example);
	const { instanceId } = await api.get('/settings');
	assert(
		typeof instanceId === 'string' && instanceId.length > 0,
		`the instance id from /rest/settings (got ${instanceId})`,
	);

	await check(
		'agent: purchase e-mail -> 2 acquisitions + 2 to-dos as tool calls, a bad price refused, final answer',
		async () => {
			await sandbox.reset();
			model.reset();
			model.script = purchaseScript;
			const { runData } = await runAgent(api, purchaseWf);

			// The sandbox got exactly the four valid calls; asset 1003 (price 189.999) was never sent.
			const requests = (await sandbox.requests()).filter((r) => r.operation);
			const acquisitionBody = {
				event_type_id: PURCHASE_EVENT_TYPE,
				event_date: '2026-11-02T00:00:00+00:00',
				description: 'Order PO-7731',
				price: 1249,
			};
			assertEqual(
				sortedBy(requests, 'path').map((r) => [r.method, r.path, r.body, r.status]),
				[
					['POST', '/api/v1/assets/1001/acquisitions', acquisitionBody, 201],
					[
						'POST',
						'/api/v1/assets/1001/todos',
						{ name: 'Tag and label', notes: 'Order PO-7731' },
						201,
					],
					['POST', '/api/v1/assets/1002/acquisitions', acquisitionBody, 201],
					[
						'POST',
						'/api/v1/assets/1002/todos',
						{ name: 'Tag and label', notes: 'Order PO-7731' },
						201,
					],
				],
				'the requests the tool calls made (method, path, body, status)',
			);
			assert(
				requests.every((r) => r.headers['content-type']?.startsWith('application/json')),
				'JSON bodies',
			);
			const state = await sandbox.state();
			assertEqual(state.todos.map((t) => t.asset_id).sort(), [1001, 1002], 'to-dos in the sandbox');

			// n8n ran each tool call as a run of its own: the tool node's run index numbers the calls.
			assertEqual(
				runData[ACQUISITION_TOOL]?.length,
				3,
				`runs of "${ACQUISITION_TOOL}" (two calls + the refused one)`,
			);
			assertEqual(runData[TODO_TOOL]?.length, 2, `runs of "${TODO_TOOL}"`);
			const expectedKeys = requests.map((r) => ({
				path: r.path,
				key: callKey({ path: r.path, body: r.body }),
			}));
			assertEqual(
				sortedBy(requests, 'path').map((r) => ({ path: r.path, key: r.key })),
				sortedBy(expectedKeys, 'path'),
				"Idempotency-Keys: one per tool call, made of the call's request",
			);
			assertEqual(new Set(requests.map((r) => r.key)).size, 4, 'four distinct keys');

			// What the agent sent to the model: the tools, described by the node, with the $fromAI schema.
			const first = model.requests[0];
			const tools = Object.fromEntries(first.tools.map((t) => [t.function.name, t.function]));
			const acquisitionTool = tools[toolNamed(first, 'Record_acquisition')];
			assertEqual(
				acquisitionTool.description,
				"Record how an asset was acquired (purchase, lease, donation) in Inventory, by the asset's numeric ID and the numeric ID of an acquisition event type, with its price, date and notes",
				'the acquisition tool description the model got',
			);
			assertEqual(
				Object.keys(acquisitionTool.parameters.properties).sort(),
				['assetId', 'eventTypeId', 'notes', 'price', 'purchaseDate'],
				'the acquisition tool parameters ($fromAI keys)',
			);
			assertEqual(
				tools[toolNamed(first, 'Create_tagging')].description,
				"Create a to-do on an asset in Inventory, by the asset's numeric ID",
				'the to-do tool description',
			);

			// The tool results went back compact (no null fields), with the IDs the sandbox created.
			assertEqual(
				model.requests.length,
				3,
				'requests to the model (tool calls, the refused call, the final answer)',
			);
			const results = toolResults(model.requests[1]);
			assertEqual(
				results.map((r) => r.tool_call_id),
				['call_acq_1001', 'call_acq_1002', 'call_todo_1001', 'call_todo_1002'],
				'tool results, one per call',
			);
			for (const r of results)
				assert(!r.content.includes('null'), `tool result without null fields: ${r.content}`);
			const todoResult = JSON.parse(
				results.find((r) => r.tool_call_id === 'call_todo_1001').content,
			);
			const todo1001 = state.todos.find((t) => t.asset_id === 1001);
			assertEqual(
				todoResult[0].todo.id,
				todo1001.id,
				'the to-do id the agent got back is the sandbox record',
			);
			const acquisitionResult = JSON.parse(
				results.find((r) => r.tool_call_id === 'call_acq_1001').content,
			);
			assert(
				acquisitionResult[0].asset_id === 1001 && acquisitionResult[0].asset_event_ids.length > 0,
				`acquisition result: ${JSON.stringify(acquisitionResult)}`,
			);

			// The refused call: a short error naming the field, returned to the agent; nothing was sent.
			const refused = toolResults(model.requests[2]).at(-1);
			assertEqual(refused.tool_call_id, 'call_acq_1003', 'the refused call');
			const refusedError = JSON.parse(refused.content)[0].error;
			assertEqual(
				refusedError,
				'Nothing was booked: the argument "price" was refused: Price must have at most two decimal places, got 189.999. Send a number of at most two decimal places, e.g. 1249.99. Call the tool again with "price" corrected.',
				'the error the agent got for the bad price',
			);
			assertEqual(
				toolOutput(runData[ACQUISITION_TOOL][2]).error,
				refusedError,
				'the refused run logs the same error',
			);

			// The final answer carries the tool results.
			const answer = runData['AI Agent'].at(-1).data.main[0][0].json.output;
			assertEqual(answer, finalAnswer(toolResults(model.requests[2])), "the agent's final answer");
			assert(
				answer.includes(`"id":${todo1001.id}`) &&
					answer.includes('Price must have at most two decimal places'),
				`answer with the results: ${answer}`,
			);
			assertEqual(model.unexpected, [], 'requests the scripted model did not expect');
		},
	);

	/** Runs an agent workflow whose acquisition tool has Retry On Fail, the model calling it once. */
	const runRetryOnFail = async (workflow) => {
		await sandbox.reset();
		model.reset();
		model.script = retryScript;
		return await withFreshKeysFailingOnce(sandbox, async () => {
			const { executionId, runData } = await runAgent(api, workflow);
			return {
				executionId,
				runData,
				requests: (await sandbox.requests()).filter((r) => r.operation),
			};
		});
	};
	const retriedPath = '/api/v1/assets/1004/acquisitions';
	const retriedBody = {
		event_type_id: PURCHASE_EVENT_TYPE,
		event_date: '2026-11-02T00:00:00+00:00',
		description: 'Order PO-7731',
		price: 899.5,
	};

	await check('agent: Retry On Fail on the tool resends the same Idempotency-Key', async () => {
		const { runData, requests } = await runRetryOnFail(retryWf);
		const key = callKey({ path: retriedPath, body: retriedBody });
		assertEqual(
			requests.map((r) => [r.path, r.body, r.status, r.key]),
			[
				[retriedPath, retriedBody, 503, key],
				[retriedPath, retriedBody, 201, key],
			],
			'the try and its retry: the key of the call, applied once',
		);
		assertEqual(
			runData[ACQUISITION_TOOL].length,
			1,
			'Retry On Fail reran the tool call in the same run',
		);
		assertEqual((await sandbox.state()).counters?.faults?.serverError, 1, 'one injected 503');
		assertEqual(
			toolOutput(runData[ACQUISITION_TOOL][0]).asset_id,
			1004,
			'the call succeeded on its retry',
		);
	});

	await check(
		'agent: AI Agent 2.2 calls the tool in-process; Retry On Fail (a new run per try) keeps the key',
		async () => {
			const { runData, requests } = await runRetryOnFail(inProcessRetryWf);
			const key = callKey({ path: retriedPath, body: retriedBody });
			assertEqual(
				requests.map((r) => [r.path, r.body, r.status, r.key]),
				[
					[retriedPath, retriedBody, 503, key],
					[retriedPath, retriedBody, 201, key],
				],
				'the try and its retry: the key of the call, applied once',
			);
			// Here n8n logs each try as a run of its own (run indexes 0 and 1): a key from the run index
			// would have changed between the try and its retry.
			assertEqual(
				runData[ACQUISITION_TOOL].map((r) => r.executionStatus),
				['error', 'success'],
				'the tool runs n8n logged: one per try',
			);
			assertEqual((await sandbox.state()).acquisitions.length, 1, 'one acquisition');
			const answer = runData['AI Agent'].at(-1).data.main[0][0].json.output;
			assert(
				answer.includes('"asset_id":1004'),
				`the agent's answer carries the result: ${answer}`,
			);
		},
	);

	if (skipBrowser) return;
	await check('editor: the purchase e-mail agent workflow, screenshot', async () => {
		fs.mkdirSync(screenshotDir, { recursive: true });
		await withSignedInPage(n8n.baseUrl, 'agent-editor-failure', async (page) => {
			await openWorkflow(page, n8n.baseUrl, purchaseWf.id);
			const names = await page.$$eval('[data-test-id="canvas-node"]', (els) =>
				els.map((e) => e.getAttribute('data-node-name')),
			);
			for (const n of ['AI Agent', 'OpenAI Chat Model', ACQUISITION_TOOL, TODO_TOOL])
				assert(names.includes(n), `canvas shows node "${n}" (has ${names.join(', ')})`);
			await page.screenshot({ path: path.join(screenshotDir, 'agent-workflow.png') });
			await openNode(page, ACQUISITION_TOOL);
			await assertTextsVisible(
				page,
				'[data-test-id="ndv"] [data-test-id="node-parameters"]',
				['Asset ID', 'Event Type ID'],
				`tool node "${ACQUISITION_TOOL}"`,
			);
			await page.screenshot({ path: path.join(screenshotDir, 'agent-tool.png') });
			await closeNode(page);
		});
	});
}
