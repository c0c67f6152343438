/**
 * `npm run bench:n8n`: the same 1,000 to-dos through n8n's own HTTP Request node (hand-built URL,
 * JSON body and Idempotency-Key expression, the Inventory API credential as predefined credential
 * type) and through the Inventory node, in one execution of one workflow in the real n8n host of
 * the end-to-end tests (test/e2e/.host, `n8n execute`). Times are the nodes' own execution times
 * from n8n's run data, so the CLI's start-up is not counted.
 *
 * A second workflow runs at 20 ms round trip with TLS, through the latency proxy
 * (bench/latency-proxy.ts) in front of a TLS sandbox: the HTTP Request node (its "Ignore SSL Issues"
 * option on, for the sandbox's self-signed certificate) against the Inventory node at automatic
 * concurrency (the credential's Ignore SSL Issues on).
 *
 * Needs the host: `npm run e2e:host` (or any e2e run) installs it. Without it this prints a note.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { packageRoot } from '../test/harness/engine';
import { intake } from './clients';
import { startProxyProcess, startSandboxProcess, TOKEN, type Sandbox } from './sandbox';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 1000);
const LATENCIES = (process.env.BENCH_LATENCIES ?? '0,20').split(',').map(Number);
const E2E_LIB = join(packageRoot(), 'test', 'e2e', 'lib');
const TLS_RTT_MS = 20;
const PLAIN = {
	workflowId: 'benchHttpVsInventory',
	credential: { id: 'benchInventoryCred', name: 'Inventory sandbox (bench)' },
};
const TLS = {
	workflowId: 'benchHttpVsInventoryTls',
	credential: { id: 'benchInventoryCredTls', name: 'Inventory sandbox, TLS, 20 ms (bench)' },
};

// The e2e helpers are ES modules: tsconfig.dev.json's module "node16" keeps import() a real dynamic import.
const importEsm = (specifier: string) => import(specifier) as Promise<Record<string, unknown>>;

interface N8nInstance {
	nodesDir: string;
	userFolder: string;
	importCredentials(creds: unknown): Promise<void>;
	importWorkflow(workflow: unknown): Promise<void>;
	execute(
		id: string,
	): Promise<{ code: number; json: RunJson | null; stdout: string; stderr: string }>;
}

interface RunJson {
	data: {
		resultData: {
			error?: { message?: string };
			runData: Record<string, { executionTime: number; data?: { main?: unknown[][] } }[]>;
		};
	};
}

const TRIGGER = 'When clicking ‘Execute workflow’';

interface Branch {
	name: string;
	kind: 'http' | 'inventory';
	/** Inventory: a fixed concurrency (the Concurrency option), or automatic. */
	concurrency?: number | 'auto';
}

// n8n's HTTP Request node sends all items' requests at once (its batching options only space out
// their starts), so it is set against the Inventory node at concurrency 10 and 50; concurrency 1 is
// shown for reference.
const PLAIN_BRANCHES: Branch[] = [
	{ name: 'HTTP Request', kind: 'http' },
	{ name: 'Inventory (concurrency 1)', kind: 'inventory', concurrency: 1 },
	{ name: 'Inventory (concurrency 10)', kind: 'inventory', concurrency: 10 },
	{ name: 'Inventory (concurrency 50)', kind: 'inventory', concurrency: 50 },
];
const TLS_BRANCHES: Branch[] = [
	{ name: 'HTTP Request', kind: 'http' },
	{ name: 'Inventory (automatic)', kind: 'inventory', concurrency: 'auto' },
];

function workflow(
	{ workflowId, credential }: typeof PLAIN,
	baseUrl: string,
	branches: Branch[],
	tls: boolean,
) {
	const items = intake(ITEMS).map((json) => ({ json }));
	const nodes: Record<string, unknown>[] = [
		{
			id: 'trigger',
			name: TRIGGER,
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: 'intake',
			name: 'Intake',
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			position: [220, 0],
			parameters: { jsCode: `return ${JSON.stringify(items)};` },
		},
	];
	branches.forEach((branch, index) => {
		const position = [460, index * 200];
		if (branch.kind === 'http') {
			// What a user builds by hand: URL, JSON body and a UUID-shaped key per execution, node and item.
			const prefix = `0000000${index}`;
			nodes.push({
				id: `http-${index}`,
				name: branch.name,
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				position,
				parameters: {
					method: 'POST',
					url: `=${baseUrl}/api/v1/assets/{{ $json.assetId }}/todos`,
					authentication: 'predefinedCredentialType',
					nodeCredentialType: 'inventoryApi',
					sendHeaders: true,
					headerParameters: {
						parameters: [
							{ name: 'Accept', value: 'application/json' },
							{
								name: 'Idempotency-Key',
								value: `={{ '${prefix}-0000-4000-8000-' + String($execution.id).padStart(4, '0').slice(-4) + String($itemIndex).padStart(8, '0') }}`,
							},
						],
					},
					sendBody: true,
					specifyBody: 'json',
					jsonBody: '={{ JSON.stringify({ name: $json.task }) }}',
					// "Ignore SSL Issues": the TLS sandbox's certificate is self-signed.
					options: tls ? { allowUnauthorizedCerts: true } : {},
				},
				credentials: { inventoryApi: credential },
			});
		} else {
			const auto = branch.concurrency === 'auto';
			nodes.push({
				id: `inventory-${index}`,
				name: branch.name,
				type: 'n8n-nodes-inventory.inventory',
				typeVersion: 1,
				position,
				parameters: {
					resource: 'asset',
					operation: 'createTodo',
					assetId: '={{ $json.assetId }}',
					name: '={{ $json.task }}',
					options: auto ? {} : { concurrency: branch.concurrency },
					repeatProtection: 'execution',
				},
				credentials: { inventoryApi: credential },
			});
		}
	});
	return {
		id: workflowId,
		name: `Bench: HTTP Request node vs Inventory node${tls ? `, TLS at ${TLS_RTT_MS} ms` : ''}`,
		active: false,
		isArchived: false,
		nodes,
		connections: {
			[TRIGGER]: { main: [[{ node: 'Intake', type: 'main', index: 0 }]] },
			Intake: { main: [branches.map((b) => ({ node: b.name, type: 'main', index: 0 }))] },
		},
		settings: { executionOrder: 'v1', timezone: 'UTC' },
		pinData: {},
		staticData: null,
	};
}

