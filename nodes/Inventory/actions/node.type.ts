import type { INodeProperties } from 'n8n-workflow';

import type { ItemInput } from '../values/itemInput';
import type { InventoryRequest } from '../transport';

type NodeMap = {
	asset: 'createTodo' | 'recordAcquisition';
	subscription: 'updateBilling';
};

export type Resource = keyof NodeMap;
export type OperationOf<R extends Resource> = NodeMap[R];

/** Every operation of every resource, so that one missing from the map fails to compile. */
export type OperationMap = { [R in Resource]: { [O in OperationOf<R>]: InventoryOperation } };

/** What an operation builds for one item; the router adds the item index and the Idempotency-Key. */
export type PreparedRequest = Omit<InventoryRequest, 'idempotencyKey' | 'itemIndex'>;

/** One operation: its form, and the request it builds from an item's checked parameters. */
export interface InventoryOperation {
	description: INodeProperties[];
	buildRequest(input: ItemInput): PreparedRequest;
}
