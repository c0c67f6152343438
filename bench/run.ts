/**
 * `npm run bench`: the Inventory node in n8n's workflow engine on a network's shape, against the
 * floors of a plain axios loop (keep-alive, and a new connection per request) sending the same
 * requests to the same sandbox.
 *
 * The sandbox (plain and TLS) and the latency proxy (bench/latency-proxy.ts) each run in their own
 * process. Everything is printed; nothing passes or fails on timing. The exit code is 1 when a run
 * lost or duplicated an action, or failed an item where none may fail (a correctness check).
 *
 * Parts (BENCH_ONLY, comma-separated, default all): calibration, matrix, rate-limit, change,
 * errors, the executions side by side of bench/executions.ts (burst, side-by-side, arrivals,
 * back-to-back, processes, burst-no-limit; "executions" names them all), memory, values (reading
 * 10,000 rows of sheet values, bench/values.ts: no sandbox, nothing sent).
 * Environment: BENCH_ITEMS (largest matrix run, default 1000), BENCH_LIMIT_ITEMS (N of the rate
 * limit and change scenarios, default 2000), BENCH_ERROR_ITEMS (N of the 5 % 500s runs, default
 * 10000), BENCH_SECONDS (aimed length of a matrix run,
 * default 3), BENCH_TRANSPORTS (default plain,tls), BENCH_RTTS (default 0,20,50),
 * BENCH_MEMORY_ITEMS (default 10000), BENCH_VALUE_ROWS (default 10000), BENCH_BEFORE (comma-separated JSON figures of earlier runs,
 * e.g. before a change: the executions' scenarios print them beside their own), BENCH_JSON (path
 * of the JSON figures, default bench/results/<time>.json, read by bench/summarize.ts).
 */
import type { IDataObject } from 'n8n-workflow';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';

import { packageRoot } from '../test/harness/engine';
import {
	intake,
	NODE_VERSION,
	runNode,
	runRaw,
	type Concurrency,
	type NodeRun,
	type Target,
} from './clients';
import { EXECUTION_PARTS, executionScenarios } from './executions';
import {
	fmt,
	measure,
	percentile,
	problems,
	requestLatencies,
	itemsPerSecondPivot,
	table,
	tokenBucket,
	type Measure,
	type RunSpec,
	type SecondBin,
} from './measure';
import { memoryRun, memoryTable, type MemoryFigures } from './memory';
import { startProxyProcess, startSandboxProcess, type ProxyProcess, type Sandbox } from './sandbox';
import { valuesBench } from './values';

const env = process.env;
const MATRIX_MAX_ITEMS = Number(env.BENCH_ITEMS ?? 1000);
const LIMIT_ITEMS = Number(env.BENCH_LIMIT_ITEMS ?? 2000);
/**
 * N of the 5 % 500s runs: long enough that throughput, not the last retried items' back-off (up to
 * Retry Delay 1 s, then up to 2 s), decides the figure; at 2,000 items (5 s) that tail alone cost 30-40 %.
 */
const ERROR_ITEMS = Number(env.BENCH_ERROR_ITEMS ?? 10_000);
const SECONDS_PER_RUN = Number(env.BENCH_SECONDS ?? 3);
const TRANSPORTS = (env.BENCH_TRANSPORTS ?? 'plain,tls').split(',') as Transport[];
const RTTS = (env.BENCH_RTTS ?? '0,20,50').split(',').map(Number);
const MEMORY_ITEMS = Number(env.BENCH_MEMORY_ITEMS ?? 10_000);
const PARTS = (
	env.BENCH_ONLY ?? 'calibration,matrix,rate-limit,change,errors,executions,memory,values'
)
	.split(',')
	.flatMap((part) => (part === 'executions' ? [...EXECUTION_PARTS] : [part]));
const FIXED = [1, 5, 10, 20, 50];
/** The no-limit targets' automatic runs, each between two runs of the best fixed concurrency. */
const NO_LIMIT_PAIRS = 3;
/** The round trip of the rate limit, change and error scenarios. */
const LIMIT_RTT = 20;
const CHANGE_AT_S = 10;

