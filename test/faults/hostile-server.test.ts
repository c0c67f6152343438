/**
 * A server at the Base URL that tries to get the token or a false booking out of the node:
 * redirects of every status to another origin, a trickling body, a body cut after its 2xx headers,
 * the token echoed in error and success bodies, an envelope-less 2xx from a server that otherwise
 * answers as the API, a 5 MB message; and a credential the node must refuse before sending anything
 * (a token with an inner line break or invisible character, a Base URL with user info, a query, a
 * fragment, or none at all). Each runs through n8n-core's engine (the credential test through n8n's
 * own CredentialTestContext) against node:http servers of this file's own on 127.0.0.1.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CredentialTestContext } from 'n8n-core';
import type { IDataObject, INode, IRun, IWorkflowExecuteAdditionalData } from 'n8n-workflow';

import {
	createTodoParameters,
	recordAcquisitionParameters,
	TOKENS,
	updateBillingParameters,
} from '../fixtures';
import {
	forgetServerControllers,
	inventoryWorkflow,
	nodeOutput,
	runWorkflow,
} from '../harness/engine';
import { transportCredentialTest } from '../node/package-modules';
import { occurrences, serializeRun } from './helpers';

const { testInventoryCredential } = transportCredentialTest;

const TOKEN = TOKENS.fullAccess;

/** What jest's fake timers leave real when only the timeouts (setTimeout) are to run on its clock. */
const REAL_BESIDE_FAKE_TIMEOUTS = [
	'Date',
	'hrtime',
	'nextTick',
	'performance',
	'queueMicrotask',
	'setImmediate',
	'clearImmediate',
	'setInterval',
	'clearInterval',
] as const;

interface Seen {
	method: string;
	path: string;
	authorization: string | undefined;
	key: string | undefined;
	body: string;
}

/** What each server received (cleared before each test). */
const atFront: Seen[] = [];
const elsewhere: Seen[] = [];

type Handler = (req: IncomingMessage, res: ServerResponse, seen: Seen) => void;
/** How the server at the Base URL answers, set per test. */
let handler: Handler = (_req, res) => json(res, 500, { message: 'no handler' });

function json(res: ServerResponse, status: number, body: unknown, headers = {}) {
	res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
	res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

function recordingServer(into: Seen[], answer: () => Handler): Server {
	return createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const seen: Seen = {
				method: req.method ?? '',
				path: req.url ?? '',
				authorization: req.headers.authorization,
				key: req.headers['idempotency-key'] as string | undefined,
				body: Buffer.concat(chunks).toString('utf8'),
			};
			into.push(seen);
			answer()(req, res, seen);
		});
	});
}

let front: Server;
let other: Server;
let frontUrl: string;
let otherUrl: string;
/** Responses kept open by a trickle, ended after each test. */
const open: ServerResponse[] = [];
const runs: IRun[] = [];
const texts: string[] = [];

const at = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

beforeAll(async () => {
	front = recordingServer(atFront, () => handler);
	// Another origin: it answers like the API and books, so that a followed redirect would show.
	other = recordingServer(elsewhere, () => (req, res) => {
		if (req.method === 'GET') json(res, 200, { data: { asset_id: 1001, booked: 'as a GET' } });
		else json(res, 201, { data: { asset_id: 1001, booked: 'elsewhere' } });
	});
	await Promise.all(
		[front, other].map((s) => new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))),
	);
	frontUrl = at(front);
	otherUrl = at(other);
});
afterAll(async () => {
	for (const server of [front, other]) {
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	}
});
beforeEach(() => {
	atFront.length = 0;
	elsewhere.length = 0;
	forgetServerControllers();
});
afterEach(() => {
	for (const res of open.splice(0)) res.destroy();
});

