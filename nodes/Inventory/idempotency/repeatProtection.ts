import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	NodeApiError,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { savedParameter, type ItemInput } from '../values/itemInput';
import { keyOfValues, keyText, withoutEdges, type KeyBasis, type RunIdentity } from './keys';
import { describeValue, showText } from '../values/checks';

/**
 * What counts as the same action (the form's "Repeat Protection"): each row once across executions,
 * keyed by input columns or by an expression; or the retries of this execution only (the tool
 * variant's default).
 */
export type RepeatProtection = 'columns' | 'expression' | 'execution';

/** The output field that says whether a row was recorded now or replayed. camelCase: the API's fields are snake_case. */
export const REPEAT_CHECK_FIELD = 'repeatCheck';

/** How many answered keys n8n's deduplication store keeps per node (n8n's Remove Duplicates default). */
export const ANSWERED_KEYS_KEPT = 10_000;

/** Answered keys go to the store in batches of this size while a run is sending, the rest at its end. */
const RECORD_EVERY = 50;

export interface RepeatCheck {
	/** `recorded`: this execution recorded it; `replayed`: recorded before, the API replayed it. */
	outcome: 'recorded' | 'replayed' | 'unknown';
	idempotencyKey: string;
	/** Why the node cannot tell, or which row of this run it repeats. */
	note?: string;
}

// ---------------------------------------------------------------------------------------------
// The key's source: a setting read once per run
// ---------------------------------------------------------------------------------------------

const EXPRESSION_TEXT = /\{\{[\s\S]*\}\}/;

/** `{{ $json.po_number }}` → `po_number`, for a message that says what to write instead. */
function columnOfExpression(text: string): string | undefined {
	return /^\s*\{\{\s*\$json(?:\.([A-Za-z_$][\w$]*)|\[\s*['"]([^'"]+)['"]\s*\])\s*\}\}\s*$/
		.exec(text)
		?.slice(1)
		.find(Boolean);
}

/**
 * A key field whose saved value is fixed text holding `{{ … }}`: n8n's editor keeps text typed into a
 * field in Fixed mode as it is, so every row would send the same key. Refused before anything is sent.
 */
function refuseExpressionAsText(
	context: IExecuteFunctions,
	path: string,
	label: string,
	takesColumnNames: boolean,
): void {
	const raw = savedParameter(context, path);
	if (typeof raw !== 'string' || raw.startsWith('=') || !EXPRESSION_TEXT.test(raw)) return;
	const column = columnOfExpression(raw);
	const fix = takesColumnNames
		? `${label} takes the names of input columns, not an expression: write ${column ?? 'the column name'} there (or drag the column from the input panel onto the field).`
		: `Switch the field to Expression: point at it, choose "Expression" above it, and keep ${raw.trim()} (or drag the column from the input panel onto the field, which makes an expression).`;
	throw new NodeOperationError(
		context.getNode(),
		`${label} holds the expression ${raw.trim()} as fixed text, so every row would send the same key`,
		{
			description: `${fix} Nothing was sent to the Inventory API.`,
		},
	);
}

/** Where this run's keys come from. */
export interface KeySource {
	/**
	 * `columns`: the row's Key Columns (none named: the step acts once per record); `expression`: the
	 * Row Key; `call`: a tool call's arguments (the tool variant's "Keyed by Its Arguments");
	 * `execution`: the execution, node, run and item.
	 */
	basis: 'columns' | 'expression' | 'call' | 'execution';
	/** The columns of "Each Row Once, Keyed by Columns". */
	columns: string[];
	/** For a key column missing from the input: the earlier node found to have it, or null (asked once per run). */
	earlierNodeOf?: Map<string, string | null>;
}

