// MCP group: the node as a tool of n8n's MCP Server Trigger, called by the official MCP client.
// The example examples/inventory-mcp-server.workflow.json (MCP Server Trigger 2.1 with Bearer Auth,
// the node's tool variant twice with $fromAI() arguments, Repeat Protection at the tool's default) is
// imported as shipped (only its credentials pointed at the sandbox and at an e2e bearer token) and
// activated on the running n8n; `@modelcontextprotocol/sdk`'s Client talks to its production URL,
// `<n8n>/mcp/<path>`, over Streamable HTTP. The sandbox's records and request log are the judge: who
// is refused, what is listed, what a call, its repetition, a retry after a lost answer, 20 calls at
// once and bad arguments book.
import fs from 'node:fs';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

import { applied } from '../lib/checks.mjs';
import { activateWorkflow } from '../lib/queue.mjs';
import { REPO_DIR, assert, assertEqual, log, waitFor } from '../lib/util.mjs';
import * as W from '../lib/workflows.mjs';

export const MCP_EXAMPLE_FILE = 'examples/inventory-mcp-server.workflow.json';
const MCP_WORKFLOW_ID = 'e2eWfMcpServer';
const TRIGGER = 'MCP Server Trigger';
/** The n8n credential the trigger checks the clients' token against ("Bearer Auth"). */
const BEARER_CREDENTIAL = { id: 'e2eMcpBearer', name: 'MCP clients (e2e)' };
const TOKEN = 'e2e-mcp-client-token-7f3c9a1d5b';

const ACQUISITION_TOOL = 'Record_acquisition';
const TODO_TOOL = 'Create_to-do';
const ACQUISITION_PATH = (assetId) => `/api/v1/assets/${assetId}/acquisitions`;

export function mcpExample() {
	return JSON.parse(fs.readFileSync(path.join(REPO_DIR, MCP_EXAMPLE_FILE), 'utf8'));
}

/** The trigger's bearer token as n8n stores it: an `httpBearerAuth` credential. */
export function mcpCredentials() {
	return [{ ...BEARER_CREDENTIAL, type: 'httpBearerAuth', data: { token: TOKEN } }];
}

export function mcpWorkflows(example = mcpExample()) {
	const trigger = example.nodes.find((n) => n.name === TRIGGER);
	return [
		W.exampleWorkflow(example, {
			id: MCP_WORKFLOW_ID,
			name: 'Inventory tools for MCP clients (Inventory example)',
			nodeChanges: {
				[TRIGGER]: { credentials: { ...trigger.credentials, httpBearerAuth: BEARER_CREDENTIAL } },
			},
		}),
	];
}

/** The production URL of the example's MCP Server Trigger (version 2.x: `/mcp/<path>`). */
const serverUrl = (n8n, example) =>
	`${n8n.baseUrl}/mcp/${example.nodes.find((n) => n.name === TRIGGER).parameters.path}`;

/** An MCP client connected over Streamable HTTP, sending `token` as `Authorization: Bearer …`. */
async function connect(url, token) {
	const client = new Client({ name: 'n8n-nodes-inventory-e2e', version: '1.0.0' });
	const transport = new StreamableHTTPClientTransport(new URL(url), {
		requestInit: { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } },
	});
	await client.connect(transport);
	return client;
}

async function withClient(url, fn) {
	const client = await connect(url, TOKEN);
	try {
		return await fn(client);
	} finally {
		await client.close().catch(() => {});
	}
}

/** A tool call's result: the MCP result, its text, and the text as JSON when it is JSON. */
async function call(client, name, args, options) {
	const result = await client.callTool({ name, arguments: args }, undefined, options);
	const text = result.content?.map((c) => c.text ?? '').join('') ?? '';
	let json;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { result, text, json };
}

/** The item of a successful Inventory tool call (the tool answers with a list of one item). */
function itemOf(answer, what) {
	assert(
		!answer.result.isError && Array.isArray(answer.json) && answer.json.length === 1,
		`${what}: one item, no error (got ${answer.text.slice(0, 800)})`,
	);
	return answer.json[0];
}