const OPERATIONS = {
	createTodo: {
		parameters: createTodoParameters,
		method: 'POST',
		path: '/api/v1/assets/1001/todos',
	},
	recordAcquisition: {
		parameters: recordAcquisitionParameters,
		method: 'POST',
		path: '/api/v1/assets/1001/acquisitions',
	},
	updateBilling: {
		parameters: updateBillingParameters,
		method: 'PUT',
		path: '/api/v1/subscriptions/2001/billing',
	},
} as const;
type Operation = keyof typeof OPERATIONS;

async function run(
	options: {
		operation?: Operation;
		nodeOptions?: IDataObject;
		baseUrl?: string;
		apiToken?: string;
		node?: Partial<INode>;
		parameters?: IDataObject;
	} = {},
): Promise<IRun> {
	const { parameters } = OPERATIONS[options.operation ?? 'createTodo'];
	const result = await runWorkflow(
		inventoryWorkflow(
			[{}],
			parameters({
				options: { maxRetries: 2, retryDelay: 1, timeout: 20_000, ...options.nodeOptions },
				...options.parameters,
			}),
			{ node: options.node },
		),
		{ credentials: { baseUrl: options.baseUrl ?? frontUrl, apiToken: options.apiToken ?? TOKEN } },
	);
	runs.push(result);
	return result;
}

function failure(result: IRun): { message?: string; description?: string | null } {
	expect(result.status).toBe('error');
	const { message, description } = result.data.resultData.error as {
		message?: string;
		description?: string | null;
	};
	return { message, description };
}

/** The credential test as n8n runs it: its own CredentialTestContext and legacy request helper. */
async function testCredential(baseUrl: string, apiToken = TOKEN) {
	const context = new CredentialTestContext({} as IWorkflowExecuteAdditionalData);
	const result = await testInventoryCredential.call(context, {
		id: 'cred-1',
		name: 'Inventory',
		type: 'inventoryApi',
		data: { baseUrl, apiToken, ignoreSslIssues: false },
	});
	texts.push(JSON.stringify(result));
	return result;
}

/** The API as the credential test and the address check meet it: 401 with its message to no token. */
function answersAsApi(req: IncomingMessage, res: ServerResponse): boolean {
	// Node takes the space off the header of a request sent without a token ("Bearer ").
	if (['Bearer', 'Bearer ', undefined].includes(req.headers.authorization)) {
		json(res, 401, { message: 'Unauthenticated.' });
		return true;
	}
	return false;
}

const REDIRECTS = [301, 302, 303, 307, 308] as const;

