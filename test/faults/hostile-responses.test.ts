/**
 * Hostile answers from whatever sits at the credential's Base URL (a proxy, a wrong service, a
 * broken deployment): a tiny node:http server on 127.0.0.1 answers per asset ID. Each must end in a
 * clear error on the item, never a crash, and never show the API token, even when the server echoes
 * it back.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IRun } from 'n8n-workflow';

import { createTodoParameters, TOKENS } from '../fixtures';
import {
	forgetServerControllers,
	inventoryWorkflow,
	nodeOutput,
	runWorkflow,
} from '../harness/engine';
import { captureOutput, occurrences, serializeRun, type Capture } from './helpers';

const HUGE = 20 * 1024 * 1024;

interface Answer {
	status: number;
	type?: string;
	body: string | Buffer;
}

/** What the server received, per request (cleared before each test), and every Authorization header it saw. */
const received: { path: string; authorization: string | undefined; key: string | undefined }[] = [];
const authorizations: string[] = [];

function echo(req: IncomingMessage): string {
	return `${req.method} ${req.url}\nAuthorization: ${req.headers.authorization}\nIdempotency-Key: ${req.headers['idempotency-key']}`;
}

const answers: Record<number, (req: IncomingMessage) => Answer> = {
	1: () => ({ status: 200, type: 'text/plain', body: 'OK' }),
	2: () => ({ status: 201, type: 'application/json', body: '{"data": {"asset_id": 2,' }),
	3: () => ({
		status: 502,
		type: 'text/html',
		body: '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.25.3</center>\r\n</body>\r\n</html>\r\n',
	}),
	4: () => ({ status: 201, type: 'application/json', body: '' }),
	5: () => ({ status: 200, type: 'application/json', body: '{}' }),
	6: () => ({ status: 200, type: 'application/json', body: '{"result": {"asset_id": 6}}' }),
	7: () => ({ status: 201, type: 'application/json', body: '{"data": [1, 2, 3]}' }),
	8: () => ({ status: 200, type: 'application/json', body: 'null' }),
	9: () => ({ status: 200, type: 'text/html', body: Buffer.alloc(HUGE, 'A') }),
	10: () => ({
		status: 500,
		type: 'application/json',
		body: `{"message": "Internal error", "trace": "${'x'.repeat(HUGE)}"}`,
	}),
	// A debugging proxy that echoes the request, token included, in its error page and messages.
	11: (req) => ({
		status: 502,
		type: 'text/html',
		body: `<html><body><h1>Upstream error</h1><pre>${echo(req)}</pre></body></html>`,
	}),
	12: (req) => ({ status: 200, type: 'text/plain', body: `Unexpected request:\n${echo(req)}` }),
	13: (req) => ({
		status: 400,
		type: 'application/json',
		body: JSON.stringify({ message: `Bad request: ${echo(req)}` }),
	}),
	14: (req) => ({
		status: 422,
		type: 'application/json',
		body: JSON.stringify({
			message: 'Invalid input',
			errors: { name: [`rejected for ${req.headers.authorization}`] },
		}),
	}),
	15: (req) => ({
		status: 409,
		type: 'application/json',
		body: JSON.stringify({ message: `Conflict for ${req.headers.authorization}` }),
	}),
	16: (req) => ({
		status: 401,
		type: 'application/json',
		body: JSON.stringify({ message: `Token ${req.headers.authorization} is unknown` }),
	}),
	// A static web server (Python's http.server answers POST so).
	17: () => ({
		status: 501,
		type: 'text/html',
		body: "<!DOCTYPE HTML>\n<html><head><title>Error response</title></head><body><h1>Error response</h1><p>Error code: 501</p><p>Message: Unsupported method ('POST').</p></body></html>\n",
	}),
	// A web server's page for a path it does not have.
	18: () => ({
		status: 404,
		type: 'text/html',
		body: '<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>',
	}),
	// JSON of another service: no `message`.
	19: () => ({ status: 404, type: 'application/json', body: '{"error":"Not Found"}' }),
};

let server: Server;
let baseUrl: string;
let capture: Capture;
const runs: IRun[] = [];

