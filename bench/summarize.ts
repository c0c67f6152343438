/**
 * Min / median / max of several `npm run bench` runs, from their JSON figures:
 *   node build/bench/summarize.js [files...]   (default: every bench/results/*.json)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { packageRoot } from '../tools/n8n/engine';

interface Measure {
	client: string;
	concurrency: number;
	latencyMs: number;
	itemsPerSecond: number;
	seconds: number;
	medianMs: number;
	p99Ms: number;
}

interface Memory {
	items: number;
	baselineHeapMb: number;
	peakHeapMb: number;
	retainedHeapMb: number;
	peakRssMb: number;
	outputMb: number;
}

interface Figures {
	at: string;
	summary: {
		overheadRatioC1?: number;
		overheadRatioC1NewConnection?: number;
		overheadRatioC1At20ms?: number;
		speedupC10At20ms?: number;
		memory?: Memory[];
	};
	results: Measure[];
}

function spread(values: number[], digits: number): string {
	const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
	if (sorted.length === 0) return '-';
	const median =
		sorted.length % 2
			? sorted[(sorted.length - 1) / 2]
			: (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
	return `${sorted[0].toFixed(digits)} / ${median.toFixed(digits)} / ${sorted[sorted.length - 1].toFixed(digits)}`;
}

const dir = join(packageRoot(), 'bench', 'results');
const files = process.argv.slice(2).length
	? process.argv.slice(2)
	: readdirSync(dir)
			.filter((name) => name.endsWith('.json'))
			.sort()
			.map((name) => join(dir, name));
const runs = files.map((file) => JSON.parse(readFileSync(file, 'utf8')) as Figures);
if (runs.length === 0) throw new Error('No bench figures: run `npm run bench` first');

const lines = [`${runs.length} runs (${runs.map((r) => r.at).join(', ')}); min / median / max`, ''];
lines.push(
	'| client | concurrency | added latency | items/s | request median ms | request p99 ms |',
);
lines.push('|---|---|---|---|---|---|');
for (const { client, concurrency, latencyMs } of runs[0].results) {
	const same = runs.flatMap((r) =>
		r.results.filter(
			(m) => m.client === client && m.concurrency === concurrency && m.latencyMs === latencyMs,
		),
	);
	lines.push(
		`| ${client} | ${concurrency} | ${latencyMs} ms | ${spread(
			same.map((m) => m.itemsPerSecond),
			0,
		)} | ${spread(
			same.map((m) => m.medianMs),
			2,
		)} | ${spread(
			same.map((m) => m.p99Ms),
			1,
		)} |`,
	);
}
lines.push('');
const summary = (name: keyof Figures['summary']) =>
	runs
		.map((r) => r.summary[name] as number | undefined)
		.filter((v): v is number => v !== undefined);
lines.push(`| figure | min / median / max | target |`);
lines.push('|---|---|---|');
lines.push(
	`| node/raw time, concurrency 1, 0 ms | ${spread(summary('overheadRatioC1'), 2)} | <= 1.15 |`,
);
lines.push(
	`| node/raw time, concurrency 1, 0 ms, raw opening a connection per request | ${spread(summary('overheadRatioC1NewConnection'), 2)} | |`,
);
lines.push(
	`| node/raw time, concurrency 1, 20 ms | ${spread(summary('overheadRatioC1At20ms'), 2)} | <= 1.15 |`,
);
lines.push(
	`| speed-up, concurrency 10 over 1, 20 ms | ${spread(summary('speedupC10At20ms'), 1)}x | >= 8x |`,
);
const memories = runs.flatMap((r) => r.summary.memory ?? []);
for (const items of [...new Set(memories.map((m) => m.items))]) {
	const same = memories.filter((m) => m.items === items);
	lines.push(
		`| ${items} items: peak heap growth MB / retained after GC MB / output JSON MB | ${spread(
			same.map((m) => m.peakHeapMb - m.baselineHeapMb),
			1,
		)} / ${spread(
			same.map((m) => m.retainedHeapMb),
			1,
		)} / ${spread(
			same.map((m) => m.outputMb),
			2,
		)} | |`,
	);
}
process.stdout.write(`${lines.join('\n')}\n`);