describe('a redirect is never followed: nothing booked, nothing retried, no token elsewhere', () => {
	const cases = REDIRECTS.flatMap((status) =>
		(Object.keys(OPERATIONS) as Operation[]).map((operation) => [status, operation] as const),
	);
	test.each(cases)('%i for %s', async (status, operation) => {
		const { method, path } = OPERATIONS[operation];
		handler = (_req, res, seen) =>
			json(res, status, '', { Location: `${otherUrl}${seen.path}`, 'Content-Length': '0' });
		const result = await run({ operation });
		expect(failure(result)).toEqual({
			message: `The server at the credential's Base URL answered ${status}, a redirect to ${otherUrl}, which the node does not follow: nothing was booked [item 0]`,
			description: `Nothing reached the Inventory API: the node follows no redirect, so neither the request nor the API Token went to that address. If that is your Inventory service, enter ${otherUrl} as the credential's Base URL.`,
		});
		// Sent once (a redirect is not retried), and nothing at the other origin.
		expect(atFront.map((seen) => `${seen.method} ${seen.path}`)).toEqual([`${method} ${path}`]);
		expect(elsewhere).toEqual([]);
	});

	test('http:// in front of a server that redirects to https://: the https:// address is named', async () => {
		handler = (_req, res, seen) =>
			json(res, 301, '', {
				Location: `https://inventory.example.com${seen.path}`,
				'Content-Length': '0',
			});
		const { message } = failure(await run());
		expect(message).toBe(
			"The server at the credential's Base URL answered 301, a redirect to https://inventory.example.com, which the node does not follow: nothing was booked [item 0]",
		);
	});

	test('with "On Error: Continue", the redirected item is an error item, not a booking', async () => {
		handler = (_req, res) =>
			json(res, 302, '', { Location: `${otherUrl}/login?next=1`, 'Content-Length': '0' });
		const result = await run({ node: { onError: 'continueRegularOutput' } });
		expect(result.status).toBe('success');
		const [item] = nodeOutput(result, 'Inventory');
		expect(item.json.error).toBe(
			`The server at the credential's Base URL answered 302, a redirect to ${otherUrl}, which the node does not follow: nothing was booked [item 0]`,
		);
		expect((item.json.details as IDataObject).fate).toBe('notSent');
		expect(item.json).not.toHaveProperty('asset_id');
		expect(elsewhere).toEqual([]);
	});

	test.each(REDIRECTS)(
		'the credential test answered %i: no token sent, no request elsewhere',
		async (status) => {
			handler = (_req, res, seen) =>
				json(res, status, '', { Location: `${otherUrl}${seen.path}`, 'Content-Length': '0' });
			expect(await testCredential(frontUrl)).toEqual({
				status: 'Error',
				message: `The Base URL ${frontUrl} answered ${status}, a redirect to ${otherUrl}, which neither the test nor the node follows: the token was sent nowhere else. If that is your Inventory service, enter ${otherUrl} as the credential's Base URL.`,
			});
			// The first request (without a token) met the redirect: the token was never sent at all.
			expect(atFront.map((seen) => seen.authorization)).toEqual([undefined]);
			expect(elsewhere).toEqual([]);
		},
	);

	test('the credential test: a redirect only once the token is sent is not followed either', async () => {
		handler = (req, res, seen) => {
			if (!answersAsApi(req, res))
				json(res, 307, '', { Location: `${otherUrl}${seen.path}`, 'Content-Length': '0' });
		};
		const result = await testCredential(frontUrl);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^The Base URL .* answered 307, a redirect to /);
		expect(atFront).toHaveLength(2);
		expect(elsewhere).toEqual([]);
	});
});

