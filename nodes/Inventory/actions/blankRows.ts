import type { INodeExecutionData } from 'n8n-workflow';

import { listedIndexes } from '../model/listedFirst';
import { isEmptyValue } from '../values/checks';

const hasFile = ({ binary }: INodeExecutionData) =>
	binary !== undefined && Object.keys(binary).length > 0;

/**
 * The rows whose cells are all empty, by item index. A CSV saved by Excel or LibreOffice ends with
 * `;;;;`: n8n's Extract From File reads it as an item with no field (empty cells are left out) or,
 * with Include Empty Cells, with every field empty text; Google Sheets leaves such rows out itself.
 * An item with fields, all empty (null, no value, blank text), is such a row. An item with no field
 * at all is one only beside items that have a value: alone (a Manual Trigger's `{}`), it is no row
 * of a sheet, and the node's fixed values run for it. An item with a file is never blank.
 */
export function blankRows(items: readonly INodeExecutionData[]): number[] {
	const emptyFields = (item: INodeExecutionData) =>
		Object.values(item.json).every((value) => isEmptyValue(value));
	const anyValue = items.some((item) => !emptyFields(item));
	return items.flatMap((item, itemIndex) =>
		!hasFile(item) && emptyFields(item) && (Object.keys(item.json).length > 0 || anyValue)
			? [itemIndex]
			: [],
	);
}

/** The execution hint that says which rows were left out, e.g. "Item 4 was left out: …". */
export function blankRowsHint(indexes: readonly number[]): string {
	const listed = listedIndexes(indexes);
	return indexes.length === 1
		? `Item ${listed} was left out: all its cells are empty (a blank row), so nothing was sent for it and it has no output item.`
		: `Items ${listed} were left out: all their cells are empty (blank rows), so nothing was sent for them and they have no output items.`;
}
