/**
 * `npm run bench`: how fast the Inventory node moves bulk intake through n8n's workflow engine,
 * against the floor of a plain axios loop sending the same requests to the same local sandbox.
 *
 * The sandbox runs in its own process (build/sandbox/src/cli.js), so its work does not share the
 * event loop being measured. Everything is printed; nothing here passes or fails on timing, except
 * that the exit code is 1 when a run lost or duplicated an action (a correctness check).
 *
 * Environment: BENCH_ITEMS (default 1000), BENCH_MEMORY_ITEMS (default 10000), BENCH_JSON=path of
 * the JSON figures (default bench/results/<time>.json, read by bench/summarize.ts),
 * BENCH_ONLY=node|raw|memory to run a part (for profiling).
 */
import axios from 'axios';
import { randomUUID } from 'node:crypto';
import { subscribe } from 'node:diagnostics_channel';
import { Agent, type ClientRequest, type IncomingMessage } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { IDataObject } from 'n8n-workflow';

import { inventoryWorkflow, nodeOutput, packageRoot, runWorkflow } from '../tools/n8n/engine';
import { startSandboxProcess, TOKEN, type Sandbox } from './sandbox';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 1000);
const MEMORY_ITEMS = Number(process.env.BENCH_MEMORY_ITEMS ?? 10_000);
const ONLY = process.env.BENCH_ONLY;

// ---------------------------------------------------------------------------------------------
// Client-side probes: every HTTP request of this process, from the moment the client creates it to
// the end of its response (Node's http diagnostics channels, the same probe for the node and the
// raw loop). What a client does before and after the exchange (the node's expressions, checks and
// n8n's request building) shows in items/s and the node/raw ratio.
// ---------------------------------------------------------------------------------------------

const started = new WeakMap<ClientRequest, number>();
let latencies: number[] = [];
subscribe('http.client.request.start', (message) => {
	started.set((message as { request: ClientRequest }).request, performance.now());
});
subscribe('http.client.response.finish', (message) => {
	const { request, response } = message as { request: ClientRequest; response: IncomingMessage };
	const at = started.get(request);
	if (at === undefined || request.path.startsWith('/_sandbox')) return;
	response.once('end', () => latencies.push(performance.now() - at));
});