describe('the Timeout bounds each attempt as a whole', () => {
	/** 201 headers at once, then one byte every 150 ms for 20 s. */
	const trickle: Handler = (_req, res) => {
		res.writeHead(201, { 'Content-Type': 'application/json' });
		open.push(res);
		res.write('{"data": {"asset_id": 1001, "pad": "');
		let sent = 0;
		const timer = setInterval(() => {
			if (res.destroyed || sent++ > 133) {
				clearInterval(timer);
				if (!res.destroyed) res.end('"}}');
				return;
			}
			res.write('x');
		}, 150);
		res.on('close', () => clearInterval(timer));
	};

	test('a trickling body: each attempt ends at the Timeout, retried with the same key, "may have been applied"', async () => {
		handler = trickle;
		const started = Date.now();
		const result = await run({ nodeOptions: { timeout: 1000, maxRetries: 1 } });
		// Without a bound, two attempts of a 20 s trickle take 40 s; a generous bound, no race.
		expect(Date.now() - started).toBeLessThan(15_000);
		const [{ key }] = atFront;
		expect(failure(result)).toEqual({
			message:
				'No answer from the Inventory API after 1 retry: no answer came within the timeout [item 0]',
			description: `Network failure ETIMEDOUT. Check the Base URL of the credential (${frontUrl}) and the network between n8n and the service. The request may have reached the API and been applied. The same Idempotency-Key (${key}) replays it, so Retry On Fail or Retry execution is safe: it never creates a second record.`,
		});
		expect(atFront.map((seen) => seen.key)).toEqual([key, key]);
	}, 30_000);

	test('Max Retries 0: one attempt', async () => {
		handler = trickle;
		const result = await run({ nodeOptions: { timeout: 1000, maxRetries: 0 } });
		expect(failure(result).message).toBe(
			'No answer from the Inventory API after 0 retries: no answer came within the timeout [item 0]',
		);
		expect(atFront).toHaveLength(1);
	}, 30_000);

	test('a body cut after its 2xx headers is retried with the same key, and the replay is output', async () => {
		let attempts = 0;
		handler = (_req, res) => {
			if (attempts++ === 0) {
				res.writeHead(201, { 'Content-Type': 'application/json', 'Content-Length': '500' });
				res.write('{"data": {"asset_id": 10');
				setImmediate(() => res.destroy());
				return;
			}
			json(res, 201, { data: { asset_id: 1001, todo: { id: 7 } } });
		};
		const result = await run();
		expect(result.status).toBe('success');
		const [item] = nodeOutput(result, 'Inventory');
		expect(item.json).toMatchObject({ asset_id: 1001, todo: { id: 7 } });
		expect(atFront).toHaveLength(2);
		expect(new Set(atFront.map((seen) => seen.key)).size).toBe(1);
	});

	test('a body cut every time: "may have been applied; the same key replays it"', async () => {
		handler = (_req, res) => {
			res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '500' });
			res.write('{"data": {');
			setImmediate(() => res.destroy());
		};
		const result = await run({ nodeOptions: { maxRetries: 1 } });
		const { message, description } = failure(result);
		expect(message).toBe(
			'No answer from the Inventory API after 1 retry: the answer broke off before its end [item 0]',
		);
		expect(description).toContain('The request may have reached the API and been applied.');
		expect(atFront).toHaveLength(2);
	});

	test('the credential test ends within its 30 s against a trickling server', async () => {
		// The request without a token is answered 401 by a trickle that never ends.
		handler = (_req, res) => {
			res.writeHead(401, { 'Content-Type': 'application/json' });
			open.push(res);
			res.write('{"message": "');
			const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write('x')), 150);
			res.on('close', () => clearInterval(timer));
		};
		const started = Date.now();
		// The test's 30 s run on jest's clock (its timeouts only; the trickle and the sockets are real).
		jest.useFakeTimers({ doNotFake: [...REAL_BESIDE_FAKE_TIMEOUTS] });
		try {
			let settled = false;
			const result = testCredential(frontUrl).finally(() => (settled = true));
			while (open.length === 0) await new Promise((resolve) => setImmediate(resolve));
			await jest.advanceTimersByTimeAsync(29_999);
			expect(settled).toBe(false);
			await jest.advanceTimersByTimeAsync(1);
			expect(await result).toEqual({
				status: 'Error',
				message: `The server at ${frontUrl} did not answer the test in full within 30 s. Check the Base URL and the network between n8n and the service, then test again. Nothing was created.`,
			});
		} finally {
			jest.useRealTimers();
		}
		expect(Date.now() - started).toBeLessThan(50_000);
		expect(atFront).toHaveLength(1);
	});
});

