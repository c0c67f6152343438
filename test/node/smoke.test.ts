import { startSandbox, type SandboxHandle } from '../../sandbox/src';
import { inventoryWorkflow, nodeOutput, runWorkflow } from '../../tools/n8n/engine';

let sandbox: SandboxHandle;
beforeAll(async () => {
	sandbox = await startSandbox({ log: false });
});
afterAll(async () => await sandbox.close());

test('smoke', async () => {
	const run = await runWorkflow(
		inventoryWorkflow([{ a: 1 }], { resource: 'asset', operation: 'createTodo', assetId: '1001', name: 'Tag it' }),
		{ credentials: { baseUrl: sandbox.baseUrl, apiToken: 'inv_demo_full_access' } },
	);
	console.log(JSON.stringify(run.data.resultData.error ?? null), run.status);
	console.log(JSON.stringify(nodeOutput(run, 'Inventory'), null, 1));
	console.log(JSON.stringify(sandbox.requests(), null, 1));
});