/** Reads the node's choice once per run; refuses an expression typed as fixed text. */
export function readKeySource(context: IExecuteFunctions, isTool: boolean): KeySource {
	const protection = context.getNodeParameter('repeatProtection', 0, 'columns') as RepeatProtection;
	if (protection === 'columns') {
		// A tool call has no input row: its arguments are its columns.
		if (isTool) return { basis: 'call', columns: [] };
		refuseExpressionAsText(context, 'keyColumns', 'Key Columns', true);
		const columns = String(context.getNodeParameter('keyColumns', 0, '') ?? '')
			.split(',')
			.map(withoutEdges)
			.filter((name) => name !== '');
		return { basis: 'columns', columns };
	}
	if (protection === 'expression') refuseExpressionAsText(context, 'rowKey', 'Row Key', false);
	else if (protection !== 'execution')
		throw new NodeOperationError(
			context.getNode(),
			`The Repeat Protection "${String(protection)}" is not supported`,
		);
	return { basis: protection, columns: [] };
}

type Lookup =
	| { found: true; value: unknown }
	| { found: false; ambiguous?: string[]; similar?: string };

/** Spelled alike: letter case, and spaces, underscores and hyphens between words aside. */
const alike = (name: string) =>
	withoutEdges(name)
		.toLowerCase()
		.replace(/[\s_-]+/g, '');

/**
 * A field of an object by its name: the field of exactly that name, else the one whose name is that
 * name with white space or invisible characters around it (a CSV saved by Excel as "CSV UTF-8" starts
 * with a byte order mark, so its first column is "\uFEFFpo_number").
 */
function field(object: IDataObject, name: string): Lookup {
	if (Object.hasOwn(object, name)) return { found: true, value: object[name] };
	const names = Object.keys(object);
	const matches = names.filter((key) => withoutEdges(key) === name);
	if (matches.length === 1) return { found: true, value: object[matches[0]] };
	if (matches.length > 1) return { found: false, ambiguous: matches };
	return { found: false, similar: names.find((key) => alike(key) === alike(name)) };
}

/** A key column's value in a row; a name with dots reaches into an object unless the row has a column of that name. */
function columnValue(json: IDataObject, column: string): Lookup {
	const whole = field(json, column);
	if (whole.found || !column.includes('.')) return whole;
	let value: unknown = json;
	for (const name of column.split('.')) {
		if (typeof value !== 'object' || value === null || Array.isArray(value)) return whole;
		const step = field(value as IDataObject, name);
		if (!step.found) return whole;
		value = step.value;
	}
	return { found: true, value };
}

/** A column name in a message: quoted, invisible characters escaped. */
const quoted = (name: string) => `"${showText(name)}"`;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `$('Read Sheet').item.json.po_number`: the expression that reads a column of an earlier node's paired item. */
function earlierNodeExpression(node: string, column: string): string {
	const literal = (text: string) =>
		`'${showText(text.replace(/\\/g, '\\\\').replace(/'/g, "\\'"))}'`;
	const path = column.split('.').every((name) => IDENTIFIER.test(name))
		? `.${column}`
		: `[${literal(column)}]`;
	return `{{ $(${literal(node)}).item.json${path} }}`;
}

/**
 * The earlier node (not the direct input) whose item paired with this row has the column, asked once
 * per run and column; null when none has it or n8n cannot tell.
 */
function earlierNodeWith(
	context: IExecuteFunctions,
	source: KeySource,
	itemIndex: number,
	column: string,
): string | null {
	source.earlierNodeOf ??= new Map();
	const known = source.earlierNodeOf.get(column);
	if (known !== undefined) return known;
	let found: string | null = null;
	try {
		const proxy = context.getWorkflowDataProxy(itemIndex);
		for (const { name } of context.getParentNodes(context.getNode().name)) {
			try {
				const node = (proxy.$ as (name: string) => { isExecuted?: boolean; item?: unknown })(name);
				if (!node.isExecuted) continue;
				const json = (node.item as INodeExecutionData | undefined)?.json;
				if (json && columnValue(json, column).found) {
					found = name;
					break;
				}
			} catch {
				// n8n cannot pair this row with an item of that node: it is not the one.
			}
		}
	} catch {
		found = null;
	}
	source.earlierNodeOf.set(column, found);
	return found;
}

const LISTED_COLUMNS = 5;