function percentile(sorted: number[], p: number): number {
	if (sorted.length === 0) return NaN;
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

// ---------------------------------------------------------------------------------------------
// The workload: to-dos on 20 assets, one per item
// ---------------------------------------------------------------------------------------------

function intake(count: number): IDataObject[] {
	return Array.from({ length: count }, (_, i) => ({
		assetId: 1001 + (i % 20),
		task: `Tag and label #${i}`,
	}));
}

const parameters = (concurrency: number) => ({
	resource: 'asset',
	operation: 'createTodo',
	assetId: '={{ $json.assetId }}',
	name: '={{ $json.task }}',
	options: { concurrency },
});

interface Measure {
	client: 'node' | 'raw' | 'raw-new-conn';
	concurrency: number;
	latencyMs: number;
	items: number;
	seconds: number;
	itemsPerSecond: number;
	medianMs: number;
	p99Ms: number;
}

async function measure(
	sandbox: Sandbox,
	client: Measure['client'],
	concurrency: number,
	latencyMs: number,
	items: IDataObject[],
	run: () => Promise<void>,
): Promise<Measure> {
	await sandbox.reset();
	await sandbox.setFaults(latencyMs > 0 ? { latencyMs } : null);
	latencies = [];
	const t0 = performance.now();
	await run();
	const seconds = (performance.now() - t0) / 1000;
	const state = await sandbox.state();
	const names = new Set(state.todos.map((todo) => todo.name));
	if (
		state.todos.length !== items.length ||
		names.size !== items.length ||
		state.counters.requestsTotal !== items.length
	) {
		throw new Error(
			`${client} c=${concurrency}: expected ${items.length} to-dos from ${items.length} requests, got ${state.todos.length} (${names.size} distinct) from ${state.counters.requestsTotal}`,
		);
	}
	const sorted = [...latencies].sort((a, b) => a - b);
	return {
		client,
		concurrency,
		latencyMs,
		items: items.length,
		seconds,
		itemsPerSecond: items.length / seconds,
		medianMs: percentile(sorted, 50),
		p99Ms: percentile(sorted, 99),
	};
}

async function runNode(
	sandbox: Sandbox,
	items: IDataObject[],
	concurrency: number,
): Promise<IDataObject[]> {
	const run = await runWorkflow(inventoryWorkflow(items, parameters(concurrency)), {
		credentials: { baseUrl: sandbox.baseUrl, apiToken: TOKEN },
	});
	if (run.status !== 'success')
		throw new Error(`node run ${run.status}: ${run.data.resultData.error?.message}`);
	return nodeOutput(run, 'Inventory').map((item) => item.json);
}

/** The floor: the same requests (method, path, headers, body, one key per item) from a plain axios loop. */
async function runRaw(
	sandbox: Sandbox,
	items: IDataObject[],
	concurrency: number,
	keepAlive = true,
): Promise<void> {
	// Node's global agent keeps connections alive; `keepAlive: false` opens one connection per request,
	// as n8n's HTTP helpers do (they build a new agent for every request).
	const http = axios.create({
		baseURL: sandbox.baseUrl,
		timeout: 30_000,
		...(keepAlive ? {} : { httpAgent: new Agent({ keepAlive: false }) }),
	});
	let next = 0;
	const worker = async () => {
		while (next < items.length) {
			const item = items[next++];
			const response = await http.post<{ data: IDataObject }>(
				`/api/v1/assets/${String(item.assetId)}/todos`,
				{ name: item.task },
				{
					headers: {
						Authorization: `Bearer ${TOKEN}`,
						Accept: 'application/json',
						'Content-Type': 'application/json',
						'Idempotency-Key': randomUUID(),
					},
				},
			);
			if (response.status !== 201 || !response.data.data)
				throw new Error(`raw: ${response.status}`);
		}
	};
	await Promise.all(Array.from({ length: concurrency }, worker));
}

// ---------------------------------------------------------------------------------------------
// Memory: 10,000 items through the node, heap sampled while it runs
// ---------------------------------------------------------------------------------------------

interface MemoryFigures {
	items: number;
	baselineHeapMb: number;
	peakHeapMb: number;
	peakRssMb: number;
	retainedHeapMb: number;
	outputMb: number;
	inputMb: number;
}

const mb = (bytes: number) => bytes / 1024 / 1024;

async function memoryRun(sandbox: Sandbox, count: number): Promise<MemoryFigures> {
	await sandbox.reset();
	await sandbox.setFaults(null);
	const items = intake(count);
	global.gc?.();
	const baseline = process.memoryUsage();
	let peakHeap = baseline.heapUsed;
	let peakRss = baseline.rss;
	const timer = setInterval(() => {
		const now = process.memoryUsage();
		peakHeap = Math.max(peakHeap, now.heapUsed);
		peakRss = Math.max(peakRss, now.rss);
	}, 5);
	const output = await runNode(sandbox, items, 10);
	clearInterval(timer);
	global.gc?.();
	const after = process.memoryUsage();
	return {
		items: count,
		baselineHeapMb: mb(baseline.heapUsed),
		peakHeapMb: mb(peakHeap),
		peakRssMb: mb(peakRss),
		retainedHeapMb: mb(after.heapUsed - baseline.heapUsed),
		outputMb: mb(Buffer.byteLength(JSON.stringify(output))),
		inputMb: mb(Buffer.byteLength(JSON.stringify(items))),
	};
}

// ---------------------------------------------------------------------------------------------

const fmt = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

async function main(): Promise<void> {
	const sandbox = await startSandboxProcess();
	const results: Measure[] = [];
	const figures: IDataObject = {
		node: process.version,
		cpus: (await import('node:os')).cpus().length,
	};
	try {
		// Warm-up: JIT, module loading, first connections.
		await runNode(sandbox, intake(200), 1);
		await runRaw(sandbox, intake(200), 1);

		const items = intake(ITEMS);
		if (ONLY !== 'memory') {
			for (const latencyMs of [0, 20]) {
				for (const concurrency of [1, 10]) {
					if (ONLY !== 'raw') {
						results.push(
							await measure(
								sandbox,
								'node',
								concurrency,
								latencyMs,
								items,
								async () => void (await runNode(sandbox, items, concurrency)),
							),
						);
					}
					if (ONLY !== 'node') {
						results.push(
							await measure(
								sandbox,
								'raw',
								concurrency,
								latencyMs,
								items,
								async () => await runRaw(sandbox, items, concurrency),
							),
						);
						if (latencyMs === 0) {
							results.push(
								await measure(
									sandbox,
									'raw-new-conn',
									concurrency,
									latencyMs,
									items,
									async () => await runRaw(sandbox, items, concurrency, false),
								),
							);
						}
					}
				}
			}
		}

		const lines: string[] = [];
		lines.push(
			`Inventory node benchmark: ${ITEMS} to-dos per run, sandbox in its own process, ${figures.cpus} CPUs, Node ${process.version}`,
		);
		lines.push('');
		lines.push(
			'client        concurrency  added latency   items/s   total s   request median ms   request p99 ms   node/raw time',
		);
		for (const r of results) {
			const raw = results.find(
				(o) => o.client === 'raw' && o.concurrency === r.concurrency && o.latencyMs === r.latencyMs,
			);
			const ratio = r.client === 'node' && raw ? fmt(r.seconds / raw.seconds, 2) : '';
			lines.push(
				`${r.client.padEnd(12)}  ${String(r.concurrency).padStart(11)}  ${`${r.latencyMs} ms`.padStart(13)}  ${fmt(r.itemsPerSecond).padStart(8)}  ${fmt(r.seconds, 2).padStart(8)}  ${fmt(r.medianMs, 2).padStart(18)}  ${fmt(r.p99Ms, 2).padStart(15)}  ${ratio.padStart(14)}`,
			);
		}
		const find = (client: string, concurrency: number, latencyMs: number) =>
			results.find(
				(r) => r.client === client && r.concurrency === concurrency && r.latencyMs === latencyMs,
			);
		const summary: IDataObject = {};
		const node1 = find('node', 1, 0);
		const raw1 = find('raw', 1, 0);
		const node1Slow = find('node', 1, 20);
		const raw1Slow = find('raw', 1, 20);
		const node10Slow = find('node', 10, 20);
		const rawNew1 = find('raw-new-conn', 1, 0);
		if (node1 && raw1) summary.overheadRatioC1 = node1.seconds / raw1.seconds;
		if (node1 && rawNew1) summary.overheadRatioC1NewConnection = node1.seconds / rawNew1.seconds;
		if (node1Slow && raw1Slow) summary.overheadRatioC1At20ms = node1Slow.seconds / raw1Slow.seconds;
		if (node1Slow && node10Slow) summary.speedupC10At20ms = node1Slow.seconds / node10Slow.seconds;
		if (results.length > 0) {
			lines.push('');
			if (summary.overheadRatioC1 !== undefined) {
				lines.push(
					`overhead ratio node/raw at concurrency 1, 0 ms:   ${fmt(summary.overheadRatioC1 as number, 2)}  (target <= 1.15)`,
				);
			}
			if (summary.overheadRatioC1NewConnection !== undefined) {
				lines.push(
					`  the same against a raw loop opening a connection per request, as n8n's helpers do: ${fmt(summary.overheadRatioC1NewConnection as number, 2)}`,
				);
			}
			if (summary.overheadRatioC1At20ms !== undefined) {
				lines.push(
					`overhead ratio node/raw at concurrency 1, 20 ms:  ${fmt(summary.overheadRatioC1At20ms as number, 2)}  (target <= 1.15)`,
				);
			}
			if (summary.speedupC10At20ms !== undefined) {
				lines.push(
					`speed-up of concurrency 10 over 1 at 20 ms:       ${fmt(summary.speedupC10At20ms as number, 1)}x  (target >= 8x)`,
				);
			}
		}
		process.stdout.write(`${lines.join('\n')}\n`);

		if (ONLY === undefined || ONLY === 'memory') {
			const small = await memoryRun(sandbox, Math.round(MEMORY_ITEMS / 10));
			const large = await memoryRun(sandbox, MEMORY_ITEMS);
			summary.memory = [small, large] as unknown as IDataObject[];
			const memLines = [
				'',
				"memory (node in n8n's engine, concurrency 10, heap sampled every 5 ms)",
			];
			memLines.push(
				'items    baseline heap MB   peak heap MB   peak growth MB   retained after GC MB   peak RSS MB   input JSON MB   output JSON MB',
			);
			for (const m of [small, large]) {
				const growth = m.peakHeapMb - m.baselineHeapMb;
				memLines.push(
					`${String(m.items).padEnd(7)}  ${fmt(m.baselineHeapMb).padStart(16)}  ${fmt(m.peakHeapMb).padStart(13)}  ${fmt(growth).padStart(15)}  ${fmt(m.retainedHeapMb).padStart(21)}  ${fmt(m.peakRssMb).padStart(12)}  ${fmt(m.inputMb, 2).padStart(14)}  ${fmt(m.outputMb, 2).padStart(15)}`,
				);
			}
			const perItemSmall = ((small.peakHeapMb - small.baselineHeapMb) * 1024) / small.items;
			const perItemLarge = ((large.peakHeapMb - large.baselineHeapMb) * 1024) / large.items;
			const marginal = ((large.peakHeapMb - small.peakHeapMb) * 1024) / (large.items - small.items);
			const marginalRetained =
				((large.retainedHeapMb - small.retainedHeapMb) * 1024) / (large.items - small.items);
			memLines.push(
				`peak growth per item: ${fmt(perItemSmall, 2)} KB at ${small.items} items, ${fmt(perItemLarge, 2)} KB at ${large.items} items; marginal ${fmt(marginal, 2)} KB per extra item (retained: ${fmt(marginalRetained, 2)} KB); output JSON per item ${fmt((large.outputMb * 1024) / large.items, 2)} KB`,
			);
			process.stdout.write(`${memLines.join('\n')}\n`);
		}
		const jsonFile =
			process.env.BENCH_JSON ??
			join(
				packageRoot(),
				'bench',
				'results',
				`${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
			);
		mkdirSync(dirname(jsonFile), { recursive: true });
		writeFileSync(
			jsonFile,
			`${JSON.stringify({ ...figures, at: new Date().toISOString(), summary, results }, null, 2)}\n`,
		);
		process.stdout.write(`\nfigures written to ${jsonFile}\n`);
	} finally {
		sandbox.stop();
	}
}

main().catch((error: unknown) => {
	process.stderr.write(`bench: ${(error as Error).stack ?? String(error)}\n`);
	process.exitCode = 1;
});
