import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

import type { InventoryRecord } from '../model/record';

/**
 * What the item's error says: its message, and what to do about it. The transport words every
 * failure so (wording/), and a request may bring its own words for one (`whenKeyReused`).
 */
export type Wording = { message: string; description?: string };

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
