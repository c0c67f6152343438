import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

/** One write to the Inventory API, ready to send. */
export interface InventoryRequest {
	method: IHttpRequestMethods;
	/** Path below the base URL, e.g. `/api/v1/assets/12/todos`. */
	path: string;
	body: IDataObject;
	idempotencyKey: string;
	itemIndex: number;
	/** The permission the operation needs, named in 403 messages. */
	permission: string;
	/** The record in the path, named in 404 messages, e.g. `Asset 12`. */
	record: string;
}
