/** Runs `work` to its end under jest's fake timers, `stepMs` at a time; resolves to the seconds it took. */
export async function timed(work: Promise<unknown>, stepMs: number): Promise<number> {
	const startedAt = Date.now();
	let done = false;
	void work.then(() => (done = true));
	while (!done) await jest.advanceTimersByTimeAsync(stepMs);
	await work;
	return (Date.now() - startedAt) / 1000;
}
