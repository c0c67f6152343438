import type { AllEntities } from 'n8n-workflow';

type NodeMap = {
	asset: 'createTodo' | 'recordAcquisition';
	subscription: 'updateBilling';
};

export type InventoryType = AllEntities<NodeMap>;

export type { ItemInput } from '../helpers/fields';

/** What an operation hands to the router to send; the router adds the item and the Idempotency-Key. */
export type PreparedRequest = Omit<import('../transport').InventoryRequest, 'idempotencyKey' | 'itemIndex'>;

export interface OperationRun {
	/** Derives the Idempotency-Key, sends with retries, resolves to the response's `data`. */
	send(request: PreparedRequest): Promise<import('n8n-workflow').IDataObject>;
}