type Transport = 'plain' | 'tls';

const print = (text = ''): void => void process.stdout.write(`${text}\n`);
const results: Measure[] = [];

// ---------------------------------------------------------------------------------------------
// The network: one sandbox per transport, one proxy per transport and round trip, made when needed
// ---------------------------------------------------------------------------------------------

const sandboxes = new Map<Transport, Sandbox>();
const proxies = new Map<string, ProxyProcess>();

async function network(
	transport: Transport,
	rttMs: number,
): Promise<{ sandbox: Sandbox; target: Target }> {
	let sandbox = sandboxes.get(transport);
	if (!sandbox) {
		sandbox = await startSandboxProcess({ tls: transport === 'tls' });
		sandboxes.set(transport, sandbox);
	}
	const key = `${transport} ${rttMs}`;
	let proxy = proxies.get(key);
	if (!proxy) {
		proxy = await startProxyProcess(sandbox, rttMs);
		proxies.set(key, proxy);
	}
	return { sandbox, target: { baseUrl: proxy.baseUrl, certificate: sandbox.certificate } };
}

/**
 * The sandbox behind a proxy of its own: a base URL no earlier run of the node has used, so the
 * node's per-process controller for it starts from nothing, as in a new n8n process (it is shared
 * by every run in the process and forgotten only after minutes idle).
 */
async function freshNetwork(transport: Transport, rttMs: number) {
	const { sandbox } = await network(transport, rttMs);
	const proxy = await startProxyProcess(sandbox, rttMs);
	return {
		sandbox,
		target: { baseUrl: proxy.baseUrl, certificate: sandbox.certificate },
		stop: () => proxy.stop(),
	};
}

function stopAll(): void {
	for (const proxy of proxies.values()) proxy.stop();
	for (const sandbox of sandboxes.values()) sandbox.stop();
}

/** Round trips a request on a new connection costs in the proxy's model: TCP, (TLS,) request. */
const roundTrips = (transport: Transport) => (transport === 'tls' ? 3 : 2);

/**
 * Items for a matrix run that takes about SECONDS_PER_RUN: from the model's time per request and
 * the concurrency, between 50 and MATRIX_MAX_ITEMS.
 */
function itemsFor(transport: Transport, rttMs: number, concurrency: Concurrency): number {
	const perRequestMs = rttMs * roundTrips(transport) + 3;
	const inFlight = concurrency === 'auto' ? 50 : concurrency;
	const rate = (inFlight * 1000) / perRequestMs;
	return Math.max(50, Math.min(MATRIX_MAX_ITEMS, Math.round(rate * SECONDS_PER_RUN)));
}

// ---------------------------------------------------------------------------------------------
// Runs and targets
// ---------------------------------------------------------------------------------------------

async function nodeRun(
	transport: Transport,
	rttMs: number,
	scenario: string,
	items: IDataObject[],
	run: NodeRun,
	{
		spec = {},
		during,
		perSecond = false,
	}: {
		spec?: Partial<RunSpec>;
		/** Called when the run starts (e.g. to change the rate limit later). */
		during?: (sandbox: Sandbox) => void;
		/** Per-second bins from the sandbox's request log. */
		perSecond?: boolean;
	} = {},
): Promise<Measure> {
	const { sandbox, target, stop } = await freshNetwork(transport, rttMs);
	const result = await measure(
		sandbox,
		{
			scenario,
			transport,
			rttMs,
			client: 'node',
			concurrency: run.concurrency,
			typeVersion: run.typeVersion ?? NODE_VERSION,
			...spec,
		},
		items,
		async () => {
			during?.(sandbox);
			return await runNode(target, items, run);
		},
		{ perSecond },
	).finally(stop);
	results.push(result);
	return result;
}

async function rawRun(
	transport: Transport,
	rttMs: number,
	scenario: string,
	items: IDataObject[],
	concurrency: number,
	keepAlive: boolean,
): Promise<Measure> {
	const { sandbox, target } = await network(transport, rttMs);
	const result = await measure(
		sandbox,
		{
			scenario,
			transport,
			rttMs,
			client: keepAlive ? 'raw-keep-alive' : 'raw-new-conn',
			concurrency,
		},
		items,
		async () => await runRaw(target, items, concurrency, keepAlive),
	);
	results.push(result);
	return result;
}