/** Executes the workflow once; the table's lines, each node's time against the HTTP Request node's. */
async function executeAndTime(
	n8n: N8nInstance,
	sandbox: Sandbox,
	workflowId: string,
	branches: Branch[],
	label: string,
): Promise<string[]> {
	const result = await n8n.execute(workflowId);
	const resultData = result.json?.data.resultData;
	if (result.code !== 0 || !resultData || resultData.error) {
		throw new Error(
			`n8n execute failed (${result.code}): ${resultData?.error?.message ?? result.stderr.slice(-2000)}`,
		);
	}
	const state = await sandbox.state();
	if (state.todos.length !== ITEMS * branches.length) {
		throw new Error(`expected ${ITEMS * branches.length} to-dos, got ${state.todos.length}`);
	}
	const ms = (name: string) => {
		const run = resultData.runData[name]?.[0];
		const count = run?.data?.main?.[0]?.length ?? 0;
		if (!run || count !== ITEMS) throw new Error(`${name}: ${count} items out`);
		return run.executionTime;
	};
	return branches.map((branch) => {
		const time = ms(branch.name);
		const ratio = (time / ms('HTTP Request')).toFixed(2);
		return `${label.padEnd(18)}  ${branch.name.padEnd(30)}  ${String(time).padStart(7)}  ${(ITEMS / (time / 1000)).toFixed(0).padStart(10)}   ${ratio}`;
	});
}

async function main(): Promise<void> {
	const host = (await importEsm(join(E2E_LIB, 'host.mjs'))) as {
		N8N_BIN: string;
		hostVersion(): string;
	};
	if (!existsSync(host.N8N_BIN)) {
		process.stdout.write(
			`The real n8n host is not installed (${host.N8N_BIN} is missing): run \`npm run e2e:host\` first, then \`npm run bench:n8n\`.\n`,
		);
		return;
	}
	const pkg = (await importEsm(join(E2E_LIB, 'pkg.mjs'))) as {
		packPackage(): Promise<{ tgz: string }>;
		installIntoNodesFolder(tgz: string, nodesDir: string): Promise<string>;
	};
	const n8nLib = (await importEsm(join(E2E_LIB, 'n8n.mjs'))) as {
		N8nInstance: new (o: { name: string }) => N8nInstance;
	};

	const sandbox = await startSandboxProcess();
	const tlsSandbox = await startSandboxProcess({ tls: true });
	const proxy = await startProxyProcess(tlsSandbox, TLS_RTT_MS);
	try {
		const n8n = new n8nLib.N8nInstance({ name: 'bench' });
		const { tgz } = await pkg.packPackage();
		await pkg.installIntoNodesFolder(tgz, n8n.nodesDir);
		await n8n.importCredentials([
			{
				...PLAIN.credential,
				type: 'inventoryApi',
				data: { baseUrl: sandbox.baseUrl, apiToken: TOKEN },
			},
			{
				...TLS.credential,
				type: 'inventoryApi',
				data: { baseUrl: proxy.baseUrl, apiToken: TOKEN, ignoreSslIssues: true },
			},
		]);
		await n8n.importWorkflow(workflow(PLAIN, sandbox.baseUrl, PLAIN_BRANCHES, false));
		await n8n.importWorkflow(workflow(TLS, proxy.baseUrl, TLS_BRANCHES, true));

		const lines = [
			`n8n ${host.hostVersion()} (real host, \`n8n execute\`): ${ITEMS} to-dos per node, the nodes of one workflow in one execution, sandbox in its own process`,
			'',
			'network             node                             ms       items/s   time / HTTP Request time',
		];
		for (const latencyMs of LATENCIES) {
			await sandbox.reset();
			await sandbox.setFaults(latencyMs > 0 ? { latencyMs } : null);
			lines.push(
				...(await executeAndTime(
					n8n,
					sandbox,
					PLAIN.workflowId,
					PLAIN_BRANCHES,
					`server +${latencyMs} ms`,
				)),
			);
		}
		await tlsSandbox.reset();
		lines.push(
			...(await executeAndTime(
				n8n,
				tlsSandbox,
				TLS.workflowId,
				TLS_BRANCHES,
				`TLS, ${TLS_RTT_MS} ms rtt`,
			)),
		);
		process.stdout.write(`${lines.join('\n')}\n`);
	} finally {
		proxy.stop();
		tlsSandbox.stop();
		sandbox.stop();
	}
}

main().catch((error: unknown) => {
	process.stderr.write(`bench:n8n: ${(error as Error).stack ?? String(error)}\n`);
	process.exitCode = 1;
});
