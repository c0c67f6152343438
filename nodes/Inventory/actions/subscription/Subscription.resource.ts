import type { INodeProperties } from 'n8n-workflow';

import * as updateBilling from './updateBilling.operation';

/** This resource's operations by their value in the Operation dropdown below, which lists each. */
export const operations = { updateBilling };

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
				description:
					"Replace a subscription's billing (price model, cost, billing frequency, license count) and record a billing-change event. 'Subscription ID' is the numeric ID of the subscription in your organization. Returns the ID of the billing-change event.",
				action: 'Update billing',
			},
		],
		default: 'updateBilling',
	},
	...updateBilling.description,
];