/** Why a key column is not in the row, and the fix that works: the column's spelling, or a Row Key. */
function missingColumn(
	context: IExecuteFunctions,
	source: KeySource,
	itemIndex: number,
	json: IDataObject,
	column: string,
	lookup: Lookup & { found: false },
): string {
	if (lookup.ambiguous)
		return `matches several columns of this row: ${lookup.ambiguous.map(quoted).join(', ')}. Rename one of them in an earlier node, or key the row by an expression (Repeat Protection "Each Row Once, Keyed by an Expression")`;
	if (lookup.similar !== undefined)
		return `is missing from this row, which has the column ${quoted(lookup.similar)}: write ${showText(withoutEdges(lookup.similar))} in Key Columns, as the column is spelled`;
	const names = Object.keys(json);
	const columns =
		names.length === 0
			? 'this row has no columns'
			: `this row's columns are ${names.slice(0, LISTED_COLUMNS).map(quoted).join(', ')}${names.length > LISTED_COLUMNS ? ` and ${names.length - LISTED_COLUMNS} more` : ''}`;
	const earlier = earlierNodeWith(context, source, itemIndex, column);
	const rowKey = `choose Repeat Protection "Each Row Once, Keyed by an Expression" and set Row Key to ${earlierNodeExpression(earlier ?? 'Node name', column)}`;
	if (earlier !== null)
		return `is missing from this row: it is a column of the earlier node ${quoted(earlier)}, and Key Columns names columns of this node's input (${columns}). To key by it, ${rowKey}`;
	return `is missing from this row (${columns}): Key Columns names columns of this node's input. For a column of an earlier node, ${rowKey} with the name of the node that has it`;
}

/**
 * What one item's key is made of. A row's identity is the text its key is made of (keyText,
 * keyOfValues), the same whichever tool read the row: one column gives its value as text (as a Row
 * Key of that value would); several give the JSON list of their values as text (["1001","2"]); no
 * column named gives the empty text (the step acts once per record).
 */
export function keyBasisOf(
	source: KeySource,
	input: ItemInput,
	context: IExecuteFunctions,
	item: INodeExecutionData,
): KeyBasis {
	if (source.basis === 'execution' || source.basis === 'call') return { kind: source.basis };
	if (source.basis === 'expression') {
		const value = context.getNodeParameter('rowKey', input.itemIndex, '');
		const rowId = keyText(value);
		if (rowId === '')
			input.fail(
				{ label: 'Row Key', parameter: 'rowKey' },
				`is empty for this row${typeof value === 'string' && value !== '' ? ` (${describeValue(value)})` : ''}: the row has nothing to be keyed by`,
			);
		return { kind: 'row', rowId };
	}
	if (source.columns.length === 0) return { kind: 'row', rowId: '' };
	const values = source.columns.map((column) => {
		const subject = { label: `Key column ${quoted(column)}`, parameter: 'keyColumns' };
		const lookup = columnValue(item.json, column);
		if (!lookup.found)
			input.fail(
				subject,
				missingColumn(context, source, input.itemIndex, item.json, column, lookup),
			);
		const { value } = lookup;
		if (keyText(value) === '')
			input.fail(
				subject,
				typeof value === 'string' && value !== ''
					? `is blank in this row: ${describeValue(value)}`
					: 'is empty in this row',
			);
		return value;
	});
	return { kind: 'row', rowId: keyOfValues(values) };
}

// ---------------------------------------------------------------------------------------------
// What the node knows of an answer: n8n's deduplication store
// ---------------------------------------------------------------------------------------------

const NOT_TOLD = 'the API does not say whether it replayed a request.';

/** Store calls of one node in this process go one after another: n8n's store reads and writes a whole list. */
const storeQueues = new Map<string, Promise<unknown>>();

function oneAtATime<T>(queue: string, task: () => Promise<T>): Promise<T> {
	const next = (storeQueues.get(queue) ?? Promise.resolve()).then(task, task);
	const tail = next.then(
		() => undefined,
		() => undefined,
	);
	storeQueues.set(queue, tail);
	void tail.then(() => {
		if (storeQueues.get(queue) === tail) storeQueues.delete(queue);
	});
	return next;
}