describe('no piece of the token is shown', () => {
	test('an HTML 500 quoting the header where the excerpt is cut: redacted before the cut', async () => {
		handler = (_req, res) => {
			res.writeHead(500, { 'Content-Type': 'text/html' });
			// The excerpt's 300 characters end 7 characters into the token.
			res.end(`<pre>${'x'.repeat(265)} Authorization: ${_req.headers.authorization}</pre>`);
		};
		const { description } = failure(await run({ nodeOptions: { maxRetries: 0 } }));
		expect(description).toContain(`${'x'.repeat(265)} Authorization: Bearer [redact… (`);
		expect(description).not.toContain(TOKEN.slice(0, 4));
	});

	test("a 401 whose message quotes the header past the credential test's cut", async () => {
		handler = (req, res) => {
			if (answersAsApi(req, res)) return;
			json(res, 401, { message: `${'y'.repeat(190)} ${req.headers.authorization}` });
		};
		const result = await testCredential(frontUrl);
		expect(result.message).toBe(
			`The Inventory API rejected this API token (401): ${'y'.repeat(190)} Bearer [r… Nothing was created.`,
		);
		expect(result.message).not.toContain(TOKEN.slice(0, 4));
	});

	test('a 422 whose field reasons quote the header', async () => {
		handler = (req, res) =>
			json(res, 422, {
				message: `Invalid for ${req.headers.authorization}`,
				errors: { [`name ${req.headers.authorization}`]: [`bad ${req.headers.authorization}`] },
			});
		const result = await run({ node: { onError: 'continueRegularOutput' } });
		const [item] = nodeOutput(result, 'Inventory');
		expect(item.json.error).toBe(
			'The Inventory API rejected the input (422): Invalid for Bearer [redacted] [item 0]',
		);
		expect((item.json.details as IDataObject).reasons).toEqual({
			'name Bearer [redacted]': 'bad Bearer [redacted]',
		});
	});

	test('a success body that echoes the header: the output item holds no token', async () => {
		handler = (req, res) =>
			json(res, 201, {
				data: {
					asset_id: 1001,
					echo: { headers: { authorization: req.headers.authorization } },
					[`key ${req.headers.authorization}`]: [req.headers.authorization],
				},
			});
		const result = await run();
		expect(result.status).toBe('success');
		const [item] = nodeOutput(result, 'Inventory');
		expect(item.json).toMatchObject({
			asset_id: 1001,
			echo: { headers: { authorization: 'Bearer [redacted]' } },
			'key Bearer [redacted]': ['Bearer [redacted]'],
		});
	});

	test.each([
		['a line break', `inv_demo\nfull_access`, 'a line break', 9, 20],
		['a carriage return and line feed', `inv_demo_full\r\n_access`, 'a line break', 14, 22],
		['a zero-width space', `inv_demo\u200bfull_access`, 'an invisible character', 9, 20],
		['a byte order mark', `inv_demo_full_access\ufeffx`, 'an invisible character', 21, 22],
		['a tab', `inv_demo\tfull_access`, 'a control character', 9, 20],
		['a space', `inv_demo full_access`, 'a space', 9, 20],
	])('a token with %s inside is refused, nothing sent', async (_title, token, what, at, length) => {
		const message = `The API Token holds ${what} inside it (at character ${at} of ${length}): nothing was sent with it. Open the "Inventory API" credential and paste the token again as your administrator gave it, on one line.`;
		expect(failure(await run({ apiToken: token })).message).toBe(message);
		expect(await testCredential(frontUrl, token)).toEqual({ status: 'Error', message });
		expect(atFront).toEqual([]);
	});

	test("n8n's placeholder for a saved secret is never sent as the token", async () => {
		const message =
			"The API Token is n8n's placeholder for a saved secret, not the token itself: nothing was sent. Save the credential, close it and open it again, then test it again (or enter the token again).";
		expect(
			await testCredential(frontUrl, '__n8n_BLANK_VALUE_e5362baf-c777-4d57-a609-6eaf1f9e87f6'),
		).toEqual({ status: 'Error', message });
		expect(atFront).toEqual([]);
	});
});