interface Verdict {
	target: string;
	figure: string;
	met: boolean;
}
const verdicts: Verdict[] = [];

function verdict(target: string, figure: string, met: boolean): void {
	verdicts.push({ target, figure, met });
	print(`  target: ${target}: ${figure}: ${met ? 'met' : 'NOT met'}`);
}

// ---------------------------------------------------------------------------------------------
// The parts
// ---------------------------------------------------------------------------------------------

const calibration: IDataObject[] = [];

async function calibrate(): Promise<void> {
	print('Calibration: one request per new connection, concurrency 1, through the latency proxy');
	for (const transport of TRANSPORTS) {
		for (const rttMs of RTTS) {
			const { sandbox, target } = await network(transport, rttMs);
			await sandbox.reset();
			const items = intake(10);
			const ms = percentile(
				await requestLatencies(async () => await runRaw(target, items, 1, false)),
				50,
			);
			const model = roundTrips(transport) * rttMs;
			calibration.push({ transport, rttMs, medianMs: ms, modelMs: model });
			print(
				`  ${transport.padEnd(5)} ${String(rttMs).padStart(2)} ms round trip: ${fmt(ms)} ms per request (model: ${roundTrips(transport)} round trips = ${model} ms, plus the server)`,
			);
		}
	}
	print();
}

/** The mean items/s of runs measured alike: the VM's speed drifts between them. */
function meanItemsPerSecond(runs: Measure[]): number {
	return runs.reduce((sum, m) => sum + m.itemsPerSecond, 0) / runs.length;
}

async function matrix(): Promise<void> {
	print(
		`No limit: fixed concurrency and automatic (node version ${NODE_VERSION}) against the raw floors`,
	);
	const matrixStart = results.length;
	for (const transport of TRANSPORTS) {
		for (const rttMs of RTTS) {
			const first = results.length;
			for (const concurrency of FIXED) {
				const items = intake(itemsFor(transport, rttMs, concurrency));
				await nodeRun(transport, rttMs, 'no-limit', items, { concurrency });
				await rawRun(transport, rttMs, 'no-limit', items, concurrency, true);
				await rawRun(transport, rttMs, 'no-limit', items, concurrency, false);
			}
			const auto = await nodeRun(
				transport,
				rttMs,
				'no-limit',
				intake(itemsFor(transport, rttMs, 'auto')),
				{ concurrency: 'auto' },
			);
			const runs = results.slice(first);
			print();
			print(table(runs));
			const fixedNode = runs.filter((m) => m.client === 'node' && m.concurrency !== 'auto');
			const best = fixedNode.reduce((a, b) => (b.itemsPerSecond > a.itemsPerSecond ? b : a));
			if (transport === 'tls' && rttMs >= 20) {
				// The VM's speed drifts from one run to the next (10-30 %): after the sweep, the best fixed
				// concurrency and the automatic run alternate, and their means are compared.
				const fixedRuns = [best];
				const autoRuns = [auto];
				const again = async (scenario: string, concurrency: NodeRun['concurrency']) =>
					await nodeRun(
						transport,
						rttMs,
						scenario,
						intake(itemsFor(transport, rttMs, concurrency)),
						{ concurrency },
					);
				for (let pair = 1; pair < NO_LIMIT_PAIRS; pair++) {
					fixedRuns.push(await again('no-limit-again', best.concurrency));
					autoRuns.push(await again('no-limit-auto-again', 'auto'));
				}
				fixedRuns.push(await again('no-limit-again', best.concurrency));
				const ratio = meanItemsPerSecond(autoRuns) / meanItemsPerSecond(fixedRuns);
				const list = (runs: Measure[]) => runs.map((m) => fmt(m.itemsPerSecond)).join(', ');
				verdict(
					`no limit, TLS ${rttMs} ms: automatic >= 0.9 x the best fixed concurrency's items/s (${NO_LIMIT_PAIRS} runs alternating with ${NO_LIMIT_PAIRS + 1}), 0 429s, in flight <= 50`,
					`${list(autoRuns)} vs ${list(fixedRuns)} items/s at ${best.concurrency} (${fmt(ratio, 2)}x, means), ${fmt(Math.max(...autoRuns.map((m) => m.rateLimitedShare)) * 100)} % 429, max in flight ${Math.max(...autoRuns.map((m) => m.maxInFlight))}`,
					[...autoRuns, ...fixedRuns].every((m) => m.correct) &&
						ratio >= 0.9 &&
						autoRuns.every((m) => m.rateLimitedShare === 0 && m.maxInFlight <= 50),
				);
			}
			print();
		}
	}
	print('No limit, items/s by concurrency:');
	print();
	print(itemsPerSecondPivot(results.slice(matrixStart).filter((m) => m.scenario === 'no-limit')));
	print();
}

