import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import type { IDataObject, INode, IRun, Logger as WorkflowLogger } from 'n8n-workflow';
import { LoggerProxy } from 'n8n-workflow';

import type { LogEntry, SandboxHandle } from '../../sandbox/src';
import {
	INVENTORY_TYPE,
	ITEMS_TYPE,
	withKeyChoice,
	type WorkflowDefinition,
} from '../harness/engine';

/** One branch of a workflow: fixture items feeding one Inventory node. */
export interface Branch {
	/** Name of the Inventory node (its id is derived from it). */
	name: string;
	items: IDataObject[];
	parameters: INode['parameters'];
	node?: Partial<INode>;
}

/**
 * A workflow of independent branches `<name> items -> <name>`. Every branch starts on its own (n8n
 * runs all start nodes of a manual execution), so one execution carries all the operations.
 */
export function branchesWorkflow(
	branches: Branch[],
	settings?: WorkflowDefinition['settings'],
): WorkflowDefinition {
	const nodes: INode[] = [];
	const connections: WorkflowDefinition['connections'] = {};
	branches.forEach((branch, index) => {
		const source = `${branch.name} items`;
		nodes.push({
			id: `items-${index}`,
			name: source,
			type: ITEMS_TYPE,
			typeVersion: 1,
			position: [0, index * 200],
			parameters: { items: JSON.stringify(branch.items) },
		});
		nodes.push({
			id: `inventory-${branch.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
			name: branch.name,
			type: INVENTORY_TYPE,
			typeVersion: 1,
			position: [200, index * 200],
			parameters: withKeyChoice(branch.parameters),
			credentials: { inventoryApi: { id: 'cred-1', name: 'Inventory sandbox' } },
			...branch.node,
		});
		connections[source] = { main: [[{ node: branch.name, type: 'main', index: 0 }]] };
	});
	return { nodes, connections, settings };
}

/** Everything n8n and the node could log or print while a run is going on. */
export interface Capture {
	lines: string[];
	stop(): void;
}

/**
 * Captures n8n's loggers (LoggerProxy, used by the engine; Container's Logger, used by n8n-core's
 * error reporter and a node's `this.logger`) at debug level, console output and raw stdout/stderr
 * writes. The loggers stay captured for the rest of the test file. Console output still goes to the
 * console too, which shows it when the test fails (test/harness/quiet-environment.js); the loggers'
 * lines are in `lines` only.
 */
export function captureOutput(): Capture {
	const lines: string[] = [];
	const record = (level: string) => (message: unknown, meta?: unknown) => {
		lines.push(`${level} ${safeJson(message)} ${safeJson(meta ?? null)}`);
	};
	const logger = {
		error: record('error'),
		warn: record('warn'),
		info: record('info'),
		debug: record('debug'),
		scoped() {
			return logger;
		},
	};
	// Set in this order: resolving n8n's Logger would construct one, which takes over LoggerProxy.
	Container.set(Logger, logger as unknown as Logger);
	LoggerProxy.init(logger as unknown as WorkflowLogger);

	const consoleSpies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((method) => {
		const previous = console[method];
		return jest.spyOn(console, method).mockImplementation((...args: unknown[]) => {
			lines.push(`console.${method} ${args.map(safeJson).join(' ')}`);
			previous(...args);
		});
	});
	const stdout = process.stdout.write.bind(process.stdout);
	const stderr = process.stderr.write.bind(process.stderr);
	process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
		lines.push(`stdout ${String(chunk)}`);
		return (stdout as (...a: unknown[]) => boolean)(chunk, ...rest);
	}) as typeof process.stdout.write;
	process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
		lines.push(`stderr ${String(chunk)}`);
		return (stderr as (...a: unknown[]) => boolean)(chunk, ...rest);
	}) as typeof process.stderr.write;

	return {
		lines,
		stop() {
			consoleSpies.forEach((spy) => spy.mockRestore());
			process.stdout.write = stdout;
			process.stderr.write = stderr;
		},
	};
}

function safeJson(value: unknown): string {
	if (typeof value === 'string') return value;
	if (value instanceof Error)
		return `${value.name}: ${value.message} ${safeJson({ ...value })} ${value.stack ?? ''}`;
	try {
		return JSON.stringify(value, (_key, inner: unknown) =>
			inner instanceof Error
				? { ...inner, name: inner.name, message: inner.message, stack: inner.stack }
				: inner,
		);
	} catch {
		return String(value);
	}
}

/** Sandbox log entries, collected through the sandbox's `log` option. */
export function sandboxLog(): { entries: LogEntry[]; sink: (entry: LogEntry) => void } {
	const entries: LogEntry[] = [];
	return { entries, sink: (entry) => entries.push(entry) };
}

/** The whole run, serialized with errors' own properties (message, description, stack, context, cause). */
export function serializeRun(run: IRun): string {
	const seen = new WeakSet<object>();
	return JSON.stringify(run, (_key, value: unknown) => {
		if (value && typeof value === 'object') {
			if (seen.has(value)) return '[circular]';
			seen.add(value);
			if (value instanceof Error) {
				const own: IDataObject = {};
				for (const name of Object.getOwnPropertyNames(value))
					own[name] = (value as unknown as IDataObject)[name];
				return own;
			}
		}
		return value;
	});
}

/** Where `secret` occurs in `text`, with some context, for a readable failure. */
export function occurrences(text: string, secret: string): string[] {
	const found: string[] = [];
	for (
		let at = text.indexOf(secret);
		at !== -1 && found.length < 5;
		at = text.indexOf(secret, at + 1)
	) {
		found.push(text.slice(Math.max(0, at - 80), at + secret.length + 80));
	}
	return found;
}

export function requestKeys(sandbox: SandboxHandle): Map<string, number> {
	const counts = new Map<string, number>();
	for (const { key } of sandbox.requests()) counts.set(key ?? '', (counts.get(key ?? '') ?? 0) + 1);
	return counts;
}
