import { updateDisplayOptions } from 'n8n-workflow';

import {
	additionalFields,
	booleanField,
	dateField,
	recordIdField,
	textField,
} from '../../helpers/fields';
import type { ItemInput } from '../../helpers/itemInput';
import { assetId, NAME_LIMIT, TEXT_LIMIT } from '../common.fields';
import type { PreparedRequest } from '../node.type';

const name = textField({
	displayName: 'Name',
	name: 'name',
	apiField: 'name',
	required: true,
	maxLength: NAME_LIMIT,
	placeholder: 'e.g. Tag and label',
	description: 'What needs to be done, up to 255 characters',
});

const notes = textField({
	displayName: 'Notes',
	name: 'notes',
	apiField: 'notes',
	maxLength: TEXT_LIMIT,
	rows: 4,
	placeholder: 'e.g. Both chargers are in the box',
	description: 'Plain text, up to 10,000 characters',
});

const dueDate = dateField({
	displayName: 'Due Date',
	name: 'dueDate',
	apiField: 'due_date',
	placeholder: 'e.g. 2026-12-31',
	description: "The day it is due, taken in the workflow's time zone",
});

const isComplete = booleanField({
	displayName: 'Is Complete',
	name: 'isComplete',
	apiField: 'is_complete',
	description: 'Whether to create the to-do already completed',
});

const assignedTo = recordIdField({
	displayName: 'Assigned To (User ID)',
	name: 'assignedTo',
	apiField: 'assigned_to',
	placeholder: 'e.g. 7',
	description:
		'Numeric ID of an organization user (a login account) who should do it. An inventory person ID is not accepted here.',
});

/** In the order they go into the request body. */
const optionalFields = [notes, dueDate, isComplete, assignedTo];

export const description = updateDisplayOptions(
	{ show: { resource: ['asset'], operation: ['createTodo'] } },
	[assetId.property, name.property, additionalFields(optionalFields)],
);

export function buildRequest(input: ItemInput): PreparedRequest {
	const asset = input.parameter(assetId);
	return {
		method: 'POST',
		path: `/api/v1/assets/${asset}/todos`,
		body: input.body([name], optionalFields),
		permission: 'assets:todos',
		record: `Asset ${asset}`,
	};
}