/** Automatic against a token bucket whose rate the node does not know; a few fixed values beside it. */
async function rateLimit(): Promise<void> {
	print(
		`Token bucket (burst R): ${LIMIT_ITEMS} to-dos over 500 assets; fixed concurrency with fewer items`,
	);
	const cases: { transport: Transport; rttMs: number; rate: number; fixed: number[] }[] = [
		{ transport: 'tls', rttMs: LIMIT_RTT, rate: 25, fixed: [1, 10, 50] },
		{ transport: 'tls', rttMs: LIMIT_RTT, rate: 100, fixed: [1, 10, 50] },
		// One request in flight is already faster than R here: the node has to pace, not cut concurrency.
		{ transport: 'plain', rttMs: 0, rate: 100, fixed: [1, 10] },
	];
	for (const { transport, rttMs, rate, fixed } of cases) {
		const first = results.length;
		const limit = { rateLimit: tokenBucket(rate) };
		const auto = await nodeRun(
			transport,
			rttMs,
			'rate-limit',
			intake(LIMIT_ITEMS),
			{ concurrency: 'auto' },
			{ spec: limit },
		);
		for (const concurrency of fixed) {
			const modelled = (Math.min(concurrency, 8) * 1000) / (rttMs * roundTrips(transport) + 3);
			const count = Math.round(Math.min(LIMIT_ITEMS, rate * 8, modelled * 8));
			await nodeRun(
				transport,
				rttMs,
				'rate-limit',
				intake(count),
				{ concurrency },
				{ spec: { ...limit, mayFail: true } },
			);
		}
		print();
		print(table(results.slice(first)));
		const ideal = LIMIT_ITEMS / rate;
		verdict(
			`R = ${rate}/s, ${transport} ${rttMs} ms: automatic within 1.15 x N/R, <= 3 % 429, 0 failed, exactly ${LIMIT_ITEMS} records`,
			`${fmt(auto.seconds)} s vs N/R ${fmt(ideal)} s (${fmt(auto.seconds / ideal, 2)}x), ${fmt(auto.rateLimitedShare * 100)} % 429, ${auto.failedItems} failed, ${auto.records} records`,
			auto.seconds <= 1.15 * ideal &&
				auto.rateLimitedShare <= 0.03 &&
				auto.failedItems === 0 &&
				auto.records === LIMIT_ITEMS,
		);
		print();
	}
}

function binsTable(bins: SecondBin[], fromSecond: number): string {
	const rows = bins
		.filter((bin) => bin.second >= fromSecond - 2)
		.map(
			(bin) =>
				`| ${String(bin.second).padStart(6)} | ${String(bin.attempts).padStart(8)} | ${fmt(bin.attempts ? (bin.rateLimited / bin.attempts) * 100 : 0).padStart(5)} | ${String(bin.succeeded).padStart(9)} |`,
		);
	return ['| second | attempts | 429 % | succeeded |', '| -----: | -------: | ----: | --------: |']
		.concat(rows)
		.join('\n');
}

