// Bulk intake as users run it: automatic concurrency, over HTTPS to a sandbox with a
// self-signed certificate (the credential's "Ignore SSL Issues (Insecure)" on) and a token-bucket rate
// limit, run with `n8n execute --id`.
import path from 'node:path';

import { executeOk, outputItems, runOf } from '../lib/checks.mjs';
import { API_TOKEN, startSandbox } from '../lib/sandbox.mjs';
import { assert, assertEqual, log, WORK_DIR } from '../lib/util.mjs';
import * as W from '../lib/workflows.mjs';

/** Slow enough that 150 items meet the limit, fast enough to finish in seconds. */
const RATE_LIMIT = { ratePerSecond: 40, burst: 10 };

export async function bulkTls({ n8n }, check) {
	let sandbox;
	try {
		await check(
			'bulk over HTTPS: 150 to-dos at automatic concurrency against a 40/s token bucket, Ignore SSL Issues on',
			async () => {
				sandbox = await startSandbox({
					tls: true,
					rateLimit: RATE_LIMIT,
					logFile: path.join(WORK_DIR, 'sandbox-tls.log'),
				});
				log(`HTTPS sandbox on ${sandbox.baseUrl} (rate limit ${JSON.stringify(RATE_LIMIT)})`);
				await n8n.importCredentials(
					W.credentialJson({
						...W.TLS_CREDENTIAL,
						baseUrl: sandbox.baseUrl,
						apiToken: API_TOKEN,
						ignoreSslIssues: true,
					}),
				);
				await n8n.importWorkflows([W.bulkTlsWorkflow()]);

				const result = await executeOk(n8n, 'e2eBulkTls');
				const output = outputItems(runOf(result, 'Create Todos')[0]);
				assertEqual(
					output.map((o) => [o.asset_id, o.todo?.name]),
					W.BULK_TLS_ITEMS.map((item) => [item.assetId, item.task]),
					'one output item per input item, in order',
				);
				const state = await sandbox.state();
				assertEqual(
					state.todos.map((t) => t.name).sort(),
					W.BULK_TLS_ITEMS.map((item) => item.task).sort(),
					'to-dos in the sandbox: each item once',
				);
				assertEqual(state.counters.applied, W.BULK_TLS_ITEMS.length, 'actions applied');
				assert(
					state.counters.rateLimited > 0,
					'the token bucket answered some requests 429 (the node slowed down and retried them)',
				);
				const requests = (await sandbox.requests()).filter((r) => r.operation);
				for (let asset = 1001; asset <= 1020; asset++) {
					const names = requests
						.filter((r) => r.path === `/api/v1/assets/${asset}/todos` && r.status === 201)
						.map((r) => r.body.name);
					assertEqual(
						names,
						W.BULK_TLS_ITEMS.filter((item) => item.assetId === asset).map((item) => item.task),
						`asset ${asset}: its to-dos arrived in input order`,
					);
				}
				log(
					`bulk over HTTPS: ${requests.length} requests for ${W.BULK_TLS_ITEMS.length} items, ${state.counters.rateLimited} answered 429`,
				);
			},
		);
	} finally {
		await sandbox?.stop().catch(() => {});
	}
}
