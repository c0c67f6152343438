import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import * as asset from './actions/asset/Asset.resource';
import { options } from './actions/options.description';
import { repeatProtectionProperties } from './actions/repeatProtection.description';
import { router } from './actions/router';
import * as subscription from './actions/subscription/Subscription.resource';
import { testInventoryCredential } from './transport';

export class Inventory implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Inventory',
		name: 'inventory',
		icon: { light: 'file:inventory.svg', dark: 'file:inventory.dark.svg' },
		group: ['output'],
		version: 1,
		// The operation's name as the Operation dropdown shows it, from its value ("createTodo": "Create Todo").
		subtitle:
			'={{ $parameter["operation"].replace(/[A-Z]/g, " $&").replace(/^./, (first) => first.toUpperCase()) }}',
		description:
			'Create asset todos, update subscription billing and record asset acquisitions in the Asset and Subscription Inventory API, without duplicates on retries',
		defaults: { name: 'Inventory' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'inventoryApi', required: true, testedBy: 'inventoryApiTest' }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Asset', value: 'asset' },
					{ name: 'Subscription', value: 'subscription' },
				],
				default: 'asset',
			},
			...asset.description,
			...subscription.description,
			...repeatProtectionProperties,
			options,
		],
	};

	methods = {
		credentialTest: { inventoryApiTest: testInventoryCredential },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
