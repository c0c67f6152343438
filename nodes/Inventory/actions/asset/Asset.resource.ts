import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../../helpers/fields';
import * as createTodo from './createTodo.operation';
import * as recordAcquisition from './recordAcquisition.operation';

export { createTodo, recordAcquisition };

export const description: INodeProperties[] = [
	operationSelector('asset', [
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
	]),
	...createTodo.description,
	...recordAcquisition.description,
];