/**
 * Remembers, in n8n's deduplication store (n8n's database, shared by executions and queue workers,
 * scope "node"), the Idempotency-Keys the API answered with success. A key found there had been
 * answered before: the API replayed it. A key not found was recorded by this execution, unless the
 * node cannot tell (no store, the store failed, it has forgotten older keys, or an earlier try was
 * killed before it could record its answers): then the outcome is "unknown", with the reason.
 */
export class AnswerBook {
	private readonly outcomes = new Map<number, Omit<RepeatCheck, 'idempotencyKey'>>();
	private readonly firstItemOfKey = new Map<string, number>();
	private pending: Array<{ itemIndex: number; key: string }> = [];
	private recording: Promise<void> = Promise.resolve();
	/** Whether the store had reached its size when this run first read it (then it forgets keys). */
	private full: boolean | undefined;
	/** Why nothing can be told (no store), or why a key not found may still have been answered before. */
	private readonly noStore: string | undefined;
	private readonly killedTry: string | undefined;

	constructor(
		private readonly context: IExecuteFunctions,
		identity: RunIdentity,
	) {
		const { helpers } = context;
		if (
			typeof helpers.checkProcessedAndRecord !== 'function' ||
			typeof helpers.getProcessedDataCount !== 'function'
		)
			this.noStore = `This n8n has no deduplication store to remember answered keys, and ${NOT_TOLD}`;
		if (identity.retriesKilledExecution)
			this.killedTry = `This execution retries one that was stopped while this node ran, before it could record its answers, and ${NOT_TOLD}`;
		this.queue = `${identity.workflowId}\n${identity.nodeId}`;
	}

	private readonly queue: string;

	/** One item's request was answered with success. */
	answered(itemIndex: number, key: string): void {
		const first = this.firstItemOfKey.get(key);
		if (first !== undefined) {
			this.outcomes.set(itemIndex, {
				outcome: 'replayed',
				note: `Item ${first} of this run has the same key; the API replayed its result.`,
			});
			return;
		}
		this.firstItemOfKey.set(key, itemIndex);
		this.pending.push({ itemIndex, key });
		if (this.pending.length >= RECORD_EVERY) this.record();
	}

	/** Records what is pending and waits until every answer is recorded; notes replays in n8n's output panel. */
	async settle(): Promise<void> {
		this.record();
		await this.recording;
		const { recorded, replayed, unknown } = this.counts();
		if (replayed + unknown === 0 || typeof this.context.addExecutionHints !== 'function') return;
		const parts = [
			replayed &&
				`${replayed} ${replayed === 1 ? 'row was' : 'rows were'} recorded before and replayed: nothing was booked again for ${replayed === 1 ? 'it' : 'them'}`,
			recorded && `${recorded} recorded now`,
			unknown && `${unknown} not known whether new or replayed (see repeatCheck.note)`,
		].filter(Boolean);
		this.context.addExecutionHints({ message: `${parts.join('; ')}.`, location: 'outputPane' });
	}

	/** The repeat check of an answered item. */
	check(itemIndex: number, key: string): RepeatCheck {
		const known = this.outcomes.get(itemIndex) ?? {
			outcome: 'unknown',
			note: `The answer was not recorded, and ${NOT_TOLD}`,
		};
		return {
			outcome: known.outcome,
			idempotencyKey: key,
			...(known.note ? { note: known.note } : {}),
		};
	}

	/** How many answered items were recorded now, replayed, or cannot be told. */
	counts(): Record<RepeatCheck['outcome'], number> {
		const counts = { recorded: 0, replayed: 0, unknown: 0 };
		for (const { outcome } of this.outcomes.values()) counts[outcome]++;
		return counts;
	}

	private record(): void {
		const batch = this.pending;
		this.pending = [];
		if (batch.length === 0) return;
		this.recording = this.recording.then(
			async () => await oneAtATime(this.queue, async () => await this.recordBatch(batch)),
		);
	}

