import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { chooseIdempotencyKey, runIdentity } from '../helpers/idempotency';
import { ItemInput } from '../helpers/itemInput';
import { runPool } from '../helpers/pool';
import { readRunOptions } from '../helpers/runOptions';
import { compactForAgent, isToolVariant } from '../helpers/toolMode';
import { openConnection, RateLimitGate, sendInventoryRequest } from '../transport';
import * as asset from './asset/Asset.resource';
import type { InventoryOperation, InventoryType } from './node.type';
import * as subscription from './subscription/Subscription.resource';

const operations: { [R in InventoryType['resource']]: Record<string, InventoryOperation> } = {
	asset: { createTodo: asset.createTodo, recordAcquisition: asset.recordAcquisition },
	subscription: { updateBilling: subscription.updateBilling },
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as InventoryType['resource'];
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = operations[resource]?.[operationName];
	if (!operation) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operationName}" of resource "${resource}" is not supported`,
		);
	}
	if (items.length === 0) return [[]];

	const connection = await openConnection(this);
	const { policy, concurrency } = readRunOptions(new ItemInput(this, 0));
	const gate = new RateLimitGate();
	const identity = runIdentity(this);
	const asTool = isToolVariant(this);

	const results: INodeExecutionData[] = new Array(items.length);
	let failure: { index: number; error: Error } | undefined;

	await runPool(
		items.length,
		concurrency,
		async (itemIndex) => {
			try {
				const request = operation.buildRequest(new ItemInput(this, itemIndex));
				const businessKey = this.getNodeParameter('options.idempotencyKey', itemIndex, '');
				const idempotencyKey = chooseIdempotencyKey(
					businessKey,
					{ ...identity, itemIndex },
					request,
				);
				const data = await sendInventoryRequest.call(
					this,
					{ ...request, itemIndex, idempotencyKey },
					connection,
					policy,
					gate,
				);
				results[itemIndex] = {
					json: asTool ? compactForAgent(data) : data,
					pairedItem: { item: itemIndex },
				};
			} catch (caught) {
				const error =
					caught instanceof NodeApiError || caught instanceof NodeOperationError
						? caught
						: new NodeOperationError(this.getNode(), caught as Error, { itemIndex });
				if (this.continueOnFail()) {
					// `{ error }` alone is what every n8n version (1.x too) routes to the error output, where
					// n8n adds the input item's fields; the message names the field or record and the item.
					results[itemIndex] = { json: { error: error.message }, pairedItem: { item: itemIndex } };
					return;
				}
				if (!failure || itemIndex < failure.index) failure = { index: itemIndex, error };
			}
		},
		() => failure !== undefined,
	);

	if (failure) throw failure.error;
	return [results];
}
