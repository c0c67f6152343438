/**
 * The credential's Base URL as users paste it, and the credential test that tells the Inventory API
 * from any other server at that address (real n8n runs the same function: test/e2e, check
 * "credential test").
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import axios from 'axios';
import type { ICredentialTestFunctions } from 'n8n-workflow';

import { createTodoParameters, TOKENS } from '../fixtures';
import { inventoryCredentialType, inventoryNodeType, nodeOutput } from '../harness/engine';
import { transportCredentialTest } from './package-modules';
import { runInventory, useSandbox } from './util';

const { testInventoryCredential, CREDENTIAL_TEST_IDEMPOTENCY_KEY, CREDENTIAL_TEST_PATH } =
	transportCredentialTest;

const env = useSandbox();

/** Servers that are not the Inventory API: a static web server, and another service's JSON API (n8n's answers). */
let staticServer: Server;
let otherApi: Server;
/** An API that answers 401 without giving a reason. */
let reasonless401: Server;
const at = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const seenByOthers: string[] = [];

beforeAll(async () => {
	staticServer = createServer((req, res) => {
		seenByOthers.push(`${req.method} ${req.url}`);
		req.resume();
		if (req.method === 'GET') {
			res.writeHead(200, { 'Content-Type': 'text/html' });
			res.end('<!doctype html><html><body>Welcome</body></html>');
		} else {
			res.writeHead(501, { 'Content-Type': 'text/html' });
			res.end('<html><body><h1>Error response</h1><p>Unsupported method</p></body></html>');
		}
	});
	otherApi = createServer((req, res) => {
		seenByOthers.push(`${req.method} ${req.url}`);
		req.resume();
		res.writeHead(404, { 'Content-Type': 'application/json' });
		res.end('{"message":"not found"}');
	});
	reasonless401 = createServer((req, res) => {
		req.resume();
		res.writeHead(401, { 'Content-Type': 'application/json' });
		res.end('{"message":""}');
	});
	await Promise.all(
		[staticServer, otherApi, reasonless401].map(
			(server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)),
		),
	);
});
afterAll(async () => {
	await Promise.all(
		[staticServer, otherApi, reasonless401].map(
			(server) => new Promise<void>((resolve) => server.close(() => resolve())),
		),
	);
});
beforeEach(() => {
	seenByOthers.length = 0;
});

/** What n8n's CredentialTestContext gives the function: the legacy `helpers.request`, here over axios. */
const credentialTestContext = {
	helpers: {
		request: async (options: {
			method: string;
			uri: string;
			headers: Record<string, string>;
			body: unknown;
			timeout: number;
		}) => {
			const response = await axios.request({
				method: options.method,
				url: options.uri,
				headers: options.headers,
				data: options.body,
				timeout: options.timeout,
				validateStatus: () => true,
				transformResponse: (text: string) => text,
			});
			let body: unknown = response.data;
			try {
				body = JSON.parse(response.data as string);
			} catch {
				// not JSON: the text as is
			}
			return { statusCode: response.status, body };
		},
	},
} as unknown as ICredentialTestFunctions;

async function testCredential(baseUrl: string, apiToken: string) {
	return await testInventoryCredential.call(credentialTestContext, {
		id: 'cred-1',
		name: 'Inventory',
		type: 'inventoryApi',
		data: { baseUrl, apiToken, ignoreSslIssues: false },
	});
}

describe('a Base URL pasted with /api/v1', () => {
	test.each(['/api/v1', '/api/v1/', '/API/V1//', '/'])(
		'"%s" at the end is taken off: the request goes to /api/v1/assets/... once',
		async (suffix) => {
			const { sandbox } = env;
			const run = await runInventory(
				{ ...sandbox, baseUrl: `${sandbox.baseUrl}${suffix}` },
				[{}],
				createTodoParameters({ assetId: '1011', name: 'Label' }),
			);
			expect(run.status).toBe('success');
			expect(nodeOutput(run, 'Inventory').map(({ json }) => json.asset_id)).toEqual([1011]);
			expect(sandbox.requests().map(({ method, path }) => `${method} ${path}`)).toEqual([
				'POST /api/v1/assets/1011/todos',
			]);
		},
	);
});

