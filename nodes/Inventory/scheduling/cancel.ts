import { sleep } from 'n8n-workflow';

/** What a wait ends with when n8n cancels the execution (Stop in the editor, a timeout, shutdown). */
export class ExecutionStopped extends Error {
	constructor() {
		super('The execution was stopped');
		this.name = 'ExecutionStopped';
	}
}

/** Throws ExecutionStopped once the execution is cancelled. */
export function throwIfStopped(signal: AbortSignal | undefined): void {
	if (signal?.aborted) throw new ExecutionStopped();
}

/**
 * Resolves when the execution is cancelled; `off` removes the listener (call it when the wait ends
 * otherwise, so that a long run does not pile up listeners on the execution's signal).
 */
export function whenStopped(signal: AbortSignal | undefined): {
	stopped: Promise<void>;
	off: () => void;
} {
	if (!signal) return { stopped: new Promise<void>(() => {}), off: () => {} };
	let onAbort = () => {};
	const stopped = new Promise<void>((resolve) => {
		onAbort = () => resolve();
		if (signal.aborted) resolve();
		else signal.addEventListener('abort', onAbort, { once: true });
	});
	return { stopped, off: () => signal.removeEventListener('abort', onAbort) };
}

/**
 * Waits `ms`, or rejects with ExecutionStopped as soon as the execution is cancelled. n8n-workflow 2.x's
 * `sleep(ms, signal)` clears its timer on the abort; 1.x's `sleep(ms)` ignores the signal and lets its
 * timer run out unheeded, yet the wait itself ends at once there too (the race below).
 */
export async function waitUnlessStopped(
	ms: number,
	signal: AbortSignal | undefined,
): Promise<void> {
	throwIfStopped(signal);
	if (!signal) return await sleep(ms);
	const { stopped, off } = whenStopped(signal);
	try {
		await Promise.race([sleep(ms, signal).catch(() => {}), stopped]);
	} finally {
		off();
	}
	throwIfStopped(signal);
}
