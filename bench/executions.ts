/**
 * Many executions, one API (issue 20): executions of the node side by side against the sandbox's
 * token bucket, TLS at 20 ms (RTT_MS) through the latency proxy, the node's defaults (automatic
 * concurrency). In one process they are concurrent `runWorkflow` calls of the engine, each with its
 * own execution id, as n8n runs concurrent production executions; "processes" runs them in child
 * processes (bench/process-child.ts), as queue-mode workers do.
 *
 * Each scenario gets a latency proxy of its own, so its base URL is new and nothing a controller
 * learned in one scenario carries over into the next (in a real n8n process it would).
 */
import type { IDataObject } from 'n8n-workflow';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';

import { packageRoot } from '../test/harness/engine';
import {
	batchesOf,
	intake,
	NODE_VERSION,
	runExecutions,
	runNode,
	type ExecutionsResult,
	type Target,
} from './clients';
import { fmt, measure, percentile, tokenBucket, type Measure, type RunSpec } from './measure';
import type { ChildJob } from './process-child';
import type { Sandbox } from './sandbox';

export const EXECUTION_PARTS = [
	'burst',
	'side-by-side',
	'arrivals',
	'back-to-back',
	'higher-limit',
	'processes',
	'burst-no-limit',
] as const;

export interface ScenarioContext {
	/** The TLS sandbox behind a new latency proxy at `rttMs`; `stop` ends the proxy. */
	freshNetwork(rttMs: number): Promise<{ sandbox: Sandbox; target: Target; stop(): void }>;
	record(m: Measure): void;
	verdict(target: string, figure: string, met: boolean): void;
	print(text?: string): void;
	/** The same scenarios' figures from earlier runs (BENCH_BEFORE), e.g. before a change. */
	before: Measure[];
}

const RTT_MS = 20;
const BURST = { executions: 1000, rate: 50 };
const SIDE_BY_SIDE = { executions: 8, itemsEach: 250, rate: 100 };
const ARRIVALS = { importItems: 2000, executions: 20, firstAtMs: 3000, everyMs: 500, rate: 100 };
/**
 * Two runs, the second `gapMs` after the first ended: the second starts from the rate the first found.
 * That needs a first run that meets the limit: at `rate`, 1,000 items drain the bucket's burst when
 * sent faster than 111/s. One run here sends about 175/s at the most (the slow start stops growing
 * once answers queue for the CPU): at `edgeRate` that needs more than 176/s, so the first run often
 * ends within the burst, learns nothing, and the second meets the limit for the first time (the burst
 * row's case, with its 3 %). The pair at `edgeRate` still runs; its figures are printed, not judged.
 */
const BACK_TO_BACK = { items: 1000, gapMs: 2000, rate: 100, edgeRate: 150 };
/**
 * A fresh run against `rate`, and one against it after a run against `earlierRate` (the limit raised
 * `gapMs` after it ended). Then the same right after a run against no limit, at a server that takes
 * `serverMs` per request: the token bucket answers 429 with Retry-After in whole seconds (at least 1),
 * though it is a few milliseconds from its next token.
 */
const HIGHER_LIMIT = { items: 900, earlierRate: 100, rate: 150, gapMs: 2000, serverMs: 20 };
const PROCESSES = { counts: [2, 4], executionsEach: 100, itemsEach: 2, rate: 60 };

const pct = (share: number) => `${fmt(share * 100)} %`;

function spec(scenario: string, rate: number | null, extra: Partial<RunSpec> = {}): RunSpec {
	return {
		scenario,
		transport: 'tls',
		rttMs: RTT_MS,
		client: 'node',
		concurrency: 'auto',
		typeVersion: NODE_VERSION,
		rateLimit: rate === null ? null : tokenBucket(rate),
		// Failed items are the verdicts' business; the run's check is that none is lost or recorded twice.
		mayFail: true,
		...extra,
	};
}

/** "x of N/R" for a run of `items` against `rate`. */
function againstIdeal(m: Measure, rate: number): { ratio: number; text: string } {
	const ideal = m.items / rate;
	const ratio = m.seconds / ideal;
	return { ratio, text: `${fmt(m.seconds)} s vs N/R ${fmt(ideal)} s (${fmt(ratio, 2)}x)` };
}

