/**
 * The node's attempts timed out when a test says so, not by the clock. The node bounds each attempt
 * with its Timeout option, a timer it sets as the attempt starts. A test that gives the node a Timeout
 * of UNREACHED_TIMEOUT_MS (no answer in a test comes anywhere near it, however loaded the machine) and
 * calls `timeOutAttempt(key)` makes the attempt in flight with that Idempotency-Key end as that timer
 * ends it, at once. With the sandbox holding a request until released (`holdRequests`), a fault that
 * must outlast the Timeout (an answer held back, a key held in flight) then outlasts it by
 * construction: the hold is released only after the node's attempt has ended.
 *
 * How the attempt is found: while installed, a timer of exactly UNREACHED_TIMEOUT_MS is an attempt's
 * deadline. It is noted in the async context it is set in, which the attempt's request inherits; when
 * n8n authenticates that request (the credential helper in engine.ts calls `noteAttemptRequest`), its
 * Idempotency-Key is paired with that deadline.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** The Timeout (ms) to give the node in a test whose attempts end by `timeOutAttempt`: ten minutes. */
export const UNREACHED_TIMEOUT_MS = 600_000;

interface Deadline {
	/** Ends the attempt now, as its timer would; false when it had already ended. */
	expire(): boolean;
}

const deadlineInContext = new AsyncLocalStorage<Deadline>();
const deadlineOfKey = new Map<string, Deadline>();
let uninstall: (() => void) | undefined;

/**
 * Notes every timer of UNREACHED_TIMEOUT_MS set from now on (this test file's global `setTimeout`, which
 * the node's code uses too) until `uninstallAttemptTimeouts`. Called in a beforeAll.
 */
export function installAttemptTimeouts(): void {
	if (uninstall) return;
	const realSetTimeout = globalThis.setTimeout;
	const realClearTimeout = globalThis.clearTimeout;
	const pending = new Map<unknown, () => void>();
	const noting = function setTimeout(
		callback: (...args: unknown[]) => void,
		ms?: number,
		...args: unknown[]
	) {
		if (ms !== UNREACHED_TIMEOUT_MS) return realSetTimeout(callback, ms, ...args);
		let over = false;
		const handle = realSetTimeout(() => {
			over = true;
			pending.delete(handle);
			callback(...args);
		}, ms);
		const end = () => {
			over = true;
			pending.delete(handle);
		};
		pending.set(handle, end);
		deadlineInContext.enterWith({
			expire() {
				if (over) return false;
				end();
				realClearTimeout(handle);
				callback(...args);
				return true;
			},
		});
		return handle;
	};
	Object.defineProperties(noting, Object.getOwnPropertyDescriptors(realSetTimeout));
	const clearing = function clearTimeout(handle?: Parameters<typeof realClearTimeout>[0]) {
		pending.get(handle)?.();
		realClearTimeout(handle);
	};
	globalThis.setTimeout = noting as unknown as typeof globalThis.setTimeout;
	globalThis.clearTimeout = clearing as typeof globalThis.clearTimeout;
	uninstall = () => {
		globalThis.setTimeout = realSetTimeout;
		globalThis.clearTimeout = realClearTimeout;
		deadlineOfKey.clear();
		uninstall = undefined;
	};
}

/** Back to the plain timers (an afterAll). */
export function uninstallAttemptTimeouts(): void {
	uninstall?.();
}

/** Called for every request n8n authenticates: pairs its Idempotency-Key with its attempt's deadline. */
export function noteAttemptRequest(headers: Record<string, unknown> | undefined): void {
	if (!uninstall) return;
	const key = headers?.['Idempotency-Key'];
	const deadline = deadlineInContext.getStore();
	if (typeof key === 'string' && deadline) deadlineOfKey.set(key, deadline);
}

/**
 * Ends the node's attempt in flight with this Idempotency-Key (as sent) as its Timeout would: it fails
 * with "no answer came within the timeout", and the node goes on as after a timeout. false when no
 * attempt of that key is in flight with a Timeout of UNREACHED_TIMEOUT_MS.
 */
export function timeOutAttempt(key: string | null): boolean {
	const deadline = key === null ? undefined : deadlineOfKey.get(key);
	return deadline?.expire() ?? false;
}
