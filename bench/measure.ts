/**
 * One measured run: the sandbox reset, the run timed, then its figures from the client-side probe
 * (request latency, the most requests in flight at once), the sandbox's counters (attempts, 429s,
 * records) and its request log (per-second bins), and the correctness check (every item recorded
 * exactly once).
 */
import type { IDataObject } from 'n8n-workflow';
import { subscribe } from 'node:diagnostics_channel';
import type { ClientRequest, IncomingMessage } from 'node:http';

import type { FaultConfig, RateLimitConfig, RecordedRequest } from '../sandbox/src';
import type { ClientKind, Concurrency } from './clients';
import type { Sandbox } from './sandbox';

// Client-side probe: every HTTP(S) request of this process, from the moment the client creates it
// (before its connection is opened) to the end of its response.
// The same probe counts the requests in flight, from creation to the end of the response (or the
// request's close, when no response came), and keeps the most.
const started = new WeakMap<ClientRequest, number>();
let latencies: number[] = [];
let inFlight = 0;
let mostInFlight = 0;
const settled = new WeakSet<ClientRequest>();
const settle = (request: ClientRequest) => {
	if (settled.has(request)) return;
	settled.add(request);
	inFlight--;
};
subscribe('http.client.request.start', (message) => {
	const { request } = message as { request: ClientRequest };
	started.set(request, performance.now());
	if (request.path.startsWith('/_sandbox')) return;
	mostInFlight = Math.max(mostInFlight, ++inFlight);
	request.once('close', () => settle(request));
});
subscribe('http.client.response.finish', (message) => {
	const { request, response } = message as { request: ClientRequest; response: IncomingMessage };
	const at = started.get(request);
	if (at === undefined || request.path.startsWith('/_sandbox')) return;
	response.once('end', () => {
		latencies.push(performance.now() - at);
		settle(request);
	});
});

