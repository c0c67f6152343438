import type { IDataObject, INode, IRun } from 'n8n-workflow';

import {
	startSandbox,
	type HeldRequest,
	type LogEntry,
	type RecordedRequest,
	type SandboxHandle,
} from '../../sandbox/src';
import { installAttemptTimeouts, uninstallAttemptTimeouts } from '../harness/attempts';
import {
	deduplicationStore,
	forgetServerControllers,
	inventoryWorkflow,
	runWorkflow,
	type RunOptions,
} from '../harness/engine';
import { TOKENS } from '../fixtures';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const UUID_V5 = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d+Z$/;

export interface TestSandbox {
	readonly sandbox: SandboxHandle;
	/** Called with each entry of the sandbox's log as it is written, for the current test. */
	onLog(listener: (entry: LogEntry) => void): void;
}

/**
 * One sandbox per test file, reset before each test (its faults off, no request held), and the node's
 * per-process controllers forgotten.
 */
export function useSandbox(): TestSandbox {
	const listeners: Array<(entry: LogEntry) => void> = [];
	const holder = {
		onLog(listener: (entry: LogEntry) => void) {
			listeners.push(listener);
		},
	} as { sandbox: SandboxHandle; onLog: TestSandbox['onLog'] };
	beforeAll(async () => {
		holder.sandbox = await startSandbox({
			log: (entry) => listeners.forEach((listener) => listener(entry)),
		});
	});
	beforeEach(() => {
		listeners.length = 0;
		holder.sandbox.holdRequests(null);
		holder.sandbox.reset();
		holder.sandbox.setFaults(null);
		forgetServerControllers();
		deduplicationStore.reset();
	});
	afterAll(async () => await holder.sandbox.close());
	return holder;
}

/** The node's attempts can be timed out by the test in this file (see harness/attempts.ts). */
export function useAttemptTimeouts(): void {
	beforeAll(installAttemptTimeouts);
	afterAll(uninstallAttemptTimeouts);
}

/**
 * The next `count` requests to the sandbox are held at its latency wait (a `latencyMs` fault, set
 * here) until all of them have arrived, then let go together, and the fault is off again: they are
 * in flight at once, whatever the machine's speed.
 */
export function releasedTogether(sandbox: SandboxHandle, count: number): void {
	const holds: HeldRequest[] = [];
	sandbox.setFaults({ latencyMs: 1 });
	sandbox.holdRequests((held) => {
		holds.push(held);
		if (holds.length < count) return;
		sandbox.holdRequests(null);
		sandbox.setFaults(null);
	});
}

/**
 * From now on (this test) each request the sandbox holds (a processing delay, a holdInFlight or
 * slowResponse fault) is handed to `onHold` as the hold begins and stays held until the sandbox has
 * answered another request with the same key: a retry after the node gave up on it (its 409 while
 * the key is in flight, or the replay), or another execution's request. Returns the holds.
 */
export function holdUntilKeyAnsweredAgain(
	env: TestSandbox,
	onHold: (held: HeldRequest) => void = () => {},
): HeldRequest[] {
	const holds: HeldRequest[] = [];
	const waiting = new Map<string | null, HeldRequest[]>();
	env.onLog((entry) => {
		// A held request's own entry is written after its release: an entry of a held key is another request's.
		for (const held of waiting.get(entry.key) ?? []) held.release();
		waiting.delete(entry.key);
	});
	env.sandbox.holdRequests((held) => {
		holds.push(held);
		waiting.set(held.key, [...(waiting.get(held.key) ?? []), held]);
		onHold(held);
	});
	return holds;
}

/** What the API saw: method, path, the headers the node sets, and the body. */
export function sent(
	sandbox: SandboxHandle,
): Array<Pick<RecordedRequest, 'method' | 'path' | 'body'> & { headers: IDataObject }> {
	return sandbox.requests().map(({ method, path, headers, body }) => ({
		method,
		path,
		headers: {
			accept: headers.accept,
			'content-type': headers['content-type'],
			'idempotency-key': headers['idempotency-key'],
		},
		body,
	}));
}

export function keysSent(sandbox: SandboxHandle): string[] {
	return sandbox.requests().map(({ key }) => key ?? '');
}

/**
 * The repeat check of an output item whose request (the `index`th the sandbox got) this run recorded,
 * keyed by the execution (no Key Columns): it names the input item it answers (`item`, by default
 * the request's index).
 */
export function recorded(sandbox: SandboxHandle, index = 0, item = index): IDataObject {
	return { outcome: 'recorded', idempotencyKey: keysSent(sandbox)[index], item };
}

export async function runInventory(
	sandbox: SandboxHandle,
	items: IDataObject[],
	parameters: INode['parameters'],
	extra: Parameters<typeof inventoryWorkflow>[2] & Partial<RunOptions> & { token?: string } = {},
): Promise<IRun> {
	const { token, settings, node, ...runOptions } = extra;
	return await runWorkflow(inventoryWorkflow(items, parameters, { settings, node }), {
		credentials: { baseUrl: sandbox.baseUrl, apiToken: token ?? TOKENS.fullAccess },
		...runOptions,
	});
}

/** The error a failed run ended with. */
export function runError(run: IRun): {
	message: string;
	description?: string | null;
	httpCode?: string | null;
} {
	const error = run.data.resultData.error as
		| { message: string; description?: string | null; httpCode?: string | null }
		| undefined;
	if (!error) throw new Error(`Expected the run to fail, status ${run.status}`);
	return { message: error.message, description: error.description, httpCode: error.httpCode };
}