describe('a JSON 404 from a server that is not the API (n8n answers so at its own address)', () => {
	test('is reported about the Base URL, not the record, after one request without a token', async () => {
		const run = await runInventory(
			{ ...env.sandbox, baseUrl: at(otherApi) },
			[{ asset: 1011 }, { asset: 1012 }],
			createTodoParameters({
				repeatProtection: 'execution',
				assetId: '={{ $json.asset }}',
				name: 'Label',
			}),
			{ node: { onError: 'continueRegularOutput' } },
		);
		const message = `The credential's Base URL does not lead to the Inventory API: it answered 404 ("not found"), and 404 to a request without a token, where the Inventory API answers 401`;
		expect(nodeOutput(run, 'Inventory').map(({ json }) => json)).toEqual(
			[0, 1].map((item) => ({
				error: `${message} [item ${item}]`,
				details: expect.objectContaining({ status: 404, apiMessage: null, fate: 'notSent' }),
			})),
		);
		expect([...seenByOthers].sort()).toEqual([
			`POST ${CREDENTIAL_TEST_PATH}`,
			'POST /api/v1/assets/1011/todos',
			'POST /api/v1/assets/1012/todos',
		]);
	});

	test("the API's own 404s stay about the record, with one check per run", async () => {
		const { sandbox } = env;
		const run = await runInventory(
			sandbox,
			[{ asset: 1901 }, { asset: 1902 }],
			createTodoParameters({ assetId: '={{ $json.asset }}', name: 'Label' }),
			{ node: { onError: 'continueRegularOutput' } },
		);
		expect(nodeOutput(run, 'Inventory').map(({ json }) => json.error)).toEqual([
			"Asset 1901 was not found in this token's organization (404) [item 0]",
			"Asset 1902 was not found in this token's organization (404) [item 1]",
		]);
		expect(
			sandbox
				.requests()
				.map(({ path, status }) => `${status} ${path}`)
				.sort(),
		).toEqual([
			`401 ${CREDENTIAL_TEST_PATH}`,
			'404 /api/v1/assets/1901/todos',
			'404 /api/v1/assets/1902/todos',
		]);
	});
});

