import type { INodeProperties } from 'n8n-workflow';

import type { ActionKind } from '../idempotency/keys';
import type { ItemInput } from '../values/itemInput';
import type { InventoryRequest } from '../transport';

/** What an operation builds for one item; the router adds the item index and the Idempotency-Key. */
export type BuiltRequest = Omit<InventoryRequest, 'idempotencyKey' | 'itemIndex' | 'itemTag'>;

/**
 * One operation: its form, what its action is (beside its record and row: what tells two of them on
 * one record apart, and its name in messages), and the request it builds from an item's checked
 * parameters.
 */
export interface InventoryOperation {
	description: INodeProperties[];
	action: ActionKind;
	buildRequest(input: ItemInput): BuiltRequest;
}
