/** Memory: items through the node (concurrency 10, plain, no proxy), heap sampled while it runs. */
import { runNode, intake } from './clients';
import { fmt } from './measure';
import type { Sandbox } from './sandbox';

export interface MemoryFigures {
	items: number;
	baselineHeapMb: number;
	peakHeapMb: number;
	peakRssMb: number;
	retainedHeapMb: number;
	outputMb: number;
	inputMb: number;
}

const mb = (bytes: number) => bytes / 1024 / 1024;

export async function memoryRun(sandbox: Sandbox, count: number): Promise<MemoryFigures> {
	await sandbox.reset();
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
	const { output } = await runNode(sandbox, items, { concurrency: 10 });
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

export function memoryTable(runs: MemoryFigures[]): string {
	const lines = [
		"memory (node in n8n's engine, concurrency 10, heap sampled every 5 ms)",
		'items    baseline heap MB   peak heap MB   peak growth MB   retained after GC MB   peak RSS MB   input JSON MB   output JSON MB',
	];
	for (const m of runs) {
		const growth = m.peakHeapMb - m.baselineHeapMb;
		lines.push(
			`${String(m.items).padEnd(7)}  ${fmt(m.baselineHeapMb).padStart(16)}  ${fmt(m.peakHeapMb).padStart(13)}  ${fmt(growth).padStart(15)}  ${fmt(m.retainedHeapMb).padStart(21)}  ${fmt(m.peakRssMb).padStart(12)}  ${fmt(m.inputMb, 2).padStart(14)}  ${fmt(m.outputMb, 2).padStart(15)}`,
		);
	}
	const [small, large] = runs;
	if (small && large) {
		const perItem = (m: MemoryFigures) => ((m.peakHeapMb - m.baselineHeapMb) * 1024) / m.items;
		const extra = large.items - small.items;
		lines.push(
			`peak growth per item: ${fmt(perItem(small), 2)} KB at ${small.items} items, ${fmt(perItem(large), 2)} KB at ${large.items} items; marginal ${fmt(((large.peakHeapMb - small.peakHeapMb) * 1024) / extra, 2)} KB per extra item (retained: ${fmt(((large.retainedHeapMb - small.retainedHeapMb) * 1024) / extra, 2)} KB); output JSON per item ${fmt((large.outputMb * 1024) / large.items, 2)} KB`,
		);
	}
	return lines.join('\n');
}
