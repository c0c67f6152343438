/** Runs `work` for indices 0..count-1 with at most `limit` at once; starts no new one once `stop()` says so. */
export async function runPool(
	count: number,
	limit: number,
	work: (index: number) => Promise<void>,
	stop: () => boolean,
): Promise<void> {
	let next = 0;
	const worker = async () => {
		while (next < count && !stop()) {
			const index = next++;
			await work(index);
		}
	};
	await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
}