/** Figures of a run shared by every verdict: failures, 429 share, records. */
const outcome = (m: Measure) =>
	`${m.failedExecutions ?? m.failedItems} of ${m.executions ?? 1} executions failed, ${pct(m.rateLimitedShare)} of ${m.attempts} requests answered 429, ${m.records} records for ${m.items} items${m.correct ? '' : ' (NOT each once)'}`;

const beforeOf = (ctx: ScenarioContext, scenario: string) =>
	ctx.before.find((m) => m.scenario === scenario);

/** The median items/s of a scenario over the earlier runs, and how many there were. */
function beforeItemsPerSecond(ctx: ScenarioContext, scenario: string) {
	const runs = ctx.before.filter((m) => m.scenario === scenario);
	return {
		runs: runs.length,
		median: percentile(
			runs.map((m) => m.itemsPerSecond),
			50,
		),
	};
}

const beforeText = (ctx: ScenarioContext, scenario: string) => {
	const m = beforeOf(ctx, scenario);
	return m
		? ` [before: ${fmt(m.seconds)} s, ${pct(m.rateLimitedShare)} 429, ${m.failedExecutions ?? m.failedItems} failed]`
		: '';
};

/** Runs `batches` as executions at once, measured as one run. */
async function measureExecutions(
	ctx: ScenarioContext,
	sandbox: Sandbox,
	target: Target,
	runSpec: RunSpec,
	batches: IDataObject[][],
	startAtMs: number[] = [],
): Promise<{ m: Measure; result: ExecutionsResult }> {
	let result: ExecutionsResult = { failed: 0, failedExecutions: 0, durationsMs: [] };
	const m = await measure(
		sandbox,
		{ ...runSpec, executions: batches.length },
		batches.flat(),
		async () => {
			result = await runExecutions(target, batches, { concurrency: 'auto' }, startAtMs);
			return result;
		},
	);
	ctx.record(m);
	return { m, result };
}

/**
 * Prints a scenario's title and runs it against a network of its own (a new base URL, so nothing the
 * node's per-process controller learned in another scenario carries over), then a blank line.
 */
async function onFreshNetwork(
	ctx: ScenarioContext,
	title: string,
	run: (network: { sandbox: Sandbox; target: Target }) => Promise<void>,
): Promise<void> {
	ctx.print(title);
	const { stop, ...network } = await ctx.freshNetwork(RTT_MS);
	try {
		await run(network);
	} finally {
		stop();
	}
	ctx.print();
}

async function burst(ctx: ScenarioContext, rate: number | null): Promise<void> {
	const scenario = rate === null ? 'burst-no-limit' : 'burst';
	const { executions } = BURST;
	await onFreshNetwork(
		ctx,
		`${executions} one-item executions started at once, ${rate === null ? 'no limit' : `R = ${rate}/s`}, TLS ${RTT_MS} ms`,
		async ({ sandbox, target }) => {
			const { m, result } = await measureExecutions(
				ctx,
				sandbox,
				target,
				spec(scenario, rate),
				batchesOf(executions, 1),
			);
			const slowest = Math.max(...result.durationsMs) / 1000;
			ctx.print(
				`  ${outcome(m)}; ${fmt(m.itemsPerSecond)} items/s; slowest execution ${fmt(slowest)} s`,
			);
			if (rate !== null) {
				const { ratio, text } = againstIdeal(m, rate);
				ctx.verdict(
					`${executions} one-item executions at once, R = ${rate}/s: none fails, <= 3 % 429, every record once, <= 1.15 x N/R`,
					`${m.failedExecutions} failed, ${pct(m.rateLimitedShare)} 429, ${m.records} records, ${text}${beforeText(ctx, scenario)}`,
					m.failedExecutions === 0 && m.rateLimitedShare <= 0.03 && m.correct && ratio <= 1.15,
				);
			} else {
				const today = beforeItemsPerSecond(ctx, scenario);
				if (today.runs > 0) {
					const share = m.itemsPerSecond / today.median;
					ctx.verdict(
						`no limit: ${executions} one-item executions reach >= 90 % of today's throughput`,
						`${fmt(m.itemsPerSecond)} vs ${fmt(today.median)} items/s before (median of ${today.runs} runs; ${fmt(share * 100)} %)`,
						m.correct && share >= 0.9,
					);
				} else
					ctx.print('  (no earlier figure to compare with: BENCH_BEFORE=<bench/results/...json>)');
			}
		},
	);
}