	private async recordBatch(batch: Array<{ itemIndex: number; key: string }>): Promise<void> {
		if (this.noStore !== undefined) {
			for (const { itemIndex } of batch)
				this.outcomes.set(itemIndex, { outcome: 'unknown', note: this.noStore });
			return;
		}
		try {
			const replayed = await this.store(batch);
			for (const { itemIndex, key } of batch) {
				if (replayed.has(key))
					this.outcomes.set(itemIndex, {
						outcome: 'replayed',
						note: 'This key had been answered before (an earlier execution or try); the API replayed that result and booked nothing new.',
					});
				else if (this.full)
					this.outcomes.set(itemIndex, {
						outcome: 'unknown',
						note: `n8n remembers the last ${ANSWERED_KEYS_KEPT.toLocaleString('en-US')} keys this node got answers for and has forgotten older ones, and ${NOT_TOLD}`,
					});
				else if (this.killedTry)
					this.outcomes.set(itemIndex, { outcome: 'unknown', note: this.killedTry });
				else this.outcomes.set(itemIndex, { outcome: 'recorded' });
			}
		} catch (error) {
			const why = error instanceof Error ? error.message : String(error);
			for (const { itemIndex } of batch)
				this.outcomes.set(itemIndex, {
					outcome: 'unknown',
					note: `n8n's deduplication store could not be used (${why}), and ${NOT_TOLD}`,
				});
		}
	}

	/**
	 * Records the keys; resolves to those the store held already. n8n's store keeps one list per node
	 * and reads and writes it whole, with no lock: two n8n processes (queue workers) recording at the
	 * same moment can both insert it (one fails: tried again) or one can overwrite the other's keys, so
	 * the keys recorded now are checked once more (and recorded again if they were lost).
	 */
	private async store(batch: Array<{ key: string }>): Promise<Set<string>> {
		const { helpers } = this.context;
		const options = { mode: 'entries' as const, maxEntries: ANSWERED_KEYS_KEPT };
		if (this.full === undefined) {
			const count = await twice(async () => await helpers.getProcessedDataCount('node', options));
			this.full = count >= ANSWERED_KEYS_KEPT;
		}
		const keys = batch.map(({ key }) => key);
		const { processed } = await twice(
			async () => await helpers.checkProcessedAndRecord(keys, 'node', options),
		);
		const before = new Set(processed.map(String));
		const recordedNow = keys.filter((key) => !before.has(key));
		if (recordedNow.length > 0)
			await twice(async () => await helpers.checkProcessedAndRecord(recordedNow, 'node', options));
		return before;
	}
}

/** A store call, tried a second time when the first fails (e.g. two processes inserting the list at once). */
async function twice<T>(call: () => Promise<T>): Promise<T> {
	try {
		return await call();
	} catch {
		return await call();
	}
}

// ---------------------------------------------------------------------------------------------
// A failure after other rows went through
// ---------------------------------------------------------------------------------------------

const listed = (indexes: number[]): string =>
	indexes.length <= 10
		? indexes.join(', ')
		: `${indexes.slice(0, 10).join(', ')} and ${indexes.length - 10} more`;

/**
 * Adds to the error that stops the run what happened to the other rows: how many went through, and
 * what Retry execution and a new run do with them.
 */
export function withRunSummary(
	error: NodeApiError | NodeOperationError,
	through: number[],
	keyedByData: boolean,
	counts?: Record<RepeatCheck['outcome'], number>,
): NodeApiError | NodeOperationError {
	if (through.length === 0) return error;
	const rows = through.length === 1 ? '1 other row' : `${through.length} other rows`;
	const split = counts
		? ` (${[
				counts.recorded && `${counts.recorded} recorded now`,
				counts.replayed && `${counts.replayed} replayed, recorded before`,
				counts.unknown && `${counts.unknown} not known whether new or replayed`,
			]
				.filter(Boolean)
				.join(', ')})`
		: '';
	const [they, them, are] = through.length === 1 ? ['It', 'it', 'is'] : ['They', 'them', 'are'];
	const next = keyedByData
		? `${they} ${are} keyed by your data: Retry execution, or running the workflow again, replays ${them} instead of booking ${them} twice, and sends the rest.`
		: `Retry execution replays ${them} and sends the rest; running the workflow again (or Execute step) books ${them} again.`;
	const summary = `Before this failure, ${rows} of this run went through${split}: item${through.length === 1 ? '' : 's'} ${listed(through)}. ${next}`;
	error.description = error.description ? `${error.description}\n\n${summary}` : summary;
	return error;
}
