import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

import type { ItemFailure } from '../model/itemFailure';
import type { InventoryRecord } from '../model/record';
import { checksRefusal, itemTag } from '../values/itemInput';
import { describeValue, showText } from '../values/shownText';
import { canonicalJson, type KeyBasis } from './keys';
import { keyText } from './keyText';
import type { KeySource } from './keySource';
import { columnsOf, tellsEveryRowApart } from './rowIdentity';

/** One item's request, as far as comparing it with the others of its key goes. */
interface KeyedRequest {
	itemIndex: number;
	idempotencyKey: string;
	body: IDataObject;
	record: InventoryRecord;
	keyBasis: KeyBasis;
}

const MAX_NAMED = 3;

/** `"Laptop", "Dock"`: the values a field takes in a group of rows, at most three. */
function valuesOf(bodies: IDataObject[], field: string): string {
	const distinct = [...new Set(bodies.map((body) => canonicalJson(body[field] ?? null)))];
	const named = distinct
		.slice(0, MAX_NAMED)
		.map((text) => describeValue(JSON.parse(text) as unknown));
	return distinct.length > MAX_NAMED ? `${named.join(', ')}, …` : named.join(', ');
}

/** The request fields whose values differ between the rows of a group. */
function differingFields(bodies: IDataObject[]): string[] {
	const names = [...new Set(bodies.flatMap((body) => Object.keys(body)))];
	return names.filter(
		(name) => new Set(bodies.map((body) => canonicalJson(body[name] ?? null))).size > 1,
	);
}

/**
 * An input column that tells the rows of a group apart, to add to the key: one whose values are all
 * different (e.g. `line`), else one whose values differ at all; undefined when the rows' columns are
 * the same (their requests differ by what an expression reads elsewhere).
 */
function tellingColumn(rows: IDataObject[], keyColumns: string[]): string | undefined {
	const names = columnsOf(rows).filter((name) => !keyColumns.includes(name));
	return (
		names.find((name) => tellsEveryRowApart(rows, name, true)) ??
		names.find((name) => new Set(rows.map((row) => keyText(row[name]))).size > 1)
	);
}

const listedItems = (indexes: number[]) =>
	indexes.length === 2
		? `items ${indexes[0]} and ${indexes[1]}`
		: `items ${indexes.slice(0, -1).join(', ')} and ${indexes[indexes.length - 1]}`;

/** What the user changes so the rows get keys of their own, for each source of row keys. */
function fixFor(source: KeySource, column: string | undefined): string {
	if (source.basis === 'expression')
		return `make the Row Key tell them apart${column === undefined ? '' : `, e.g. by adding {{ $json.${showText(column)} }} to it`}`;
	return column === undefined
		? 'add a column that tells them apart to Key Columns, or key them by an expression that does (Repeat Protection "Each Row Once, Keyed by an Expression")'
		: `add a column that tells them apart to Key Columns: ${source.columns.map(showText).join(', ')}, ${showText(column)}`;
}

/**
 * Rows of one run whose requests share an Idempotency-Key. Identical requests are one action: the
 * API books the first and replays the others. Requests that differ under one key would be refused
 * by the API after the first was booked, so each row of such a group fails here, before anything
 * is sent, naming the rows, the key and what tells them apart. Returns those failures by item.
 */
export function refuseRowsSharingKey(
	node: INode,
	source: KeySource,
	items: INodeExecutionData[],
	requests: KeyedRequest[],
): Map<number, ItemFailure> {
	const byKey = new Map<string, KeyedRequest[]>();
	for (const request of requests) {
		const group = byKey.get(request.idempotencyKey) ?? [];
		group.push(request);
		byKey.set(request.idempotencyKey, group);
	}
	const failures = new Map<number, ItemFailure>();
	for (const group of byKey.values()) {
		const bodies = group.map(({ body }) => body);
		if (group.length < 2 || new Set(bodies.map(canonicalJson)).size === 1) continue;
		const indexes = group.map(({ itemIndex }) => itemIndex);
		const fields = differingFields(bodies)
			.slice(0, MAX_NAMED)
			.map((field) => `${field}: ${valuesOf(bodies, field)}`)
			.join('; ');
		const column = tellingColumn(
			indexes.map((index) => items[index].json),
			source.columns,
		);
		const { keyBasis } = group[0];
		const rowId = keyBasis.kind === 'row' ? keyBasis.rowId : '';
		const label = source.basis === 'expression' ? 'Row Key' : 'Key Columns';
		const shared = `${source.basis === 'expression' ? 'gives' : 'give'} ${listedItems(indexes)} one key (${describeValue(rowId)})`;
		const problem = `${shared}, but they would book different values (${fields}): the API would book the first and refuse the others. To book each, ${fixFor(source, column)}`;
		const subject = { label, parameter: source.basis === 'expression' ? 'rowKey' : 'keyColumns' };
		for (const { itemIndex, keyBasis: basis } of group) {
			const tag = itemTag(itemIndex, basis.kind === 'row' ? basis.row.name : undefined);
			failures.set(itemIndex, checksRefusal(node, itemIndex, tag, [{ ...subject, problem }]));
		}
	}
	return failures;
}