async function sideBySide(ctx: ScenarioContext): Promise<void> {
	const { executions, itemsEach, rate } = SIDE_BY_SIDE;
	await onFreshNetwork(
		ctx,
		`${executions} executions of ${itemsEach} items side by side, R = ${rate}/s, TLS ${RTT_MS} ms`,
		async ({ sandbox, target }) => {
			const { m, result } = await measureExecutions(
				ctx,
				sandbox,
				target,
				spec('side-by-side', rate),
				batchesOf(executions, itemsEach),
			);
			const ends = result.durationsMs.map((ms) => fmt(ms / 1000)).join(', ');
			ctx.print(`  ${outcome(m)}; each execution's time (s): ${ends}`);
			const { ratio, text } = againstIdeal(m, rate);
			ctx.verdict(
				`${executions} executions of ${itemsEach} items side by side, R = ${rate}/s: <= 3 % 429, <= 1.15 x N/R`,
				`${pct(m.rateLimitedShare)} 429, ${text}, ${m.failedExecutions} failed${beforeText(ctx, 'side-by-side')}`,
				m.correct && m.failedExecutions === 0 && m.rateLimitedShare <= 0.03 && ratio <= 1.15,
			);
		},
	);
}

async function arrivals(ctx: ScenarioContext): Promise<void> {
	const { importItems, executions, firstAtMs, everyMs, rate } = ARRIVALS;
	await onFreshNetwork(
		ctx,
		`${executions} one-item executions arriving during a ${importItems}-item import (one every ${everyMs} ms from ${firstAtMs / 1000} s on), R = ${rate}/s, TLS ${RTT_MS} ms`,
		async ({ sandbox, target }) => {
			const batches = [
				intake(importItems, 1000),
				...batchesOf(executions, 1, { first: importItems }),
			];
			const startAtMs = [0, ...batches.slice(1).map((_, i) => firstAtMs + i * everyMs)];
			const { m, result } = await measureExecutions(
				ctx,
				sandbox,
				target,
				spec('arrivals', rate),
				batches,
				startAtMs,
			);
			const [importMs, ...latencies] = result.durationsMs;
			const seconds = latencies.map((ms) => ms / 1000);
			const slowest = Math.max(...seconds);
			ctx.print(`  ${outcome(m)}; the import took ${fmt(importMs / 1000)} s`);
			ctx.print(
				`  each arriving execution's time (s): ${seconds.map((s) => fmt(s, 2)).join(', ')}`,
			);
			const before = beforeOf(ctx, 'arrivals');
			ctx.verdict(
				`${executions} one-item executions arriving during a ${importItems}-item import, R = ${rate}/s: each done within 1 s`,
				`slowest ${fmt(slowest, 2)} s, median ${fmt(percentile(seconds, 50), 2)} s, ${seconds.filter((s) => s > 1).length} over 1 s${before?.arrivalSeconds ? ` [before: slowest ${fmt(Math.max(...before.arrivalSeconds), 2)} s]` : ''}`,
				m.correct && slowest <= 1,
			);
			m.arrivalSeconds = seconds;
		},
	);
}