beforeAll(async () => {
	capture = captureOutput();
	server = createServer((req, res) => {
		req.resume();
		req.on('end', () => {
			received.push({
				path: req.url ?? '',
				authorization: req.headers.authorization,
				key: req.headers['idempotency-key'] as string,
			});
			authorizations.push(req.headers.authorization ?? '');
			const id = Number(/^\/api\/v1\/assets\/(\d+)\/todos$/.exec(req.url ?? '')?.[1]);
			const answer = answers[id]?.(req) ?? {
				status: 404,
				type: 'text/plain',
				body: 'no such test',
			};
			res.writeHead(answer.status, { 'Content-Type': answer.type ?? 'application/json' });
			res.end(answer.body);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
	await new Promise<void>((resolve) => server.close(() => resolve()));
	capture.stop();
});
beforeEach(() => {
	received.length = 0;
	forgetServerControllers();
});

async function run(
	assetId: number,
	options: Record<string, unknown> = {},
	node = {},
): Promise<IRun> {
	const result = await runWorkflow(
		inventoryWorkflow(
			[{ assetId }],
			createTodoParameters({
				assetId: '={{ $json.assetId }}',
				options: { maxRetries: 1, retryDelay: 1, timeout: 20_000, ...options },
			}),
			{ node },
		),
		{ credentials: { baseUrl, apiToken: TOKENS.fullAccess } },
	);
	runs.push(result);
	return result;
}

function failure(result: IRun): {
	message?: string;
	description?: string | null;
	httpCode?: string | null;
} {
	expect(result.status).toBe('error');
	const { message, description, httpCode } = result.data.resultData.error as {
		message?: string;
		description?: string | null;
		httpCode?: string | null;
	};
	return { message, description, httpCode };
}

const checkBaseUrl = () =>
	`Open the "Inventory API" credential of this node and check its Base URL (${baseUrl}): it must be the address of your Inventory service, e.g. https://inventory.example.com (a trailing /api/v1 is fine). The credential's Test button tells whether it leads to the Inventory API.`;
/** The message of a run of one item (item 0). */
const notApi = (status: number, kind: string, after = '') =>
	`The server at the credential's Base URL answered ${status} with ${kind}, not the Inventory API's JSON${after} [item 0]`;
const notApiDescription = (began: string) =>
	`${checkBaseUrl()} Nothing reached the Inventory API.${began ? ` The answer began with: ${began}` : ''}`;
const OTHER_JSON = 'JSON of another shape';

describe('a success status without the JSON "data" object', () => {
	test.each([
		[1, 'a plain-text 200', 200, 'a text', 'OK'],
		[2, 'a 201 with cut-off JSON', 201, 'a text', '{"data": {"asset_id": 2,'],
		[4, 'a 201 with an empty body', 201, 'an empty body', ''],
		[5, 'a 200 with {}', 200, OTHER_JSON, '{}'],
		[6, 'a 200 without "data"', 200, OTHER_JSON, '{"result":{"asset_id":6}}'],
		[7, 'a 201 whose "data" is a list', 201, OTHER_JSON, '{"data":[1,2,3]}'],
		[8, 'a 200 with JSON null', 200, OTHER_JSON, 'null'],
	])('asset %i: %s', async (assetId, _title, status, kind, began) => {
		const result = await run(assetId);
		expect(failure(result)).toEqual({
			message: notApi(status, kind),
			description: notApiDescription(began),
			httpCode: String(status),
		});
		// Not retried: the answer is final, and the item was sent once with its key; then one request
		// without a token asked whether the Base URL is the API (it is not: nothing reached the API).
		expect(received.map((r) => r.path)).toEqual([
			`/api/v1/assets/${assetId}/todos`,
			'/api/v1/assets/0/todos',
		]);
		expect(received[1].authorization).toBe('Bearer');
	});

	test('asset 9: a 20 MB HTML body is cut to a short excerpt', async () => {
		const result = await run(9);
		expect(failure(result)).toEqual({
			message: notApi(200, 'a text'),
			description: notApiDescription(`${'A'.repeat(300)}… (${HUGE} characters)`),
			httpCode: '200',
		});
		expect(serializeRun(result).length).toBeLessThan(100_000);
	});
});

describe("an error answer that is not the API's (no JSON message) fails at once, about the Base URL", () => {
	test.each([
		[
			17,
			"a static web server's HTML 501",
			501,
			'an HTML page',
			"<!DOCTYPE HTML> <html><head><title>Error response</title></head><body><h1>Error response</h1><p>Error code: 501</p><p>Message: Unsupported method ('POST').</p></body></html>",
		],
		[
			18,
			'an HTML 404 page',
			404,
			'an HTML page',
			'<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>',
		],
		[19, 'a JSON 404 of another service', 404, OTHER_JSON, '{"error":"Not Found"}'],
		[20, 'a plain-text 404 for an unknown path', 404, 'a text', 'no such test'],
	])('asset %i: %s', async (assetId, _title, status, kind, began) => {
		const result = await run(assetId, { maxRetries: 3 });
		expect(failure(result)).toEqual({
			message: notApi(status, kind),
			description: notApiDescription(began),
			httpCode: String(status),
		});
		expect(failure(result).message).not.toMatch(/Asset|not found/);
		// Not retried: waiting does not change an address.
		expect(received.map((r) => r.path)).toEqual([`/api/v1/assets/${assetId}/todos`]);
	});
});

describe('server errors, retried, then a clear error', () => {
	test("asset 3: a proxy's HTML 502 page", async () => {
		const result = await run(3);
		const [{ key }] = received;
		expect(failure(result)).toEqual({
			message: notApi(502, 'an HTML page', ', after 1 retry'),
			description: `A proxy or gateway in front of the service may be failing; a retry sends the same Idempotency-Key (${key}). If this persists: ${checkBaseUrl()} The answer began with: <html> <head><title>502 Bad Gateway</title></head> <body> <center><h1>502 Bad Gateway</h1></center> <hr><center>nginx/1.25.3</center> </body> </html>`,
			httpCode: '502',
		});
		// Both attempts carried the same Idempotency-Key.
		expect(received).toHaveLength(2);
		expect(new Set(received.map((r) => r.key)).size).toBe(1);
	});

	test('asset 10: a 20 MB JSON 500 uses its message', async () => {
		const result = await run(10, { maxRetries: 0 });
		expect(failure(result)).toEqual({
			message: 'The Inventory API failed (500) after 0 retries [item 0]',
			description: 'Internal error',
			httpCode: '500',
		});
		expect(serializeRun(result).length).toBeLessThan(100_000);
	});
});

describe('answers that echo the token back', () => {
	test('asset 11: an HTML 502 page showing the Authorization header', async () => {
		const result = await run(11);
		const { message, description } = failure(result);
		expect(message).toBe(notApi(502, 'an HTML page', ', after 1 retry'));
		expect(description).toMatch(
			/ The answer began with: <html><body><h1>Upstream error<\/h1><pre>POST \/api\/v1\/assets\/11\/todos Authorization: Bearer \[redacted\] Idempotency-Key: [0-9a-f-]{36}<\/pre><\/body><\/html>$/,
		);
		// The server did receive the token: it is the answer that must not show it.
		expect(received[0].authorization).toBe(`Bearer ${TOKENS.fullAccess}`);
	});

	test('asset 12: a plain-text 200 showing the Authorization header', async () => {
		const { message, description } = failure(await run(12));
		expect(message).toBe(notApi(200, 'a text'));
		expect(description).toMatch(
			/ The answer began with: Unexpected request: POST \/api\/v1\/assets\/12\/todos Authorization: Bearer \[redacted\] Idempotency-Key: [0-9a-f-]{36}$/,
		);
	});

	test('asset 13: a 400 whose message holds the token', async () => {
		const { message, description } = failure(await run(13));
		expect(message).toMatch(
			/^The Inventory API answered 400: Bad request: POST \/api\/v1\/assets\/13\/todos\nAuthorization: Bearer \[redacted\]\nIdempotency-Key: [0-9a-f-]{36} \[item 0\]$/,
		);
		expect(description).toMatch(
			/^\{"message":"Bad request: POST \/api\/v1\/assets\/13\/todos\\nAuthorization: Bearer \[redacted\]\\nIdempotency-Key: [0-9a-f-]{36}"\}$/,
		);
	});

	test('asset 14: a 422 whose field errors hold the token', async () => {
		expect(failure(await run(14))).toEqual({
			message: 'The Inventory API rejected the input (422): Invalid input [item 0]',
			description: 'Fields with problems: name: rejected for Bearer [redacted]',
			httpCode: '422',
		});
	});

	test('asset 15: a 409 whose message holds the token', async () => {
		expect(failure(await run(15))).toEqual({
			message:
				'The Inventory API refused the change (409): Conflict for Bearer [redacted] [item 0]',
			description:
				'The record changed or is in a state that does not allow this action. Refresh the record and try again.',
			httpCode: '409',
		});
	});

	test("asset 16: a 401 whose message holds the token: the API's reason, redacted", async () => {
		expect(failure(await run(16))).toEqual({
			message:
				'The Inventory API rejected the API token (401): Token Bearer [redacted] is unknown [item 0]',
			description:
				'The API refuses a token that is missing, expired, revoked or not a customer API token. Open the "Inventory API" credential of this node and enter a valid customer API token of your organization (its Test button checks it).',
			httpCode: '401',
		});
	});
});

test('with "On Error: Continue", every hostile answer becomes an error item and the run ends', async () => {
	const assetIds = Object.keys(answers).map(Number);
	const result = await runWorkflow(
		inventoryWorkflow(
			assetIds.map((assetId) => ({ assetId })),
			createTodoParameters({
				assetId: '={{ $json.assetId }}',
				options: { maxRetries: 1, retryDelay: 1, concurrency: 4 },
			}),
			{ node: { onError: 'continueRegularOutput' } },
		),
		{ credentials: { baseUrl, apiToken: TOKENS.fullAccess } },
	);
	runs.push(result);
	expect(result.status).toBe('success');
	const output = nodeOutput(result, 'Inventory');
	expect(output.map((item) => item.pairedItem)).toEqual(assetIds.map((_, item) => ({ item })));
	const key = '[0-9a-f-]{36}';
	const notApiItem = (status: number, kind: string, after = '') =>
		new RegExp(
			`^The server at the credential's Base URL answered ${status} with ${kind}, not the Inventory API's JSON${after}$`,
		);
	const expected: Record<number, RegExp> = {
		1: notApiItem(200, 'a text'),
		2: notApiItem(201, 'a text'),
		3: notApiItem(502, 'an HTML page', ', after 1 retry'),
		4: notApiItem(201, 'an empty body'),
		5: notApiItem(200, OTHER_JSON),
		6: notApiItem(200, OTHER_JSON),
		7: notApiItem(201, OTHER_JSON),
		8: notApiItem(200, OTHER_JSON),
		9: notApiItem(200, 'a text'),
		10: /^The Inventory API failed \(500\) after 1 retry$/,
		11: notApiItem(502, 'an HTML page', ', after 1 retry'),
		12: notApiItem(200, 'a text'),
		13: new RegExp(
			`^The Inventory API answered 400: Bad request: POST /api/v1/assets/13/todos\nAuthorization: Bearer \\[redacted\\]\nIdempotency-Key: ${key}$`,
		),
		14: /^The Inventory API rejected the input \(422\): Invalid input$/,
		15: /^The Inventory API refused the change \(409\): Conflict for Bearer \[redacted\]$/,
		16: /^The Inventory API rejected the API token \(401\): Token Bearer \[redacted\] is unknown$/,
		17: notApiItem(501, 'an HTML page'),
		18: notApiItem(404, 'an HTML page'),
		19: notApiItem(404, OTHER_JSON),
	};
	output.forEach((item, index) => {
		// Each message names its item, as the node's own messages do.
		const error = String(item.json.error);
		const ofItem = ` [item ${index}]`;
		expect(error.endsWith(ofItem)).toBe(true);
		expect(error.slice(0, -ofItem.length)).toMatch(expected[assetIds[index]]);
	});
	expect(output.map((item) => item.pairedItem)).toEqual(assetIds.map((_, item) => ({ item })));
});

test('the API token appears nowhere in the run data, messages, descriptions, logs or console output', () => {
	expect(runs.length).toBeGreaterThanOrEqual(Object.keys(answers).length + 1);
	for (const text of [...runs.map(serializeRun), capture.lines.join('\n')]) {
		expect(occurrences(text, TOKENS.fullAccess)).toEqual([]);
	}
	// The search itself works: the capture holds the engine's log, and the server saw the token.
	expect(
		capture.lines.some((line) =>
			line.startsWith('debug Running node "Inventory" finished with error'),
		),
	).toBe(true);
	expect(authorizations.length).toBeGreaterThan(runs.length);
	// The token, and no token at all where a success without "data" asked whether the Base URL is
	// the API (Node takes the space off "Bearer ").
	expect(new Set(authorizations)).toEqual(new Set([`Bearer ${TOKENS.fullAccess}`, 'Bearer']));
});