/** The limit changed during the run (PUT /_sandbox/rate-limit at CHANGE_AT_S). */
async function change(): Promise<void> {
	const transport: Transport = 'tls';
	const steps = [
		{ name: 'halved', from: 100, to: 50 },
		{ name: 'doubled', from: 50, to: 100 },
	];
	for (const { name, from, to } of steps) {
		print(
			`R ${name} mid-run: ${from}/s, then ${to}/s from second ${CHANGE_AT_S}; automatic, ${LIMIT_ITEMS} to-dos, TLS ${LIMIT_RTT} ms`,
		);
		let timer: NodeJS.Timeout | undefined;
		const m = await nodeRun(
			transport,
			LIMIT_RTT,
			`rate-${name}`,
			intake(LIMIT_ITEMS),
			{ concurrency: 'auto' },
			{
				spec: { rateLimit: tokenBucket(from) },
				during: (sandbox) => {
					timer = setTimeout(() => void sandbox.setRateLimit(tokenBucket(to)), CHANGE_AT_S * 1000);
				},
				perSecond: true,
			},
		);
		clearTimeout(timer);
		const bins = m.perSecond ?? [];
		print();
		print(table([m]));
		print();
		print(binsTable(bins, CHANGE_AT_S));
		// The last bin is a partial second: left out of the checks below.
		const full = bins.slice(0, -1).filter((bin) => bin.second >= CHANGE_AT_S);
		if (name === 'halved') {
			const share = (bins: SecondBin[]) =>
				bins.reduce((sum, bin) => sum + bin.rateLimited, 0) /
				Math.max(
					1,
					bins.reduce((sum, bin) => sum + bin.attempts, 0),
				);
			const first10 = share(full.slice(0, 10));
			const after10 = share(full.slice(10));
			verdict(
				'R halved: nothing fails, and the 429 share is back under 3 % within 10 s',
				`${m.failedItems} failed, ${m.records} records; 429 share ${fmt(first10 * 100)} % in the 10 s after the change, ${fmt(after10 * 100)} % from then to the end (${full.length - 10} s)`,
				m.failedItems === 0 && m.records === LIMIT_ITEMS && full.length > 10 && after10 < 0.03,
			);
		} else {
			// Sustained, not a burst the bucket saved up: successes over the 5 seconds up to a second.
			const fiveSecondAverage = (i: number) =>
				full.slice(Math.max(0, i - 4), i + 1).reduce((sum, bin) => sum + bin.succeeded, 0) /
				Math.min(5, i + 1);
			const index = full.findIndex((_, i) => fiveSecondAverage(i) >= 0.85 * to);
			const seconds = index >= 0 ? full[index].second + 1 - CHANGE_AT_S : NaN;
			verdict(
				'R doubled: throughput (5 s average) reaches 0.85 x the new R within 30 s',
				index >= 0
					? `${fmt(fiveSecondAverage(index))}/s over the 5 s up to ${seconds} s after the change`
					: `not reached before the run ended (${fmt(m.seconds)} s; best 5 s average ${fmt(Math.max(0, ...full.map((_, i) => fiveSecondAverage(i))))}/s)`,
				seconds <= 30,
			);
		}
		print();
	}
}

/**
 * 5 % random 500s and no limit: errors that are not 429 must not slow the rate down. The VM's speed
 * drifts from one run to the next, so the error-free run goes before and after the faulty one, which
 * is compared with their mean.
 */
