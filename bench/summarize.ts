/**
 * Min / median / max of several `npm run bench` runs, from their JSON figures:
 *   node build/bench/summarize.js [files...]   (default: every bench/results/*.json)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { packageRoot } from '../test/harness/engine';
import { clientName, type Measure } from './measure';
import type { MemoryFigures } from './memory';

interface Figures {
	at: string;
	summary: {
		memory?: MemoryFigures[];
		targets?: { target: string; figure: string; met: boolean }[];
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
// Figures of the bench before the network matrix (no `scenario`) are left out.
const runs = files
	.map((file) => JSON.parse(readFileSync(file, 'utf8')) as Figures)
	.filter((run) => run.results.every((m) => m.scenario !== undefined));
if (runs.length === 0) throw new Error('No bench figures: run `npm run bench` first');

const key = (m: Measure) =>
	[
		m.scenario,
		m.transport,
		`${m.rttMs} ms`,
		clientName(m),
		String(m.concurrency),
		m.rateLimit ? String(m.rateLimit.ratePerSecond) : '-',
	].join(' | ');

const groups = new Map<string, Measure[]>();
for (const m of runs.flatMap((run) => run.results))
	groups.set(key(m), [...(groups.get(key(m)) ?? []), m]);

const lines = [`${runs.length} runs (${runs.map((r) => r.at).join(', ')}); min / median / max`, ''];
lines.push(
	'| scenario | transport | rtt | client | concurrency | limit R/s | items/s | 429 % | max in flight | failed |',
);
lines.push('|---|---|---|---|---|---|---|---|---|---|');
for (const [name, same] of groups) {
	lines.push(
		`| ${name} | ${spread(
			same.map((m) => m.itemsPerSecond),
			1,
		)} | ${spread(
			same.map((m) => m.rateLimitedShare * 100),
			1,
		)} | ${spread(
			same.map((m) => m.maxInFlight),
			0,
		)} | ${spread(
			same.map((m) => m.failedItems),
			0,
		)} |`,
	);
}
lines.push('');
lines.push('| target | figures (one per run) | met |');
lines.push('|---|---|---|');
const targets = new Map<string, { figure: string; met: boolean }[]>();
for (const t of runs.flatMap((run) => run.summary.targets ?? [])) {
	targets.set(t.target, [...(targets.get(t.target) ?? []), t]);
}
for (const [target, same] of targets) {
	lines.push(
		`| ${target} | ${same.map((t) => t.figure).join('; ')} | ${same.filter((t) => t.met).length} of ${same.length} |`,
	);
}
const memories = runs.flatMap((r) => r.summary.memory ?? []);
if (memories.length > 0) {
	lines.push('');
	lines.push('| items | peak heap growth MB | retained after GC MB | output JSON MB |');
	lines.push('|---|---|---|---|');
	for (const items of [...new Set(memories.map((m) => m.items))]) {
		const same = memories.filter((m) => m.items === items);
		lines.push(
			`| ${items} | ${spread(
				same.map((m) => m.peakHeapMb - m.baselineHeapMb),
				1,
			)} | ${spread(
				same.map((m) => m.retainedHeapMb),
				1,
			)} | ${spread(
				same.map((m) => m.outputMb),
				2,
			)} |`,
		);
	}
}
process.stdout.write(`${lines.join('\n')}\n`);
