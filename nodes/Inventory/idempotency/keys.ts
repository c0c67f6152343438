import type { IExecuteFunctions } from 'n8n-workflow';
import { createHash, randomUUID } from 'node:crypto';

import { keyText } from './keyText';
import { isInProcessToolCall } from './toolMode';

/** This package's UUID v5 namespace. Changing it would change every derived key: never do. */
export const IDEMPOTENCY_NAMESPACE = '7b9099c4-d47a-462c-82f3-435bf23df9b2';

/** Execution custom data key holding the execution whose keys this run reuses. */
export const ROOT_EXECUTION_DATA_KEY = 'inventoryRootExecutionId';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
	return UUID_PATTERN.test(value);
}

/** RFC 9562 UUID version 5 (SHA-1, name-based). */
export function uuidV5(name: string, namespace: string = IDEMPOTENCY_NAMESPACE): string {
	if (!isUuid(namespace)) throw new TypeError(`Invalid UUID namespace: ${namespace}`);
	const namespaceBytes = Buffer.from(namespace.replace(/-/g, ''), 'hex');
	const hash = createHash('sha1').update(namespaceBytes).update(name, 'utf8').digest();
	const bytes = hash.subarray(0, 16);
	bytes[6] = (bytes[6] & 0x0f) | 0x50;
	bytes[8] = (bytes[8] & 0x3f) | 0x80;
	const hex = bytes.toString('hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** What identifies one action of the node in n8n, whatever retries it goes through. */
export interface ActionIdentity {
	instanceId: string;
	workflowId: string;
	rootExecutionId: string;
	nodeId: string;
	runIndex: number;
	itemIndex: number;
}

export function deriveIdempotencyKey(identity: ActionIdentity): string {
	const { instanceId, workflowId, rootExecutionId, nodeId, runIndex, itemIndex } = identity;
	return uuidV5(
		['n8n', instanceId, workflowId, rootExecutionId, nodeId, runIndex, itemIndex].join('\n'),
	);
}

/** JSON with every object's keys in sorted order: the same text whatever order the fields were set in. */
export function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (typeof value === 'object' && value !== null)
		return `{${Object.keys(value)
			.filter((name) => (value as Record<string, unknown>)[name] !== undefined)
			.sort()
			.map(
				(name) =>
					`${JSON.stringify(name)}:${canonicalJson((value as Record<string, unknown>)[name])}`,
			)
			.join(',')}}`;
	return JSON.stringify(value) ?? 'null';
}

/**
 * The key of a tool call that n8n runs in-process with keys of the execution (Only Retries of This
 * Execution): there n8n gives every try of "Retry On Fail" a new run index, so the run index cannot
 * tell a retry from a new call. The call is identified by what it sends within the execution.
 */
export function deriveToolCallKey(
	identity: Omit<ActionIdentity, 'runIndex' | 'itemIndex'>,
	request: { method: string; path: string; body: unknown },
): string {
	const { instanceId, workflowId, rootExecutionId, nodeId } = identity;
	return uuidV5(
		[
			'n8n-tool-call',
			instanceId,
			workflowId,
			rootExecutionId,
			nodeId,
			request.method.toUpperCase(),
			request.path,
			canonicalJson(request.body),
		].join('\n'),
	);
}

/**
 * What one operation's action is, beside its record and its row: what the action is called in
 * messages, and the API body field whose value tells two actions of the operation on one record
 * apart (a to-do's name: "Tag and label" and "Register warranty" for one row are two to-dos). An
 * operation without one (an acquisition, a billing change) does one action per record and row.
 */
export interface ActionKind {
	/** The action with its article, as messages say it: "a to-do", "an acquisition". */
	noun: string;
	/** The body field that tells two actions of this operation on one record apart. */
	distinguishedBy?: string;
}

/** What tells this action apart from others of its operation on its record: the distinguishing field's value as key text. */
export function distinctionOf(kind: ActionKind, body: Record<string, unknown>): string {
	return kind.distinguishedBy === undefined ? '' : keyText(body[kind.distinguishedBy]);
}

/** What a row's key is made of besides the row, as the form's hints and the messages say it (rowActionKey). */
export const ROW_KEY_PARTS = "the operation, the record and a to-do's name";

/**
 * The rule of one action: **one operation on one record for one row, and what tells two actions of
 * that operation on one record apart (a to-do's name)**. The row is its business id (Key Columns'
 * values or the Row Key). Nothing cosmetic takes part: not the node's name (n8n names every new node
 * after its action, and people rename nodes), not the workflow (a copy, or another workflow booking
 * the same rows, is the same action), not the execution. Another operation, record, to-do or row is
 * another action, whatever the id's shape (a UUID too). These keys must never change once released.
 */
export function rowActionKey(
	rowId: string,
	request: { method: string; path: string; distinction: string },
): string {
	return uuidV5(
		['action', request.method.toUpperCase(), request.path, request.distinction, rowId].join('\n'),
	);
}

/**
 * An agent's or MCP client's call keyed by its arguments (the tool's default): the same request
 * (method, path and body, its fields in any order) is one action, from any tool node, in any
 * execution, so a client's retry and an identical call again replay.
 */
export function callActionKey(request: { method: string; path: string; body: unknown }): string {
	return uuidV5(
		['call', request.method.toUpperCase(), request.path, canonicalJson(request.body)].join('\n'),
	);
}

/**
 * What one item's key is made of: its row's identity (with the values it was read from, by column,
 * and those words for messages), its call's arguments, or its execution (a row without identity).
 */
export type KeyBasis =
	| { kind: 'row'; rowId: string; row: RowIdentity }
	| { kind: 'call' }
	| { kind: 'execution' };

/** A row's identity as the user wrote it: the key values by column (or Row Key), and those in words. */
export interface RowIdentity {
	/** The values the key is made of, as the row holds them, by Key Column (`rowKey` for a Row Key). */
	keyValues: Record<string, unknown>;
	/** The row named by them in messages: `po_number PO-1009`, `Row Key SUB-7`. */
	name: string;
}

/** The Idempotency-Key of one item's request. */
export function chooseIdempotencyKey(
	basis: KeyBasis,
	action: ItemIdentity,
	request: { method: string; path: string; body: Record<string, unknown> },
	kind: ActionKind,
): string {
	switch (basis.kind) {
		case 'row':
			return rowActionKey(basis.rowId, {
				...request,
				distinction: distinctionOf(kind, request.body),
			});
		case 'call':
			return callActionKey(request);
		case 'execution':
			return action.inProcessToolCall
				? deriveToolCallKey(action, request)
				: deriveIdempotencyKey(action);
	}
}

/** One item's identity, and whether n8n runs it as an in-process tool call (see deriveToolCallKey). */
export interface ItemIdentity extends ActionIdentity {
	inProcessToolCall: boolean;
}

interface ExecutionCustomData {
	get(key: string): string | undefined;
	set(key: string, value: string): void;
}

/**
 * The execution a retried execution retries, or undefined. n8n offers nodes no interface for it: in
 * n8n 2.x the execution's lifecycle hooks, in the context's `additionalData`, carry it as `retryOf`
 * (the id of the execution retried, set for mode "retry" only, in regular mode and on queue workers).
 * This is an internal value, so it is read defensively: anything missing or of another shape (n8n
 * 1.x, whose hooks do not hold it, or a future n8n that moves it) gives undefined, and the node keys
 * the retry as it did before. The e2e suite's regular-mode crash check fails if n8n moves it.
 */
function retriedExecutionId(context: IExecuteFunctions): string | undefined {
	if (context.getMode() !== 'retry') return undefined;
	const { additionalData } = context as unknown as { additionalData?: unknown };
	if (typeof additionalData !== 'object' || additionalData === null) return undefined;
	const { hooks } = additionalData as { hooks?: unknown };
	if (typeof hooks !== 'object' || hooks === null) return undefined;
	const { retryOf } = hooks as { retryOf?: unknown };
	return typeof retryOf === 'string' && retryOf !== '' ? retryOf : undefined;
}

/**
 * The execution whose keys this run uses, recorded in the execution's custom data so that later
 * retries find it. The first execution uses its own id. n8n's "Retry execution" runs the stored data
 * of the execution it retries, custom data included, so a retry finds the root there when the
 * original saved it; an original killed while the node ran never saved it, and then the execution
 * being retried is the root: its keys are the ones it used.
 */
function resolveRootExecutionId(
	customData: ExecutionCustomData | undefined,
	currentExecutionId: string | undefined,
	retryOf: string | undefined,
): { root: string; retriesKilledExecution: boolean } {
	const recorded = customData?.get(ROOT_EXECUTION_DATA_KEY);
	if (typeof recorded === 'string' && recorded !== '')
		return { root: recorded, retriesKilledExecution: false };
	const root =
		retryOf ??
		(currentExecutionId && currentExecutionId !== '' ? currentExecutionId : randomUUID());
	customData?.set(ROOT_EXECUTION_DATA_KEY, root);
	return { root, retriesKilledExecution: retryOf !== undefined };
}

/** The identity of this run of the node, shared by its items (each adds its item index). */
export interface RunIdentity extends Omit<ItemIdentity, 'itemIndex'> {
	/**
	 * This run retries an execution that was killed before it recorded its root: what that execution
	 * sent may have been answered without n8n keeping a trace of it.
	 */
	retriesKilledExecution: boolean;
}

export function runIdentity(context: IExecuteFunctions): RunIdentity {
	const proxy = context.getWorkflowDataProxy(0);
	const { root, retriesKilledExecution } = resolveRootExecutionId(
		proxy.$execution?.customData,
		context.getExecutionId(),
		retriedExecutionId(context),
	);
	return {
		inProcessToolCall: isInProcessToolCall(context),
		instanceId: context.getInstanceId(),
		workflowId: String(context.getWorkflow().id ?? ''),
		rootExecutionId: root,
		nodeId: context.getNode().id,
		runIndex: Number(proxy.$runIndex ?? 0),
		retriesKilledExecution,
	};
}