async function backToBack(ctx: ScenarioContext): Promise<void> {
	const { items, gapMs, rate, edgeRate } = BACK_TO_BACK;
	for (const r of [rate, edgeRate]) {
		await onFreshNetwork(
			ctx,
			`Two ${items}-item runs, the second ${gapMs / 1000} s after the first ended, R = ${r}/s, TLS ${RTT_MS} ms`,
			async ({ sandbox, target }) => {
				const runs: Measure[] = [];
				for (const run of [1, 2]) {
					if (runs.length > 0) await sleep(gapMs);
					const scenario = `back-to-back-${r}-${run}`;
					const m = await measure(sandbox, spec(scenario, r), intake(items, 1000), async () =>
						runNode(target, intake(items, 1000), { concurrency: 'auto' }),
					);
					ctx.record(m);
					runs.push(m);
					ctx.print(`  ${scenario}: ${outcome(m)}, ${againstIdeal(m, r).text}`);
				}
				const [first, second] = runs;
				const figure = `${pct(second.rateLimitedShare)} 429 (first run ${pct(first.rateLimitedShare)}), ${second.failedItems} failed${beforeText(ctx, `back-to-back-${r}-2`)}`;
				const met = runs.every((m) => m.correct) && second.rateLimitedShare <= 0.01;
				if (r === rate)
					ctx.verdict(
						`the second of two back-to-back ${items}-item runs (R = ${r}/s): <= 1 % 429`,
						figure,
						met,
					);
				else
					ctx.print(
						`  not judged (R = ${r}/s, near one run's own top speed): ${figure}; the first run ${first.rateLimitedShare > 0 ? 'met the limit' : 'met no 429, so the second was the first to meet the limit'}`,
					);
			},
		);
	}
}

async function higherLimit(ctx: ScenarioContext): Promise<void> {
	const { items, earlierRate, rate, gapMs, serverMs } = HIGHER_LIMIT;
	const runAt = async (
		sandbox: Sandbox,
		target: Target,
		scenario: string,
		r: number | null,
		extra: Partial<RunSpec> = {},
	) => {
		const m = await measure(sandbox, spec(scenario, r, extra), intake(items, 1000), async () =>
			runNode(target, intake(items, 1000), { concurrency: 'auto' }),
		);
		ctx.record(m);
		ctx.print(`  ${scenario}: ${outcome(m)}${r === null ? '' : `, ${againstIdeal(m, r).text}`}`);
		return m;
	};
	await onFreshNetwork(
		ctx,
		`${items} items, R = ${rate}/s, TLS ${RTT_MS} ms: a fresh run`,
		async ({ sandbox, target }) => {
			const m = await runAt(sandbox, target, 'token-bucket-fresh', rate);
			const { ratio, text } = againstIdeal(m, rate);
			ctx.verdict(
				`${items} items against R = ${rate}/s, fresh: within 1.3 x N/R`,
				`${text}, ${pct(m.rateLimitedShare)} 429`,
				m.correct && m.failedItems === 0 && ratio <= 1.3,
			);
		},
	);
	await onFreshNetwork(
		ctx,
		`${items} items at R = ${earlierRate}/s, then, ${gapMs / 1000} s later, ${items} at R = ${rate}/s (the limit raised), TLS ${RTT_MS} ms`,
		async ({ sandbox, target }) => {
			await runAt(sandbox, target, 'higher-limit-1', earlierRate);
			await sleep(gapMs);
			await sandbox.setRateLimit(tokenBucket(rate));
			const m = await runAt(sandbox, target, 'higher-limit-2', rate);
			const { ratio, text } = againstIdeal(m, rate);
			ctx.verdict(
				`${items} items against a limit raised to R = ${rate}/s after a run at ${earlierRate}/s: within 1.3 x N/R`,
				`${text}, ${pct(m.rateLimitedShare)} 429`,
				m.correct && m.failedItems === 0 && ratio <= 1.3,
			);
		},
	);
	const server = { faults: { latencyMs: serverMs } };
	await onFreshNetwork(
		ctx,
		`${items} items at no limit, right after them ${items} at R = ${rate}/s, a server taking ${serverMs} ms, TLS ${RTT_MS} ms`,
		async ({ sandbox, target }) => {
			await runAt(sandbox, target, 'after-no-limit-1', null, server);
			const m = await runAt(sandbox, target, 'after-no-limit-2', rate, server);
			const { ratio, text } = againstIdeal(m, rate);
			ctx.verdict(
				`${items} items against R = ${rate}/s (Retry-After in whole seconds) right after a run at no limit: within 1.3 x N/R, <= 5 % 429`,
				`${text}, ${pct(m.rateLimitedShare)} 429`,
				m.correct && m.failedItems === 0 && ratio <= 1.3 && m.rateLimitedShare <= 0.05,
			);
		},
	);
}

