import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { ItemInput } from '../values/itemInput';
import { listedFirst } from '../model/listedFirst';
import { describeValue, showText, shownStart } from '../values/shownText';
import { jsStringLiteral } from '../values/fixExpressions';
import { WORD_SEPARATORS } from '../values/choices/spelling';
import type { KeyBasis, RowIdentity } from './keys';
import { keyOfValues, keyText, trimForKey } from './keyText';
import type { KeySource } from './keySource';

type Lookup =
	| { found: true; value: unknown }
	| { found: false; ambiguous?: string[]; similar?: string };

/** Spelled alike: letter case, and spaces, underscores and hyphens between words aside. */
const alike = (name: string) => trimForKey(name).toLowerCase().replace(WORD_SEPARATORS, '');

/**
 * A field of an object by its name: the field of exactly that name, else the one whose name is that
 * name with white space or invisible characters around it (a CSV saved by Excel as "CSV UTF-8" starts
 * with a byte order mark, so its first column is "\uFEFFpo_number").
 */
function columnNamed(object: IDataObject, name: string): Lookup {
	if (Object.hasOwn(object, name)) return { found: true, value: object[name] };
	const names = Object.keys(object);
	const matches = names.filter((key) => trimForKey(key) === name);
	if (matches.length === 1) return { found: true, value: object[matches[0]] };
	if (matches.length > 1) return { found: false, ambiguous: matches };
	return { found: false, similar: names.find((key) => alike(key) === alike(name)) };
}

