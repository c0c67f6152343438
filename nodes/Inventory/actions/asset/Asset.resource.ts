import type { INodeProperties } from 'n8n-workflow';

import * as createTodo from './createTodo.operation';
import * as recordAcquisition from './recordAcquisition.operation';

export { createTodo, recordAcquisition };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['asset'] } },
		options: [
			{
				name: 'Create To-Do',
				value: 'createTodo',
				description: 'Create a task attached to an asset',
				action: 'Create an asset to do',
			},
			{
				name: 'Record Acquisition',
				value: 'recordAcquisition',
				description: 'Record how an asset was acquired and update its acquisition details',
				action: 'Record an asset acquisition',
			},
		],
		default: 'createTodo',
	},
	...createTodo.description,
	...recordAcquisition.description,
];