export function percentile(values: number[], p: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	if (sorted.length === 0) return NaN;
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** The client-side latencies (ms) of the requests `run` sends. */
export async function requestLatencies(run: () => Promise<unknown>): Promise<number[]> {
	latencies = [];
	await run();
	return latencies;
}

export interface RunSpec {
	scenario: string;
	transport: 'plain' | 'tls';
	rttMs: number;
	client: ClientKind;
	concurrency: Concurrency;
	typeVersion?: number;
	rateLimit?: RateLimitConfig | null;
	/** The sandbox's fault injection during the run (e.g. random 500s). */
	faults?: FaultConfig;
	/** Items may fail (fixed concurrency against a rate limit): still no item recorded twice. */
	mayFail?: boolean;
	/** Executions of the node in the run (bench/executions.ts), when more than one. */
	executions?: number;
	/** Processes they ran in, when more than this one. */
	processes?: number;
}

/** One second of a run (from its start): attempts answered, of them 429s and successes. */
export interface SecondBin {
	second: number;
	attempts: number;
	rateLimited: number;
	succeeded: number;
}

export interface Measure extends RunSpec {
	items: number;
	seconds: number;
	itemsPerSecond: number;
	attempts: number;
	rateLimitedShare: number;
	failedItems: number;
	records: number;
	medianMs: number;
	p99Ms: number;
	/** The most requests the client had in flight at once (from creation to close). */
	maxInFlight: number;
	/** From the sandbox's request log, for the runs that ask for it: per-second bins, */
	perSecond?: SecondBin[];
	/** and the seconds until 95 % of the items had their success (the rate without the run's tail). */
	secondsTo95?: number;
	/** Executions with a failed item, for runs of several executions. */
	failedExecutions?: number;
	/** Each arriving execution's time, start to end (bench/executions.ts, "arrivals"). */
	arrivalSeconds?: number[];
	correct: boolean;
}

function perSecond(requests: RecordedRequest[], startEpochMs: number): SecondBin[] {
	const bins: SecondBin[] = [];
	for (const request of requests) {
		const second = Math.floor((request.finishedAtMs - startEpochMs) / 1000);
		if (second < 0) continue;
		for (let s = bins.length; s <= second; s++)
			bins.push({ second: s, attempts: 0, rateLimited: 0, succeeded: 0 });
		const bin = bins[second];
		bin.attempts++;
		if (request.status === 429) bin.rateLimited++;
		else if (request.status !== null && request.status < 300) bin.succeeded++;
	}
	return bins;
}

function secondsTo(successes: number, requests: RecordedRequest[], startEpochMs: number): number {
	const ends = requests
		.filter((r) => r.status !== null && r.status < 300)
		.map((r) => r.finishedAtMs)
		.sort((a, b) => a - b);
	const at = ends[Math.ceil(successes) - 1];
	return at === undefined ? NaN : (at - startEpochMs) / 1000;
}

/** The sandbox's token bucket at `ratePerSecond`, with a burst of one second's worth. */
export function tokenBucket(ratePerSecond: number): RateLimitConfig {
	return { ratePerSecond, burst: ratePerSecond };
}

/** Failures of the correctness check, collected over the whole bench (exit code 1 when any). */
export const problems: string[] = [];

export function describe(spec: RunSpec): string {
	return `${spec.scenario} ${spec.transport} ${spec.rttMs} ms ${spec.client} c=${spec.concurrency}`;
}

export async function measure(
	sandbox: Sandbox,
	spec: RunSpec,
	items: IDataObject[],
	run: () => Promise<{ failed: number; failedExecutions?: number }>,
	options: { perSecond?: boolean } = {},
): Promise<Measure> {
	await sandbox.reset();
	await sandbox.setRateLimit(spec.rateLimit ?? null);
	await sandbox.setFaults(spec.faults ?? null);
	latencies = [];
	mostInFlight = 0;
	const startEpochMs = performance.timeOrigin + performance.now();
	const t0 = performance.now();
	const { failed, failedExecutions } = await run();
	const seconds = (performance.now() - t0) / 1000;
	const state = await sandbox.state();
	const requests = options.perSecond ? await sandbox.requests() : [];
	await sandbox.setRateLimit(null);
	await sandbox.setFaults(null);
	const names = new Set(state.todos.map((todo) => todo.name));
	const rateLimited = state.counters.responsesByStatus['429'] ?? 0;
	const expected = spec.mayFail ? items.length - failed : items.length;
	const correct =
		state.todos.length === expected && names.size === expected && (spec.mayFail || failed === 0);
	if (!correct) {
		problems.push(
			`${describe(spec)}: ${items.length} items, ${failed} failed, ${state.todos.length} records (${names.size} distinct)`,
		);
	}
	return {
		...spec,
		items: items.length,
		seconds,
		itemsPerSecond: items.length / seconds,
		attempts: state.counters.requestsTotal,
		rateLimitedShare: rateLimited / Math.max(1, state.counters.requestsTotal),
		failedItems: failed,
		records: state.todos.length,
		maxInFlight: mostInFlight,
		medianMs: percentile(latencies, 50),
		p99Ms: percentile(latencies, 99),
		...(options.perSecond
			? {
					perSecond: perSecond(requests, startEpochMs),
					secondsTo95: secondsTo(0.95 * items.length, requests, startEpochMs),
				}
			: {}),
		...(failedExecutions === undefined ? {} : { failedExecutions }),
		correct,
	};
}

export const clientName = (m: RunSpec) => `${m.client}${m.typeVersion ? ` v${m.typeVersion}` : ''}`;

export const fmt = (value: number, digits = 1) =>
	Number.isFinite(value) ? value.toFixed(digits) : '-';

const COLUMNS: [string, (m: Measure) => string][] = [
	['transport', (m) => m.transport],
	['rtt', (m) => `${m.rttMs} ms`],
	['client', clientName],
	['concurrency', (m) => String(m.concurrency)],
	['limit R/s', (m) => (m.rateLimit ? String(m.rateLimit.ratePerSecond) : '-')],
	['items', (m) => String(m.items)],
	['items/s', (m) => fmt(m.itemsPerSecond)],
	['total s', (m) => fmt(m.seconds, 2)],
	['attempts', (m) => String(m.attempts)],
	['429 %', (m) => fmt(m.rateLimitedShare * 100)],
	['failed', (m) => String(m.failedItems)],
	['records', (m) => String(m.records)],
	['max in flight', (m) => String(m.maxInFlight)],
	['median ms', (m) => fmt(m.medianMs)],
	['p99 ms', (m) => fmt(m.p99Ms)],
	['ok', (m) => (m.correct ? 'yes' : 'NO')],
];

/** A Markdown table of runs (the README pastes it as is). */
export function table(measures: Measure[]): string {
	const rows = measures.map((m) => COLUMNS.map(([, cell]) => cell(m)));
	const widths = COLUMNS.map(([title], i) =>
		Math.max(title.length, ...rows.map((row) => row[i].length)),
	);
	const line = (cells: string[]) =>
		`| ${cells.map((cell, i) => (i < 4 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join(' | ')} |`;
	return [
		line(COLUMNS.map(([title]) => title)),
		`| ${widths.map((w, i) => (i < 4 ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`,
		...rows.map(line),
	].join('\n');
}

/** Items/s per client and network (rows) and concurrency (columns): the matrix at a glance. */
export function itemsPerSecondPivot(measures: Measure[]): string {
	const concurrencies = [...new Set(measures.map((m) => String(m.concurrency)))];
	const rows = new Map<string, Map<string, number>>();
	for (const m of measures) {
		const row = `| ${m.transport} | ${m.rttMs} ms | ${clientName(m)} |`;
		if (!rows.has(row)) rows.set(row, new Map());
		rows.get(row)?.set(String(m.concurrency), m.itemsPerSecond);
	}
	return [
		`| transport | rtt | client | ${concurrencies.join(' | ')} |`,
		`| --- | --- | --- | ${concurrencies.map(() => '---:').join(' | ')} |`,
		...[...rows].map(
			([row, cells]) =>
				`${row} ${concurrencies.map((c) => (cells.has(c) ? fmt(cells.get(c) ?? NaN, 0) : '')).join(' | ')} |`,
		),
	].join('\n');
}
