/**
 * A server with a self-signed certificate (the sandbox over HTTPS): refused as n8n refuses it, unless
 * the credential's "Ignore SSL Issues (Insecure)" is on; the credential test follows the same toggle.
 */
import type { ICredentialTestFunctions } from 'n8n-workflow';

import { startSandbox, type SandboxHandle } from '../../sandbox/src';
import { inventoryCredentialType, nodeOutput } from '../harness/engine';
import { createTodoParameters, TOKENS } from '../fixtures';
import { transportCredentialTest } from './package-modules';
import { runError, runInventory } from './util';

let sandbox: SandboxHandle;
beforeAll(async () => {
	sandbox = await startSandbox({ log: false, tls: true });
});
afterAll(async () => await sandbox.close());

const parameters = createTodoParameters();

test('the sandbox serves HTTPS', () => {
	expect(sandbox.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
});

test('Ignore SSL Issues off (the default): the item fails on the certificate, nothing is sent', async () => {
	const run = await runInventory(sandbox, [{}], parameters);
	const error = runError(run);
	expect(error.message).toBe(
		'The request to the Inventory API failed: its certificate could not be verified (DEPTH_ZERO_SELF_SIGNED_CERT) [item 0]',
	);
	expect(error.description).toMatch(
		/^The server at https:\/\/127\.0\.0\.1:\d+ uses a certificate n8n does not trust .* NODE_EXTRA_CA_CERTS, or turn on "Ignore SSL Issues \(Insecure\)" in the credential\. Nothing was sent to the Inventory API;/,
	);
	expect(sandbox.requests()).toEqual([]);
});

test('Ignore SSL Issues on: the request goes through and the to-do is created', async () => {
	sandbox.reset();
	const run = await runInventory(sandbox, [{}], parameters, {
		credentials: { baseUrl: sandbox.baseUrl, apiToken: TOKENS.fullAccess, ignoreSslIssues: true },
	});
	expect(nodeOutput(run, 'Inventory').map(({ json }) => json.asset_id)).toEqual([1001]);
	expect(sandbox.requests().map(({ method, path, status }) => [method, path, status])).toEqual([
		['POST', '/api/v1/assets/1001/todos', 201],
	]);
});

test('the credential test passes the same toggle to n8n', async () => {
	const rejectUnauthorized: unknown[] = [];
	const context = {
		helpers: {
			request: async (options: { rejectUnauthorized?: boolean }) => {
				rejectUnauthorized.push(options.rejectUnauthorized);
				return { statusCode: 401, body: { message: 'Unauthenticated.' } };
			},
		},
	} as unknown as ICredentialTestFunctions;
	for (const ignoreSslIssues of [false, true]) {
		await transportCredentialTest.testInventoryCredential.call(context, {
			id: 'cred-1',
			name: 'Inventory',
			type: 'inventoryApi',
			data: { baseUrl: sandbox.baseUrl, apiToken: 'not-a-token', ignoreSslIssues },
		});
	}
	// Two requests per test (without and with the token), each with the toggle.
	expect(rejectUnauthorized).toEqual([true, true, false, false]);
	expect(inventoryCredentialType.properties).toContainEqual(
		expect.objectContaining({
			displayName: 'Ignore SSL Issues (Insecure)',
			name: 'ignoreSslIssues',
			type: 'boolean',
			default: false,
		}),
	);
});