/** A key column's value in a row; a name with dots reaches into an object unless the row has a column of that name. */
function columnValue(json: IDataObject, column: string): Lookup {
	const whole = columnNamed(json, column);
	if (whole.found || !column.includes('.')) return whole;
	let value: unknown = json;
	for (const name of column.split('.')) {
		if (typeof value !== 'object' || value === null || Array.isArray(value)) return whole;
		const step = columnNamed(value as IDataObject, name);
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
	const path = column.split('.').every((name) => IDENTIFIER.test(name))
		? `.${column}`
		: `[${jsStringLiteral(column)}]`;
	return `{{ $(${jsStringLiteral(node)}).item.json${path} }}`;
}

const LISTED_COLUMNS = 5;

/** Why a key column is not in the row, and the fix that works: the column's spelling, or a Row Key. */
function missingColumn(
	json: IDataObject,
	column: string,
	lookup: Lookup & { found: false },
	earlierNodeWith: (column: string) => string | null,
): string {
	if (lookup.ambiguous)
		return `matches several columns of this row: ${lookup.ambiguous.map(quoted).join(', ')}. Rename one of them in an earlier node, or key the row by an expression (Repeat Protection "Each Row Once, Keyed by an Expression")`;
	if (lookup.similar !== undefined)
		return `is missing from this row, which has the column ${quoted(lookup.similar)}: write ${showText(trimForKey(lookup.similar))} in Key Columns, as the column is spelled`;
	const names = Object.keys(json);
	const columns =
		names.length === 0
			? 'this row has no columns'
			: `this row's columns are ${listedFirst(names.map(quoted), LISTED_COLUMNS)}`;
	const earlier = earlierNodeWith(column);
	const rowKey = `choose Repeat Protection "Each Row Once, Keyed by an Expression" and set Row Key to ${earlierNodeExpression(earlier ?? 'Node name', column)}`;
	if (earlier !== null)
		return `is missing from this row: it is a column of the earlier node ${quoted(earlier)}, and Key Columns names columns of this node's input (${columns}). To key by it, ${rowKey}`;
	return `is missing from this row (${columns}): Key Columns names columns of this node's input. For a column of an earlier node, ${rowKey} with the name of the node that has it`;
}

/** A row's identity from its key values: the values as the row holds them, and the row named by them. */
function rowIdentity(keyValues: Record<string, unknown>, label?: string): RowIdentity {
	const name = Object.entries(keyValues)
		.map(([column, value]) => `${label ?? showText(column)} ${shownStart(keyText(value))}`)
		.join(', ');
	return { keyValues, name };
}

/** How this run's items are keyed: its key source, and what it learns once per run on the way. */
export class RowKeys {
	/** For a key column missing from the input: the earlier node found to have it, or null. */
	private readonly earlierNodeOf = new Map<string, string | null>();

	constructor(
		private readonly context: IExecuteFunctions,
		readonly source: KeySource,
	) {}

	/**
	 * What one item's key is made of. A row's identity is the text its key is made of (keyText,
	 * keyOfValues), the same whichever tool read the row: one column gives its value as text (as a Row
	 * Key of that value would); several give the JSON list of their values as text (["1001","2"]). No
	 * column named: the rows carry no identity (a Manual Trigger's or a Schedule's item), so each
	 * execution is its own action, and only its retries replay. The row's name goes to the item's
	 * messages (`[po_number PO-1009, item 3]`).
	 */
	basisOf(input: ItemInput, item: INodeExecutionData): KeyBasis {
		const { source, context } = this;
		if (source.basis === 'execution' || source.basis === 'call') return { kind: source.basis };
		if (source.basis === 'expression') {
			const value = context.getNodeParameter('rowKey', input.itemIndex, '');
			const rowId = keyText(value);
			if (rowId === '')
				input.fail(
					{ label: 'Row Key', parameter: 'rowKey' },
					`is empty for this row${typeof value === 'string' && value !== '' ? ` (${describeValue(value)})` : ''}: the row has nothing to be keyed by`,
				);
			const row = rowIdentity({ rowKey: value }, 'Row Key');
			input.nameRow(row.name);
			return { kind: 'row', rowId, row };
		}
		if (source.columns.length === 0) return { kind: 'execution' };
		const values = source.columns.map((column) => {
			const subject = { label: `Key column ${quoted(column)}`, parameter: 'keyColumns' };
			const lookup = columnValue(item.json, column);
			if (!lookup.found)
				input.fail(
					subject,
					missingColumn(item.json, column, lookup, (name) =>
						this.earlierNodeWith(input.itemIndex, name),
					),
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
		const row = rowIdentity(
			Object.fromEntries(source.columns.map((column, index) => [column, values[index]])),
		);
		input.nameRow(row.name);
		return { kind: 'row', rowId: keyOfValues(values), row };
	}

	/**
	 * The earlier node (not the direct input) whose item paired with this row has the column, asked once
	 * per run and column; null when none has it or n8n cannot tell.
	 */
	private earlierNodeWith(itemIndex: number, column: string): string | null {
		const { context } = this;
		const known = this.earlierNodeOf.get(column);
		if (known !== undefined) return known;
		let found: string | null = null;
		try {
			const proxy = context.getWorkflowDataProxy(itemIndex);
			for (const { name } of context.getParentNodes(context.getNode().name)) {
				try {
					const node = (proxy.$ as (name: string) => { isExecuted?: boolean; item?: unknown })(
						name,
					);
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
		this.earlierNodeOf.set(column, found);
		return found;
	}
}

/** The columns of these rows, in the order they first appear. */
export const columnsOf = (rows: readonly IDataObject[]): string[] => [
	...new Set(rows.flatMap((row) => Object.keys(row))),
];

/**
 * Whether a column's values, as key text, are all different (each row told apart by it); with
 * `emptyAllowed` false, none may be empty either.
 */
export function tellsEveryRowApart(
	rows: readonly IDataObject[],
	column: string,
	emptyAllowed: boolean,
): boolean {
	const texts = rows.map((row) => keyText(row[column]));
	return (emptyAllowed || !texts.includes('')) && new Set(texts).size === rows.length;
}

/**
 * The hint of a run keyed by nothing but the execution although its input has rows of their own
 * (Key Columns left empty before a sheet): each execution books them anew. It names a column whose
 * values tell every row apart, when the rows have one.
 */
export function unkeyedRowsHint(rows: IDataObject[]): string | undefined {
	if (rows.length < 2) return undefined;
	// A key column must not be empty in any row.
	const identifying = columnsOf(rows).find((name) => tellsEveryRowApart(rows, name, false));
	const example = identifying === undefined ? '' : `, e.g. ${showText(identifying)}`;
	return `Key Columns is empty, so each execution books these ${rows.length} rows anew (only a retry of this execution replays them). To book each row once, name the column that identifies a row in Key Columns${example}.`;
}
