import type { INodeProperties } from 'n8n-workflow';

import type { ItemInput } from '../values/itemInput';
import type { InventoryRequest } from '../transport';

/** What an operation builds for one item; the router adds the item index and the Idempotency-Key. */
export type PreparedRequest = Omit<InventoryRequest, 'idempotencyKey' | 'itemIndex'>;

/** One operation: its form, and the request it builds from an item's checked parameters. */
export interface InventoryOperation {
	description: INodeProperties[];
	buildRequest(input: ItemInput): PreparedRequest;
}
