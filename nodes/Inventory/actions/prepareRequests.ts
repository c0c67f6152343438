import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { chooseIdempotencyKey, type KeyBasis } from '../idempotency/keys';
import { keyReuseWords } from '../idempotency/keyReuse';
import { RowKeys, unkeyedRowsHint } from '../idempotency/rowIdentity';
import { refuseRowsSharingKey } from '../idempotency/rowsSharingKey';
import { ItemFailure } from '../model/itemFailure';
import type { InventoryRequest } from '../transport';
import { asItemFailure, ItemInput } from '../values/itemInput';
import type { InventoryOperation } from './node.type';
import { outputPaneHint, type RunSetup } from './runSetup';

/** A row left out because its cells are all empty (actions/blankRows.ts). */
export const BLANK = 'blank';

/** An item's request with what its key was made of: the row's identity, the call, or the execution. */
export type KeyedRequest = InventoryRequest & { keyBasis: KeyBasis };

/** An item prepared: its request, its failure, or BLANK. */
export type PreparedItem = KeyedRequest | ItemFailure | typeof BLANK;

export const isRequest = (prepared: PreparedItem): prepared is KeyedRequest =>
	prepared !== BLANK && !(prepared instanceof ItemFailure);

/** Keyed by the row's data or the call's arguments: a new run sends the same key. */
export const isKeyedByData = (request: KeyedRequest): boolean =>
	request.keyBasis.kind !== 'execution';

/** Every item prepared, by item index, and the items that failed their checks. */
export interface PreparedItems {
	byItem: PreparedItem[];
	/** The items that failed their checks, in item order. */
	failures: Array<{ itemIndex: number; failure: ItemFailure }>;
}

/**
 * Every item's request is built first, with its Idempotency-Key: the record it addresses decides what
 * may run at once, and without Continue On Fail an item that fails its checks stops the run before
 * anything is sent. Every check of an item runs, its request's and its key's, so a failing item
 * tells every reason; rows that share a key but would book different values fail here too.
 */
export function prepareRequests(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	operation: InventoryOperation,
	run: RunSetup,
	blank: Set<number>,
): PreparedItems {
	const { keySource, identity } = run;
	const wordsOfKeyReuse = keyReuseWords(keySource, operation.action);
	const rowKeys = new RowKeys(context, keySource);
	const built = items.map((item, itemIndex): PreparedItem => {
		if (blank.has(itemIndex)) return BLANK;
		try {
			const input = new ItemInput(context, itemIndex, run.dateOrder);
			const { request, keyBasis } = input.checked(() => ({
				request: operation.buildRequest(input),
				keyBasis: rowKeys.basisOf(input, item),
			}));
			const idempotencyKey = chooseIdempotencyKey(
				keyBasis,
				{ ...identity, itemIndex },
				request,
				operation.action,
			);
			const rowName = keyBasis.kind === 'row' ? keyBasis.row.name : '';
			const whenKeyReused = () => wordsOfKeyReuse(idempotencyKey, request.record, rowName);
			return {
				...request,
				itemIndex,
				itemTag: input.tag,
				idempotencyKey,
				whenKeyReused,
				keyBasis,
			};
		} catch (caught) {
			return asItemFailure(context.getNode(), caught, itemIndex);
		}
	});
	hintWhenRowsAreUnkeyed(context, run, items, blank);
	const sharingKey = refuseRowsSharingKey(
		context.getNode(),
		keySource,
		items,
		built.filter(isRequest),
	);
	const byItem = built.map((prepared, itemIndex) => sharingKey.get(itemIndex) ?? prepared);
	return {
		byItem,
		failures: byItem.flatMap((prepared, itemIndex) =>
			prepared instanceof ItemFailure ? [{ itemIndex, failure: prepared }] : [],
		),
	};
}

/** Key Columns left empty before rows of their own: the output pane says each execution books them anew. */
function hintWhenRowsAreUnkeyed(
	context: IExecuteFunctions,
	{ keySource, asTool }: RunSetup,
	items: INodeExecutionData[],
	blank: Set<number>,
): void {
	if (asTool || keySource.basis !== 'columns' || keySource.columns.length > 0) return;
	const message = unkeyedRowsHint(
		items.filter((_, itemIndex) => !blank.has(itemIndex)).map(({ json }) => json),
	);
	if (message) outputPaneHint(context, message);
}