const acquisition = (assetId, price, extra = {}) => ({
	assetId,
	eventTypeId: 301,
	price,
	purchaseDate: '2026-11-02',
	vendor: 'ACME Hardware Ltd',
	notes: `Order PO-88${assetId}`,
	...extra,
});

/** The body the node sends for `acquisition(...)` (event date in the workflow's time zone, UTC). */
const acquisitionBody = (args) => ({
	event_type_id: args.eventTypeId,
	event_date: `${args.purchaseDate}T00:00:00+00:00`,
	description: args.notes,
	acquired_from: args.vendor,
	price: args.price,
});

const apiRequests = async (sandbox) => (await sandbox.requests()).filter((r) => r.operation);

/** Fresh records and no faults before each check. */
async function fresh(sandbox) {
	await sandbox.setFaults(null);
	await sandbox.reset();
}

/** The HTTP status of a refused connection (StreamableHTTPError carries it as `code`). */
async function refusedStatus(url, token) {
	try {
		const client = await connect(url, token);
		await client.close().catch(() => {});
	} catch (e) {
		return e.code;
	}
	return 'connected';
}

export async function mcp({ n8n, sandbox, api }, check) {
	const example = mcpExample();
	const url = serverUrl(n8n, example);
	let active = false;
	const activate = async () => {
		if (active) return;
		await activateWorkflow(api, MCP_WORKFLOW_ID);
		// Right after activation n8n may still be registering the trigger's webhooks: until then 404.
		await waitFor(
			`MCP Server Trigger at ${url}`,
			async () => (await fetch(url, { method: 'POST', body: '{}' })).status !== 404,
			{ timeoutMs: 60_000, intervalMs: 300 },
		);
		active = true;
	};

	await check(
		'mcp: without the bearer token or with a wrong one: refused (403), nothing booked',
		async () => {
			await activate();
			await fresh(sandbox);
			assertEqual(await refusedStatus(url, undefined), 403, 'connecting without a token');
			assertEqual(await refusedStatus(url, 'not-the-token'), 403, 'connecting with a wrong token');
			// A tool call in a live session, sent by someone who has the session id but not the token.
			await withClient(url, async (client) => {
				const sessionId = client.transport.sessionId;
				assert(sessionId, 'the session has an id');
				for (const authorization of [undefined, 'Bearer not-the-token']) {
					const res = await fetch(url, {
						method: 'POST',
						headers: {
							'content-type': 'application/json',
							accept: 'application/json, text/event-stream',
							'mcp-session-id': sessionId,
							'mcp-protocol-version': client.transport.protocolVersion ?? '2025-06-18',
							...(authorization ? { authorization } : {}),
						},
						body: JSON.stringify({
							jsonrpc: '2.0',
							id: 901,
							method: 'tools/call',
							params: { name: ACQUISITION_TOOL, arguments: acquisition(1001, 10) },
						}),
					});
					assertEqual(
						res.status,
						403,
						`tools/call in a live session ${authorization ? 'with a wrong token' : 'without a token'}`,
					);
				}
			});
			assertEqual(await apiRequests(sandbox), [], 'requests at the sandbox');
			assertEqual((await sandbox.state()).acquisitions, [], 'acquisitions in the sandbox');
		},
	);

	await check(
		'mcp: tools/list lists both tools with their $fromAI arguments as input schema',
		async () => {
			await activate();
			await withClient(url, async (client) => {
				const { tools } = await client.listTools();
				const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
				assertEqual(Object.keys(byName).sort(), [TODO_TOOL, ACQUISITION_TOOL], 'tool names');
				const describedAs = (name) =>
					example.nodes.find((n) => n.name === name).parameters.toolDescription;
				assertEqual(
					byName[ACQUISITION_TOOL].description,
					describedAs('Record acquisition'),
					'the acquisition tool description',
				);
				assertEqual(
					byName[TODO_TOOL].description,
					describedAs('Create to-do'),
					'the to-do tool description',
				);
				const schemaOf = (tool) => ({
					type: tool.inputSchema.type,
					required: [...(tool.inputSchema.required ?? [])].sort(),
					properties: Object.fromEntries(
						Object.entries(tool.inputSchema.properties ?? {})
							.sort(([a], [b]) => a.localeCompare(b))
							.map(([key, p]) => [key, { type: p.type, description: p.description }]),
					),
				});
				assertEqual(
					schemaOf(byName[ACQUISITION_TOOL]),
					{
						type: 'object',
						required: ['assetId', 'eventTypeId', 'notes', 'price', 'purchaseDate', 'vendor'],
						properties: {
							assetId: {
								type: 'number',
								description:
									'Numeric ID of the asset in the organization, e.g. 1001 for "inventory asset 1001"',
							},
							eventTypeId: {
								type: 'number',
								description:
									'Numeric ID of the acquisition event type: 301 = Purchase, 302 = Lease, 304 = Donation',
							},
							notes: {
								type: 'string',
								description: 'Notes for the acquisition, e.g. the order number',
							},
							price: {
								type: 'number',
								description:
									'Price paid for this asset, a number with at most two decimals, e.g. 1249.00',
							},
							purchaseDate: {
								type: 'string',
								description:
									'Date the asset was bought or delivered, YYYY-MM-DD, not in the future',
							},
							vendor: {
								type: 'string',
								description: 'Who the asset was acquired from, e.g. the vendor on the invoice',
							},
						},
					},
					'the acquisition tool input schema (its $fromAI arguments)',
				);
				assertEqual(
					schemaOf(byName[TODO_TOOL]),
					{
						type: 'object',
						required: ['assetId', 'title'],
						properties: {
							assetId: {
								type: 'number',
								description: 'Numeric ID of the asset in the organization',
							},
							title: {
								type: 'string',
								description: 'What to do, in a few words, e.g. Tag and label',
							},
						},
					},
					'the to-do tool input schema',
				);
			});
		},
	);

	await check(
		'mcp: a call books one acquisition; the identical call again (also from a new session) is replayed, books nothing',
		async () => {
			await activate();
			await fresh(sandbox);
			const args = acquisition(1001, 1249);
			const first = await withClient(url, async (client) => {
				const answers = [];
				for (let i = 0; i < 2; i++) answers.push(await call(client, ACQUISITION_TOOL, args));
				return answers;
			});
			const third = await withClient(url, (client) => call(client, ACQUISITION_TOOL, args));
			const items = [...first, third].map((a, i) => itemOf(a, `call ${i + 1}`));

			const requests = await apiRequests(sandbox);
			assertEqual(
				requests.map((r) => [r.method, r.path, r.body, r.status, r.replayed]),
				[
					['POST', ACQUISITION_PATH(1001), acquisitionBody(args), 201, false],
					['POST', ACQUISITION_PATH(1001), acquisitionBody(args), 201, true],
					['POST', ACQUISITION_PATH(1001), acquisitionBody(args), 201, true],
				],
				'the requests (method, path, body, status, replayed): booked once, then replayed twice',
			);
			assertEqual(
				requests.map((r) => r.key),
				Array(3).fill(requests[0].key),
				'one Idempotency-Key for the three identical calls',
			);
			const state = await sandbox.state();
			assertEqual(
				state.acquisitions.map((a) => [a.asset_id, a.price, a.idempotency_key]),
				[[1001, '1249.00', requests[0].key]],
				'acquisitions in the sandbox',
			);
			assertEqual(
				items.map((item) => [item.asset_id, item.asset_event_ids, item.repeatCheck?.outcome]),
				[
					[1001, items[0].asset_event_ids, 'recorded'],
					[1001, items[0].asset_event_ids, 'replayed'],
					[1001, items[0].asset_event_ids, 'replayed'],
				],
				"the tool's results (asset, event IDs, repeatCheck.outcome)",
			);
			assertEqual(
				items.map((item) => item.repeatCheck?.idempotencyKey),
				Array(3).fill(requests[0].key),
				"the results' repeatCheck.idempotencyKey",
			);
		},
	);

	await check(
		'mcp: Create to-do books the to-do the client names; the identical call again is replayed',
		async () => {
			await activate();
			await fresh(sandbox);
			const args = { assetId: 1004, title: 'Tag and label' };
			const answers = await withClient(url, async (client) => [
				await call(client, TODO_TOOL, args),
				await call(client, TODO_TOOL, args),
			]);
			const items = answers.map((a, i) => itemOf(a, `to-do call ${i + 1}`));
			const requests = await apiRequests(sandbox);
			assertEqual(
				requests.map((r) => [r.method, r.path, r.body, r.status, r.replayed]),
				[
					['POST', '/api/v1/assets/1004/todos', { name: 'Tag and label' }, 201, false],
					['POST', '/api/v1/assets/1004/todos', { name: 'Tag and label' }, 201, true],
				],
				'the requests (method, path, body, status, replayed)',
			);
			assertEqual(requests[1].key, requests[0].key, 'one Idempotency-Key for both calls');
			const { todos } = await sandbox.state();
			assertEqual(
				todos.map((t) => [t.asset_id, t.name]),
				[[1004, 'Tag and label']],
				'to-dos in the sandbox',
			);
			assertEqual(
				items.map((item) => [item.todo?.id, item.todo?.name, item.repeatCheck?.outcome]),
				[
					[todos[0].id, 'Tag and label', 'recorded'],
					[todos[0].id, 'Tag and label', 'replayed'],
				],
				"the tool's results (to-do id and name, repeatCheck.outcome)",
			);
		},
	);

	const CLIENT_TIMEOUT_MS = 2_000;
	const HOLD_MS = 5_000;
	await check(
		`mcp: a retry after a lost answer (the API held the key ${HOLD_MS} ms, the client gave up after ${CLIENT_TIMEOUT_MS} ms) books once`,
		async () => {
			await activate();
			await fresh(sandbox);
			const args = acquisition(1002, 899.5);
			await sandbox.setFaults({
				operations: ['recordAcquisition'],
				holdInFlightRate: 1,
				holdInFlightMs: HOLD_MS,
			});
			const retried = await withClient(url, async (client) => {
				let timedOut;
				try {
					await call(client, ACQUISITION_TOOL, args, { timeout: CLIENT_TIMEOUT_MS });
				} catch (e) {
					timedOut = e;
				}
				assert(
					timedOut instanceof McpError && timedOut.code === ErrorCode.RequestTimeout,
					`the first call timed out at the client (got ${timedOut?.stack ?? 'an answer'})`,
				);
				// The client tries again at once, with the same arguments, the fault lifted.
				await sandbox.setFaults(null);
				return await call(client, ACQUISITION_TOOL, args, { timeout: 60_000 });
			});
			const item = itemOf(retried, 'the retry');

			const requests = await apiRequests(sandbox);
			const held = requests.find((r) => r.fault === 'holdInFlight');
			const at = (ms) => `${((ms - requests[0].startedAtMs) / 1000).toFixed(2)} s`;
			log(
				`measured: ${requests.map((r) => `${r.status}${r.replayed ? ' replayed' : ''}${r.fault ? ` (${r.fault})` : ''} ${at(r.startedAtMs)}-${at(r.finishedAtMs)}`).join(', ')}`,
			);
			assert(held, `the first request was held (got ${JSON.stringify(requests)})`);
			assertEqual(
				[held.path, held.body, held.status, held.replayed],
				[ACQUISITION_PATH(1002), acquisitionBody(args), 201, false],
				'the held request: applied once its hold ended',
			);
			assertEqual(
				requests.map((r) => r.key),
				Array(requests.length).fill(held.key),
				'every request of the call and its retry carries the same Idempotency-Key',
			);
			assertEqual(
				applied(requests).length,
				1,
				`requests that booked (all: ${JSON.stringify(requests.map((r) => [r.status, r.replayed, r.fault]))})`,
			);
			assertEqual(requests.at(-1).replayed, true, "the retry's request was replayed");
			assertEqual(
				(await sandbox.state()).acquisitions.map((a) => [a.asset_id, a.idempotency_key]),
				[[1002, held.key]],
				'acquisitions in the sandbox: one',
			);
			assertEqual(
				[item.asset_id, item.repeatCheck?.outcome, item.repeatCheck?.idempotencyKey],
				[1002, 'replayed', held.key],
				"the retry's result",
			);
		},
	);

	const AT_ONCE = 20;
	await check(
		`mcp: ${AT_ONCE} calls at once book ${AT_ONCE} acquisitions; the same ${AT_ONCE} again are replayed, still ${AT_ONCE}`,
		async () => {
			await activate();
			await fresh(sandbox);
			// The seed's assets 1001-1020, each its own price.
			const calls = Array.from({ length: AT_ONCE }, (_, i) => acquisition(1001 + i, 100 + i));
			const round = (client) =>
				Promise.all(
					calls.map((args) => call(client, ACQUISITION_TOOL, args, { timeout: 120_000 })),
				);
			const [firstRound, secondRound] = await withClient(url, async (client) => [
				await round(client),
				await round(client),
			]);
			const outcomes = (answers) =>
				answers.map((a, i) => {
					const item = itemOf(a, `call for asset ${calls[i].assetId}`);
					return [item.asset_id, item.repeatCheck?.outcome];
				});
			assertEqual(
				outcomes(firstRound),
				calls.map((c) => [c.assetId, 'recorded']),
				'first round: each call answered for its asset, recorded',
			);
			assertEqual(
				outcomes(secondRound),
				calls.map((c) => [c.assetId, 'replayed']),
				'second round: each call answered for its asset, replayed',
			);

			const requests = await apiRequests(sandbox);
			const byPath = (list) => [...list].sort((a, b) => a.path.localeCompare(b.path));
			const booked = byPath(requests.filter((r) => !r.replayed));
			const replayed = byPath(requests.filter((r) => r.replayed));
			assertEqual(
				booked.map((r) => [r.path, r.body.price, r.status]),
				calls.map((c) => [ACQUISITION_PATH(c.assetId), c.price, 201]),
				'booked requests: one per call',
			);
			assertEqual(new Set(booked.map((r) => r.key)).size, AT_ONCE, 'distinct keys');
			assertEqual(
				replayed.map((r) => [r.path, r.key]),
				booked.map((r) => [r.path, r.key]),
				'the second round: every request replayed with its first-round key',
			);
			const { acquisitions } = await sandbox.state();
			assertEqual(
				[...acquisitions].sort((a, b) => a.asset_id - b.asset_id).map((a) => [a.asset_id, a.price]),
				calls.map((c) => [c.assetId, c.price.toFixed(2)]),
				`acquisitions in the sandbox: ${AT_ONCE}`,
			);
		},
	);

	await check(
		'mcp: bad arguments (a price with three decimals, a non-numeric asset id) give an error result naming the argument, nothing booked',
		async () => {
			await activate();
			await fresh(sandbox);
			const [badPrice, badAsset] = await withClient(url, async (client) => [
				await call(client, ACQUISITION_TOOL, acquisition(1003, 189.999)),
				await call(client, ACQUISITION_TOOL, acquisition('asset 1003', 189.99)),
			]);
			// The node refuses the price before sending; n8n's MCP server answers a tool's error as
			// "<error class>: <message>" with isError. The message names the argument (its $fromAI key)
			// and the value the client sent.
			assertEqual(badPrice.result.isError, true, 'a price with three decimals: isError');
			assert(
				badPrice.text.includes('price') && badPrice.text.includes('189.999'),
				`a price with three decimals: the error names the argument price and the value (got ${badPrice.text})`,
			);
			log(`the error a client gets for a price with three decimals: ${badPrice.text}`);
			// The tool's input schema (the $fromAI types) refuses the asset id before the node runs.
			assertEqual(badAsset.result.isError, true, 'a non-numeric asset id: isError');
			assert(
				badAsset.text.includes('Expected number, received string') &&
					badAsset.text.includes('assetId'),
				`a non-numeric asset id: the error names assetId (got ${badAsset.text})`,
			);
			assertEqual(await apiRequests(sandbox), [], 'requests at the sandbox');
			assertEqual((await sandbox.state()).acquisitions, [], 'acquisitions in the sandbox');
		},
	);
}