async function errors(): Promise<void> {
	print(`5 % random 500s, no limit: automatic, ${ERROR_ITEMS} to-dos, TLS ${LIMIT_RTT} ms`);
	const items = intake(ERROR_ITEMS);
	const run = async (scenario: string, spec?: Partial<RunSpec>) =>
		await nodeRun(
			'tls',
			LIMIT_RTT,
			scenario,
			items,
			{ concurrency: 'auto' },
			{ spec, perSecond: true },
		);
	const clean = await run('errors-none');
	const faulty = await run('errors-5%-500', {
		faults: { serverErrorRate: 0.05, serverErrorStatus: 500, maxFaultsPerKey: 3, seed: 16 },
	});
	const again = await run('errors-none-again');
	print();
	print(table([clean, faulty, again]));
	const ratio = faulty.itemsPerSecond / meanItemsPerSecond([clean, again]);
	const to95 = (m: Measure) => fmt(m.secondsTo95 ?? NaN, 2);
	verdict(
		'5 % random 500s, no limit: >= 0.9 x the error-free throughput (runs before and after it)',
		`${fmt(faulty.itemsPerSecond)} vs ${fmt(clean.itemsPerSecond)} and ${fmt(again.itemsPerSecond)} items/s (${fmt(ratio, 2)}x their mean); to 95 % of the items: ${to95(faulty)} vs ${to95(clean)} and ${to95(again)} s (after that: the run's tail)`,
		clean.correct && faulty.correct && again.correct && ratio >= 0.9,
	);
	print();
}

async function memory(): Promise<MemoryFigures[]> {
	// Straight to the sandbox, without the proxy.
	const { sandbox } = await network('plain', 0);
	const runs = [
		await memoryRun(sandbox, Math.round(MEMORY_ITEMS / 10)),
		await memoryRun(sandbox, MEMORY_ITEMS),
	];
	print(memoryTable(runs));
	print();
	return runs;
}

// ---------------------------------------------------------------------------------------------

/** The parts that run the node against the sandbox, after a warm-up. */
async function networkParts(summary: IDataObject): Promise<void> {
	// Warm-up: JIT, module loading, first connections.
	const { sandbox, target } = await network('plain', 0);
	await sandbox.reset();
	await runNode(target, intake(200), { concurrency: 1 });
	await runRaw(target, intake(200), 1, true);

	if (PARTS.includes('calibration')) await calibrate();
	if (PARTS.includes('matrix')) await matrix();
	if (PARTS.includes('rate-limit')) await rateLimit();
	if (PARTS.includes('change')) await change();
	if (PARTS.includes('errors')) await errors();
	await executionScenarios(
		{
			freshNetwork: async (rttMs) => await freshNetwork('tls', rttMs),
			record: (m) => void results.push(m),
			verdict,
			print,
			before: (env.BENCH_BEFORE ? env.BENCH_BEFORE.split(',') : []).flatMap(
				(file) => (JSON.parse(readFileSync(file, 'utf8')) as { results: Measure[] }).results,
			),
		},
		PARTS,
	);
	if (PARTS.includes('memory')) summary.memory = (await memory()) as unknown as IDataObject[];
}

async function main(): Promise<void> {
	const figures: IDataObject = {
		node: process.version,
		cpus: cpus().length,
		nodeVersion: NODE_VERSION,
	};
	print(
		`Inventory node benchmark: node version ${NODE_VERSION}, sandbox and latency proxy in their own processes, ${figures.cpus} CPUs, Node ${process.version}`,
	);
	print();
	const summary: IDataObject = {};
	try {
		// Reading values needs no network: before the sandbox and the proxies start.
		if (PARTS.includes('values')) summary.values = await valuesBench(print, verdict);
		if (PARTS.some((part) => part !== 'values')) await networkParts(summary);
	} finally {
		stopAll();
	}
	if (verdicts.length > 0) {
		print('Targets (printed, not asserted):');
		print('| target | figure | met |');
		print('| --- | --- | --- |');
		for (const v of verdicts) print(`| ${v.target} | ${v.figure} | ${v.met ? 'yes' : 'no'} |`);
		print();
	}
	summary.calibration = calibration;
	summary.targets = verdicts as unknown as IDataObject[];
	const jsonFile =
		env.BENCH_JSON ??
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
	print(`figures written to ${jsonFile}`);
	if (problems.length > 0) {
		print(`\nCORRECTNESS: ${problems.length} run(s) lost, duplicated or failed items:`);
		for (const problem of problems) print(`  ${problem}`);
		process.exitCode = 1;
	}
}

main().catch((error: unknown) => {
	process.stderr.write(`bench: ${(error as Error).stack ?? String(error)}\n`);
	stopAll();
	process.exitCode = 1;
});
