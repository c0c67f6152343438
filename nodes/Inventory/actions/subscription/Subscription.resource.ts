import type { INodeProperties } from 'n8n-workflow';

import * as updateBilling from './updateBilling.operation';

export { updateBilling };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['subscription'] } },
		options: [
			{
				name: 'Update Billing',
				value: 'updateBilling',
				description: "Replace a subscription's billing values and record a billing-change event",
				action: 'Update subscription billing',
			},
		],
		default: 'updateBilling',
	},
	...updateBilling.description,
];