describe('a message never claims more than is known', () => {
	test('a 2xx without "data" from a server that answers as the API: may have been applied', async () => {
		handler = (req, res) => {
			if (!answersAsApi(req, res)) json(res, 201, { result: { asset_id: 1001 } });
		};
		const result = await run();
		const [booking] = atFront;
		expect(failure(result)).toEqual({
			message: `The server at the credential's Base URL answered 201 with JSON of another shape, without the Inventory API's "data" object: the request may have been applied [item 0]`,
			description: `It answers a request without a token as the Inventory API does, or did not answer it, so it may be the API: the request may have reached it and been applied. The same Idempotency-Key (${booking.key}) replays it, so Retry On Fail or Retry execution never books it twice; check the record before booking it another way. The answer began with: {"result":{"asset_id":1001}}`,
		});
		// The write once (not retried), then the check without a token.
		expect(atFront.map((seen) => `${seen.path} ${seen.authorization}`)).toEqual([
			`/api/v1/assets/1001/todos Bearer ${TOKEN}`,
			'/api/v1/assets/0/todos Bearer',
		]);
	});

	test('the same answer with "On Error: Continue": details say it may have been applied', async () => {
		handler = (req, res) => {
			if (!answersAsApi(req, res)) json(res, 200, {});
		};
		const result = await run({ node: { onError: 'continueRegularOutput' } });
		const [item] = nodeOutput(result, 'Inventory');
		expect((item.json.details as IDataObject).fate).toBe('mayHaveBeenApplied');
	});

	test.each([
		[
			'a space in the host',
			'http://inventory .example.com',
			'is no valid address (a space or another character a host name cannot hold, or a port above 65535): nothing was sent. Enter the address of your Inventory service, e.g. https://inventory.example.com',
		],
		[
			'port 99999',
			'http://127.0.0.1:99999',
			'is no valid address (a space or another character a host name cannot hold, or a port above 65535): nothing was sent. Enter the address of your Inventory service, e.g. https://inventory.example.com',
		],
		[
			'a query',
			'FRONT/?tenant=acme',
			'holds a query (?...): nothing was sent, since the node appends /api/v1/... to the address and the query would end up in front of it. Remove the query, e.g. FRONT',
		],
		[
			'a fragment',
			'FRONT#x',
			'holds a fragment (#...): nothing was sent, since the node appends /api/v1/... to the address and the fragment would swallow it. Remove it, e.g. FRONT',
		],
		[
			'user info',
			'http://user:s3cret-pw@HOST',
			'holds a user name or password before the host (user:password@): nothing was sent, since the API takes only the API Token. Remove that part, e.g. FRONT',
		],
	])(
		'a Base URL with %s is refused by the node and the test, nothing sent',
		async (_t, url, problem) => {
			const baseUrl = url.replace('FRONT', frontUrl).replace('HOST', frontUrl.slice(7));
			const expected = problem.replace('FRONT', frontUrl);
			const result = await run({ baseUrl });
			expect(failure(result)).toEqual({
				message: `The Base URL of the Inventory API credential ${expected}`,
				description: 'Open the credential and correct its Base URL.',
			});
			expect(await testCredential(baseUrl)).toEqual({
				status: 'Error',
				message: `The Base URL ${expected}`,
			});
			// A dry run is refused too: it never shows the password.
			const dry = await run({ baseUrl, nodeOptions: { dryRun: true } });
			expect(failure(dry).message).toBe(`The Base URL of the Inventory API credential ${expected}`);
			expect(serializeRun(dry)).not.toContain('s3cret-pw');
			expect(atFront).toEqual([]);
		},
	);

	test('custom field JSON too deep to write: refused naming the field, nothing sent', async () => {
		const depth = 20_000;
		const result = await run({
			operation: 'recordAcquisition',
			parameters: {
				additionalFields: {
					fieldValuesJson: `{"5": ${'['.repeat(depth)}${']'.repeat(depth)}}`,
				},
			},
		});
		const { message } = failure(result);
		expect(message).toMatch(
			/^Custom Field Values \(JSON\) is nested too deeply to be sent as JSON/,
		);
		expect(atFront).toEqual([]);
	});

	test('a 5 MB API message becomes a short message', async () => {
		const huge = 'z'.repeat(5 * 1024 * 1024);
		handler = (_req, res) => json(res, 422, { message: huge, errors: { name: [huge] } });
		const result = await run({ node: { onError: 'continueRegularOutput' } });
		const [item] = nodeOutput(result, 'Inventory');
		const bounded = `${'z'.repeat(500)}… (${huge.length} characters)`;
		expect(item.json.error).toBe(`The Inventory API rejected the input (422): ${bounded} [item 0]`);
		expect(item.json.details).toMatchObject({
			apiMessage: bounded,
			reasons: { name: bounded },
			description: `Fields with problems: name: ${bounded}`,
		});
		expect(serializeRun(result).length).toBeLessThan(100_000);
	});
});

test('the token appears nowhere in the runs or the credential test results', () => {
	expect(runs.length).toBeGreaterThan(20);
	for (const text of [...runs.map(serializeRun), ...texts])
		expect(occurrences(text, TOKEN)).toEqual([]);
});
