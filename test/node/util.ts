import type { IDataObject, INode, IRun } from 'n8n-workflow';

import { startSandbox, type RecordedRequest, type SandboxHandle } from '../../sandbox/src';
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

/** One sandbox per test file, reset before each test, and the node's per-process controllers forgotten. */
export function useSandbox(): { readonly sandbox: SandboxHandle } {
	const holder = {} as { sandbox: SandboxHandle };
	beforeAll(async () => {
		holder.sandbox = await startSandbox({ log: false });
	});
	beforeEach(() => {
		holder.sandbox.reset();
		holder.sandbox.setFaults(null);
		forgetServerControllers();
		deduplicationStore.reset();
	});
	afterAll(async () => await holder.sandbox.close());
	return holder;
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
