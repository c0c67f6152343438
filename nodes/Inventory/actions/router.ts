import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Field } from '../helpers/fields';
import { ItemInput } from '../helpers/itemInput';
import {
	businessIdempotencyKey,
	deriveIdempotencyKey,
	resolveRootExecutionId,
	type ActionIdentity,
} from '../helpers/idempotency';
import {
	CREDENTIAL_TYPE,
	RateLimitGate,
	sendInventoryRequest,
	type InventoryConnection,
	type RetryPolicy,
} from '../transport';
import * as asset from './asset/Asset.resource';
import type { InventoryOperation, InventoryType } from './node.type';
import { runOptions } from './options.description';
import * as subscription from './subscription/Subscription.resource';

const operations: { [R in InventoryType['resource']]: Record<string, InventoryOperation> } = {
	asset: { createTodo: asset.createTodo, recordAcquisition: asset.recordAcquisition },
	subscription: { updateBilling: subscription.updateBilling },
};

/** The run's retry policy and concurrency, from the options of the first item; an option not set takes its default. */
function readPolicy(input: ItemInput): { policy: RetryPolicy; concurrency: number } {
	const options = input.collection('options');
	const read = (field: Field) => (input.value(field, options[field.parameter]) ?? field.property.default) as number;
	return {
		concurrency: read(runOptions.concurrency),
		policy: {
			maxRetries: read(runOptions.maxRetries),
			baseDelayMs: read(runOptions.retryDelay),
			maxDelayMs: read(runOptions.maxRetryWait),
			timeoutMs: read(runOptions.timeout),
		},
	};
}

/** Runs `work` for indices 0..count-1 with at most `limit` at once; stops starting new ones once `stop()` says so. */
async function runPool(count: number, limit: number, work: (index: number) => Promise<void>, stop: () => boolean): Promise<void> {
	let next = 0;
	const worker = async () => {
		while (next < count && !stop()) {
			const index = next++;
			await work(index);
		}
	};
	await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
}

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as InventoryType['resource'];
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = operations[resource]?.[operationName];
	if (!operation) {
		throw new NodeOperationError(this.getNode(), `The operation "${operationName}" of resource "${resource}" is not supported`);
	}
	if (items.length === 0) return [[]];

	const credentials = await this.getCredentials<{ baseUrl?: string; apiToken?: string }>(CREDENTIAL_TYPE);
	const nodeCredential = this.getNode().credentials?.[CREDENTIAL_TYPE];
	const connection: InventoryConnection = {
		baseUrl: String(credentials.baseUrl ?? '').trim().replace(/\/+$/, ''),
		token: String(credentials.apiToken ?? ''),
		credential: {
			id: nodeCredential?.id ?? '',
			name: nodeCredential?.name ?? '',
			type: CREDENTIAL_TYPE,
			data: credentials,
		},
	};
	if (!/^https?:\/\/[^/]/i.test(connection.baseUrl)) {
		throw new NodeOperationError(this.getNode(), 'The Base URL of the Inventory API credential must start with http:// or https://', {
			description: 'Open the credential and enter the address of your Inventory service, e.g. https://inventory.example.com',
		});
	}

	const { policy, concurrency } = readPolicy(new ItemInput(this, 0));
	const gate = new RateLimitGate();
	const proxy = this.getWorkflowDataProxy(0);
	const identity: Omit<ActionIdentity, 'itemIndex'> = {
		instanceId: this.getInstanceId(),
		workflowId: String(this.getWorkflow().id ?? ''),
		rootExecutionId: resolveRootExecutionId(proxy.$execution?.customData, this.getExecutionId()),
		nodeId: this.getNode().id,
		runIndex: Number(proxy.$runIndex ?? 0),
	};

	const results: INodeExecutionData[] = new Array(items.length);
	let failure: { index: number; error: Error } | undefined;

	await runPool(
		items.length,
		concurrency,
		async (itemIndex) => {
			try {
				const request = operation.buildRequest(new ItemInput(this, itemIndex));
				const override = String(this.getNodeParameter('options.idempotencyKey', itemIndex, '') ?? '').trim();
				const idempotencyKey = override
					? businessIdempotencyKey(override, request.method, request.path)
					: deriveIdempotencyKey({ ...identity, itemIndex });
				const data = await sendInventoryRequest.call(this, { ...request, itemIndex, idempotencyKey }, connection, policy, gate);
				results[itemIndex] = { json: data, pairedItem: { item: itemIndex } };
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
