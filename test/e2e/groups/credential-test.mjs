// The credential test as the editor's "Retry"/"Save" runs it: POST /rest/credentials/test on the
// running n8n, with the imported credential's id and the data to test.
import { createServer } from 'node:http';

import { API_TOKEN } from '../lib/sandbox.mjs';
import { assert, assertEqual } from '../lib/util.mjs';
import * as W from '../lib/workflows.mjs';

/** A static web server: a page for GET, 501 for anything else (as Python's http.server does). */
async function startStaticServer() {
	const server = createServer((req, res) => {
		req.resume();
		const get = req.method === 'GET';
		res.writeHead(get ? 200 : 501, { 'Content-Type': 'text/html' });
		res.end(get ? '<!doctype html><p>Welcome</p>' : '<html><body>Unsupported method</body></html>');
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { server, url: `http://127.0.0.1:${server.address().port}` };
}

export async function credentialTest({ n8n, sandbox, api }, check) {
	await check(
		'credential test: right address, bad token, /api/v1, n8n itself, a static page',
		async () => {
			await sandbox.reset();
			const statik = await startStaticServer();
			const test = async (baseUrl, apiToken) =>
				await api.post('/credentials/test', {
					credentials: {
						id: W.CREDENTIAL.id,
						name: W.CREDENTIAL.name,
						type: 'inventoryApi',
						data: { baseUrl, apiToken, ignoreSslIssues: false },
					},
				});
			try {
				const accepted = {
					status: 'OK',
					message: `The Inventory API at ${sandbox.baseUrl} accepted the token. Nothing was created.`,
				};
				assertEqual(await test(sandbox.baseUrl, API_TOKEN), accepted, 'right address, good token');
				assertEqual(
					await test(`${sandbox.baseUrl}/api/v1/`, API_TOKEN),
					accepted,
					'/api/v1 appended',
				);
				assertEqual(
					await test(sandbox.baseUrl, 'not-a-token'),
					{
						status: 'Error',
						message:
							'The Inventory API rejected this API token (401): Unauthenticated: the token is invalid. Nothing was created.',
					},
					'right address, bad token',
				);
				for (const [what, url] of [
					["n8n's own address", n8n.baseUrl],
					['a static web server', statik.url],
				]) {
					const result = await test(url, API_TOKEN);
					assert(
						result.status === 'Error' &&
							result.message.startsWith(`The Base URL ${url} does not lead to the Inventory API: `),
						`${what}: ${JSON.stringify(result)}`,
					);
				}
				const state = await sandbox.state();
				assertEqual(state.todos.length, 0, 'to-dos created by the tests');
			} finally {
				await new Promise((resolve) => statik.server.close(resolve));
			}
		},
	);
}
