import type { INodeProperties } from 'n8n-workflow';

import * as createTodo from './createTodo.operation';
import * as recordAcquisition from './recordAcquisition.operation';

/** This resource's operations by their value in the Operation dropdown below, which lists each. */
export const operations = { createTodo, recordAcquisition };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['asset'] } },
		options: [
			{
				name: 'Create Todo',
				value: 'createTodo',
				description:
					'Create a todo (a task, e.g. "Tag and label") on one asset. \'Asset ID\' is the numeric ID of the asset in your organization. Returns the created todo with its ID.',
				action: 'Create a todo',
			},
			{
				name: 'Record Acquisition',
				value: 'recordAcquisition',
				description:
					"Record how an asset was acquired (purchase, lease, donation, …) with its price, date and vendor. 'Asset ID' is the numeric ID of the asset in your organization; 'Event Type ID' is the numeric ID of one of your organization's acquisition event types. Returns the IDs of the asset events it created.",
				action: 'Record acquisition',
			},
		],
		default: 'createTodo',
	},
	...createTodo.description,
	...recordAcquisition.description,
];
