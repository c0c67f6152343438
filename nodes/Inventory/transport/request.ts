import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

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
	 * The record the request changes, in words, e.g. `Asset 12`: messages name the record so, and the
	 * items of one record are told apart by it (they run one after another, across executions).
	 */
	recordLabel: string;
	/**
	 * The words of a 409 saying the key was used before with other values, by what the key is made of
	 * (idempotency/keyReuse.ts); the transport's own words when there are none.
	 */
	whenKeyReused?: () => Wording | undefined;
}
