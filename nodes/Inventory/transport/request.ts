import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

import type { InventoryRecord } from '../model/record';
import type { Wording } from './wording';

/** One write to the Inventory API, ready to send. */
export interface InventoryRequest {
	method: IHttpRequestMethods;
	/** Path below the base URL, e.g. `/api/v1/assets/12/todos`. */
	path: string;
	body: IDataObject;
	idempotencyKey: string;
	itemIndex: number;
	/** How messages name the item: `[po_number PO-1009, item 3]` (values/itemInput.ts itemTag). */
	itemTag: string;
	/** The permission the operation needs, named in 403 messages. */
	permission: string;
	/**
	 * The record the request changes: the items of one record run one after another, across
	 * executions, and messages name it (`Asset 12`, model/record.ts recordLabel).
	 */
	record: InventoryRecord;
	/**
	 * The words of a 409 saying the key was used before with other values, by what the key is made of
	 * (idempotency/keyReuse.ts); the transport's own words when there are none.
	 */
	whenKeyReused?: () => Wording | undefined;
}

/** The headers of every request to the API: JSON both ways, and the action's Idempotency-Key. */
export function apiHeaders(idempotencyKey: string): Record<string, string> {
	return {
		Accept: 'application/json',
		'Content-Type': 'application/json',
		'Idempotency-Key': idempotencyKey,
	};
}