describe('the credential test', () => {
	test('is run by the node (testedBy), so that it can tell the API from another server', () => {
		expect(inventoryCredentialType).not.toHaveProperty('test');
		expect(inventoryNodeType.description.credentials).toEqual([
			{ name: 'inventoryApi', required: true, testedBy: 'inventoryApiTest' },
		]);
		expect(inventoryNodeType.methods?.credentialTest?.inventoryApiTest).toBe(
			testInventoryCredential,
		);
	});

	test('the right address and a good token: success; two requests, neither creates anything', async () => {
		const { sandbox } = env;
		for (const baseUrl of [sandbox.baseUrl, `${sandbox.baseUrl}/api/v1`, `${sandbox.baseUrl}/`]) {
			expect(await testCredential(baseUrl, TOKENS.fullAccess)).toEqual({
				status: 'OK',
				message: `The Inventory API at ${sandbox.baseUrl} accepted the token. Nothing was created.`,
			});
		}
		const requests = sandbox.requests();
		expect(
			// The sandbox records no Authorization header: the 401 is the request without the token.
			requests.map(({ method, path, status, headers }) => [
				method,
				path,
				status,
				headers['idempotency-key'],
			]),
		).toEqual(
			[1, 2, 3].flatMap(() => [
				['POST', CREDENTIAL_TEST_PATH, 401, CREDENTIAL_TEST_IDEMPOTENCY_KEY],
				['POST', CREDENTIAL_TEST_PATH, 404, CREDENTIAL_TEST_IDEMPOTENCY_KEY],
			]),
		);
		expect(sandbox.state().todos).toHaveLength(0);
		expect(sandbox.state().counters.applied).toBe(0);
	});

	test('a token without the to-do permission, or of another organization, is accepted (it may serve other operations)', async () => {
		const { sandbox } = env;
		for (const token of [TOKENS.noTodos, TOKENS.otherOrg, TOKENS.noPermissions]) {
			expect((await testCredential(sandbox.baseUrl, token)).status).toBe('OK');
		}
		expect(sandbox.state().counters.applied).toBe(0);
	});

	test("a rejected token: the 401 message, with the API's reason", async () => {
		const { sandbox } = env;
		for (const [token, reason] of [
			[TOKENS.expired, 'Unauthenticated: the token has expired.'],
			[TOKENS.revoked, 'Unauthenticated: the token has been revoked.'],
			[TOKENS.personal, 'Unauthenticated: the token is not a customer API token.'],
			['not-a-token', 'Unauthenticated: the token is invalid.'],
			[`Bearer ${TOKENS.revoked}`, 'Unauthenticated: the token has been revoked.'],
		]) {
			expect(await testCredential(`${sandbox.baseUrl}/api/v1`, token)).toEqual({
				status: 'Error',
				message: `The Inventory API rejected this API token (401): ${reason} Nothing was created.`,
			});
		}
	});

	test('a 401 without a reason of the API: what the API refuses', async () => {
		expect(await testCredential(at(reasonless401), TOKENS.fullAccess)).toEqual({
			status: 'Error',
			message:
				'The Inventory API rejected this API token (401): it is missing, expired, revoked or not a customer API token. Nothing was created.',
		});
	});

	test('a token pasted with "Bearer " before it (any letter case, spaces around) passes', async () => {
		const { sandbox } = env;
		for (const pasted of [
			`Bearer ${TOKENS.fullAccess}`,
			` bearer  ${TOKENS.fullAccess} `,
			`BEARER ${TOKENS.fullAccess}`,
		]) {
			expect(await testCredential(sandbox.baseUrl, pasted)).toEqual({
				status: 'OK',
				message: `The Inventory API at ${sandbox.baseUrl} accepted the token. Nothing was created.`,
			});
		}
	});

	test('a static web server: a Base URL message, whatever the token', async () => {
		for (const token of [TOKENS.fullAccess, 'not-a-token']) {
			expect(await testCredential(at(staticServer), token)).toEqual({
				status: 'Error',
				message: `The Base URL ${at(staticServer)} does not lead to the Inventory API: the server answered 501 with an HTML page. Enter the address of your Inventory service, e.g. https://inventory.example.com (a trailing /api/v1 is fine).`,
			});
		}
		// It stopped at the request without a token.
		expect(seenByOthers).toEqual([`POST ${CREDENTIAL_TEST_PATH}`, `POST ${CREDENTIAL_TEST_PATH}`]);
	});

	test('another service answering JSON with a message (as n8n does at its own address): a Base URL message', async () => {
		expect(await testCredential(at(otherApi), TOKENS.fullAccess)).toEqual({
			status: 'Error',
			message: `The Base URL ${at(otherApi)} does not lead to the Inventory API: it answered 404 ("not found") to a request without a token, where the Inventory API answers 401. Enter the address of your Inventory service, e.g. https://inventory.example.com (a trailing /api/v1 is fine).`,
		});
	});

	test('the sandbox at a wrong path: a Base URL message', async () => {
		const { sandbox } = env;
		expect(await testCredential(`${sandbox.baseUrl}/inventory`, TOKENS.fullAccess)).toEqual({
			status: 'Error',
			message: `The Base URL ${sandbox.baseUrl}/inventory does not lead to the Inventory API: it answered 404 ("Not found.") to a request without a token, where the Inventory API answers 401. Enter the address of your Inventory service, e.g. https://inventory.example.com (a trailing /api/v1 is fine).`,
		});
	});

	test('no server, or no http(s) address: says so', async () => {
		const closed = await new Promise<number>((resolve) => {
			const server = createServer().listen(0, '127.0.0.1', () => {
				const { port } = server.address() as AddressInfo;
				server.close(() => resolve(port));
			});
		});
		expect(await testCredential(`http://127.0.0.1:${closed}`, TOKENS.fullAccess)).toEqual({
			status: 'Error',
			message: `Could not reach http://127.0.0.1:${closed}: the connection was refused (ECONNREFUSED).`,
		});
		expect(await testCredential('inventory.example.com', TOKENS.fullAccess)).toEqual({
			status: 'Error',
			message:
				'The Base URL must start with http:// or https://, e.g. https://inventory.example.com',
		});
	});
});
