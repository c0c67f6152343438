import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { FieldDefinition, ItemInput } from '../../helpers/fields';
import { assetIdParameter, NAME_LIMIT, TEXT_LIMIT } from '../common.descriptions';
import type { OperationRun } from '../node.type';

const properties: INodeProperties[] = [
	assetIdParameter,
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Tag and label',
		description: 'What needs to be done, up to 255 characters',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Assigned To (User ID)',
				name: 'assignedTo',
				type: 'string',
				default: '',
				placeholder: 'e.g. 7',
				description:
					'Numeric ID of an organization user (a login account) who should do it. An inventory person ID is not accepted here.',
			},
			{
				displayName: 'Due Date',
				name: 'dueDate',
				type: 'dateTime',
				default: '',
				description: "The day it is due, taken in the workflow's time zone",
			},
			{
				displayName: 'Is Complete',
				name: 'isComplete',
				type: 'boolean',
				default: false,
				description: 'Whether to create the to-do already completed',
			},
			{
				displayName: 'Notes',
				name: 'notes',
				type: 'string',
				typeOptions: { rows: 4 },
				default: '',
				description: 'Plain text, up to 10,000 characters',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['asset'], operation: ['createTodo'] } },
	properties,
);

const requiredFields: FieldDefinition[] = [
	{
		parameter: 'name',
		apiField: 'name',
		label: 'Name',
		type: 'text',
		maxLength: NAME_LIMIT,
		nonEmpty: true,
		required: true,
	},
];

const optionalFields: FieldDefinition[] = [
	{ parameter: 'notes', apiField: 'notes', label: 'Notes', type: 'text', maxLength: TEXT_LIMIT },
	{ parameter: 'dueDate', apiField: 'due_date', label: 'Due Date', type: 'date' },
	{ parameter: 'isComplete', apiField: 'is_complete', label: 'Is Complete', type: 'boolean' },
];

export async function execute(input: ItemInput, run: OperationRun): Promise<IDataObject> {
	const assetId = input.recordId(input.parameter('assetId'), 'Asset ID', 'assetId');
	const body: IDataObject = {};
	input.fields(requiredFields, input.parameters(requiredFields), body);

	const additionalFields = input.collection('additionalFields');
	input.fields(optionalFields, additionalFields, body);
	const { assignedTo } = additionalFields;
	if (assignedTo !== undefined && assignedTo !== '') {
		body.assigned_to = input.recordId(assignedTo, 'Assigned To (User ID)', 'assignedTo', 'assigned_to');
	}

	return await run.send({
		method: 'POST',
		path: `/api/v1/assets/${assetId}/todos`,
		body,
		permission: 'assets:todos',
		record: `Asset ${assetId}`,
	});
}
