/**
 * The workload (to-dos, one per item, spread over the bench's assets) and the clients that send it:
 * the Inventory node in n8n's engine, and the raw floors (a plain axios loop, keep-alive or a new
 * connection per request).
 */
import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';
import { randomUUID } from 'node:crypto';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';

import {
	inventoryNodeType,
	inventoryWorkflow,
	nodeOutput,
	runWorkflow,
} from '../test/harness/engine';
import { BENCH_ASSET_COUNT, FIRST_BENCH_ASSET, TOKEN } from './sandbox';

/** Where the clients send: the sandbox's base URL (through the proxy or not) and its CA. */
export interface Target {
	baseUrl: string;
	certificate?: string;
}

/** A fixed number of requests at once, or the node's automatic concurrency. */
export type Concurrency = number | 'auto';

export type ClientKind = 'node' | 'raw-keep-alive' | 'raw-new-conn';

/**
 * `count` to-dos, numbered from `first`; to-do n addresses asset n modulo `assets` (at most
 * BENCH_ASSET_COUNT). Workloads made of several calls number them apart, so every name is unique.
 */
export function intake(count: number, assets = 500, first = 0): IDataObject[] {
	if (assets > BENCH_ASSET_COUNT) throw new Error(`at most ${BENCH_ASSET_COUNT} assets`);
	return Array.from({ length: count }, (_, i) => ({
		assetId: FIRST_BENCH_ASSET + ((first + i) % assets),
		task: `Tag and label #${first + i}`,
	}));
}

/** The built node's one version (automatic concurrency is its default). */
export const NODE_VERSION = inventoryNodeType.description.version as number;

export interface NodeRun {
	concurrency: Concurrency;
	typeVersion?: number;
	/** Items that fail become error items (n8n's "continue" error mode) instead of failing the run. */
	continueOnFail?: boolean;
}

/** The Inventory node in n8n's engine; resolves to the number of items that came out as errors. */
export async function runNode(
	target: Target,
	items: IDataObject[],
	{ concurrency, typeVersion = NODE_VERSION, continueOnFail = true }: NodeRun,
): Promise<{ failed: number; output: IDataObject[] }> {
	const run = await runWorkflow(
		inventoryWorkflow(
			items,
			{
				resource: 'asset',
				operation: 'createTodo',
				assetId: '={{ $json.assetId }}',
				name: '={{ $json.task }}',
				options: concurrency === 'auto' ? {} : { concurrency },
				// Keyed by columns needs key columns; the bench measures sending, with the keys of the
				// execution (retries of the execution replay).
				repeatProtection: 'execution',
			},
			{
				node: {
					typeVersion,
					...(continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
				},
			},
		),
		{
			credentials: {
				baseUrl: target.baseUrl,
				apiToken: TOKEN,
				...(target.certificate ? { ignoreSslIssues: true } : {}),
			},
		},
	);
	if (run.status !== 'success')
		throw new Error(`node run ${run.status}: ${run.data.resultData.error?.message}`);
	const output = nodeOutput(run, 'Inventory').map((item) => item.json);
	return { failed: output.filter((json) => json.error !== undefined).length, output };
}

/**
 * The floor: the same requests (method, path, headers, body, one key per item) from a plain axios
 * loop. `keepAlive: false` opens a connection per request, as n8n's HTTP helpers do (they build a
 * new agent for every request). Answers other than 201 count as failed items (no retries).
 */
export async function runRaw(
	target: Target,
	items: IDataObject[],
	concurrency: number,
	keepAlive: boolean,
): Promise<{ failed: number }> {
	const agentOptions = { keepAlive, maxSockets: Infinity };
	const http = axios.create({
		baseURL: target.baseUrl,
		timeout: 30_000,
		validateStatus: () => true,
		httpAgent: new HttpAgent(agentOptions),
		httpsAgent: new HttpsAgent({ ...agentOptions, ca: target.certificate }),
	});
	let next = 0;
	let failed = 0;
	const worker = async () => {
		while (next < items.length) {
			const item = items[next++];
			try {
				const response = await http.post<{ data?: IDataObject }>(
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
				if (response.status !== 201 || !response.data.data) failed++;
			} catch {
				failed++;
			}
		}
	};
	await Promise.all(Array.from({ length: concurrency }, worker));
	http.defaults.httpAgent?.destroy();
	http.defaults.httpsAgent?.destroy();
	return { failed };
}

/** What several executions of the node, run side by side in this process, came to. */
export interface ExecutionsResult {
	/** Items that came out as errors, over all executions. */
	failed: number;
	/** Executions with at least one failed item (in n8n's default error mode: failed executions). */
	failedExecutions: number;
	/** Each execution's time from its start to its end, in the order of `batches`. */
	durationsMs: number[];
}

/**
 * One execution of the node per batch, all in this process at once, each through n8n's engine with
 * its own execution id (as n8n runs concurrent production executions); execution i starts
 * `startAtMs[i]` after the call (at once without it).
 */
export async function runExecutions(
	target: Target,
	batches: IDataObject[][],
	run: NodeRun,
	startAtMs: number[] = [],
): Promise<ExecutionsResult> {
	const durationsMs: number[] = [];
	const failedPerExecution = await Promise.all(
		batches.map(async (items, i) => {
			if (startAtMs[i]) await sleep(startAtMs[i]);
			const t0 = performance.now();
			const { failed } = await runNode(target, items, run);
			durationsMs[i] = performance.now() - t0;
			return failed;
		}),
	);
	return {
		failed: failedPerExecution.reduce((sum, failed) => sum + failed, 0),
		failedExecutions: failedPerExecution.filter((failed) => failed > 0).length,
		durationsMs,
	};
}

/** `executions` batches of `itemsEach` to-dos, numbered apart from `first` on. */
export function batchesOf(
	executions: number,
	itemsEach: number,
	{ assets = BENCH_ASSET_COUNT, first = 0 }: { assets?: number; first?: number } = {},
): IDataObject[][] {
	return Array.from({ length: executions }, (_, i) =>
		intake(itemsEach, assets, first + i * itemsEach),
	);
}