interface Child {
	process: ChildProcess;
	/** Resolves once the child loaded n8n's engine and is waiting for the start. */
	ready: Promise<void>;
	/** Resolves to what its executions came to. */
	result: Promise<ExecutionsResult>;
}

function startChild(job: ChildJob): Child {
	const child = spawn(
		process.execPath,
		[join(packageRoot(), 'build', 'bench', 'process-child.js'), JSON.stringify(job)],
		{ stdio: ['pipe', 'pipe', 'inherit'] },
	);
	const lines = createInterface({ input: child.stdout });
	const exited = new Promise<never>((_, reject) =>
		child.once('exit', (code) => reject(new Error(`bench child exited with ${code}`))),
	);
	const next = async () =>
		await Promise.race([new Promise<string>((resolve) => lines.once('line', resolve)), exited]);
	const ready = next().then(() => undefined);
	const result = ready.then(next).then((line) => JSON.parse(line) as ExecutionsResult);
	// A rejection not awaited yet (the child failed before its turn) must not end the bench.
	result.catch(() => undefined);
	return { process: child, ready, result };
}

async function processes(ctx: ScenarioContext): Promise<void> {
	const { counts, executionsEach, itemsEach, rate } = PROCESSES;
	for (const count of counts) {
		await onFreshNetwork(
			ctx,
			`${count} processes sharing R = ${rate}/s, each running ${executionsEach} executions of ${itemsEach} items at once, TLS ${RTT_MS} ms`,
			async ({ sandbox, target }) => {
				const perProcess = executionsEach * itemsEach;
				const children = Array.from({ length: count }, (_, i) =>
					startChild({ target, executions: executionsEach, itemsEach, first: i * perProcess }),
				);
				try {
					await Promise.all(children.map(async (child) => await child.ready));
					const items = batchesOf(count * executionsEach, itemsEach).flat();
					let results: ExecutionsResult[] = [];
					const m = await measure(
						sandbox,
						spec(`processes-${count}`, rate, {
							executions: count * executionsEach,
							processes: count,
						}),
						items,
						async () => {
							for (const child of children) child.process.stdin?.write('go\n');
							results = await Promise.all(children.map(async (child) => await child.result));
							return {
								failed: results.reduce((sum, r) => sum + r.failed, 0),
								failedExecutions: results.reduce((sum, r) => sum + r.failedExecutions, 0),
							};
						},
					);
					ctx.record(m);
					const ends = results.map((r) => fmt(Math.max(...r.durationsMs) / 1000)).join(', ');
					ctx.print(`  ${outcome(m)}; each process done after (s): ${ends}`);
					const { ratio, text } = againstIdeal(m, rate);
					ctx.verdict(
						`${count} processes sharing R = ${rate}/s: none fails, <= 10 % 429, <= 1.3 x N/R`,
						`${m.failedExecutions} failed, ${pct(m.rateLimitedShare)} 429, ${text}${beforeText(ctx, `processes-${count}`)}`,
						m.correct && m.failedExecutions === 0 && m.rateLimitedShare <= 0.1 && ratio <= 1.3,
					);
				} finally {
					for (const child of children) child.process.kill('SIGTERM');
				}
			},
		);
	}
}

/** The scenarios of EXECUTION_PARTS that `parts` names, in that order. */
export async function executionScenarios(ctx: ScenarioContext, parts: string[]): Promise<void> {
	const runs: Record<(typeof EXECUTION_PARTS)[number], () => Promise<void>> = {
		burst: async () => await burst(ctx, BURST.rate),
		'side-by-side': async () => await sideBySide(ctx),
		arrivals: async () => await arrivals(ctx),
		'back-to-back': async () => await backToBack(ctx),
		'higher-limit': async () => await higherLimit(ctx),
		processes: async () => await processes(ctx),
		'burst-no-limit': async () => await burst(ctx, null),
	};
	for (const part of EXECUTION_PARTS) if (parts.includes(part)) await runs[part]();
}
