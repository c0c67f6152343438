import { updateDisplayOptions } from 'n8n-workflow';

import { field } from '../../values/field';
import type { ItemInput } from '../../values/itemInput';
import { RECORD_ID } from '../../values/checks';
import { assetId, NAME_LENGTH, NAME_LIMIT, TEXT_LENGTH, TEXT_LIMIT } from '../common.fields';
import type { ActionKind } from '../../idempotency/keys';
import type { BuiltRequest } from '../node.type';

const name = field({
	property: {
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Tag and label',
		description: `What needs to be done, ${NAME_LENGTH}`,
	},
	check: { kind: 'text', maxLength: NAME_LIMIT },
	apiField: 'name',
});

const notes = field({
	property: {
		displayName: 'Notes',
		name: 'notes',
		type: 'string',
		default: '',
		typeOptions: { rows: 4 },
		placeholder: 'e.g. Both chargers are in the box',
		description: `Plain text, ${TEXT_LENGTH}`,
	},
	check: { kind: 'text', maxLength: TEXT_LIMIT },
	apiField: 'notes',
});

const dueDate = field({
	property: {
		displayName: 'Due Date',
		name: 'dueDate',
		type: 'dateTime',
		default: '',
		placeholder: 'e.g. 2026-12-31',
		description: "The day it is due, taken in the workflow's time zone",
	},
	check: { kind: 'date' },
	apiField: 'due_date',
});

const isComplete = field({
	property: {
		displayName: 'Is Complete',
		name: 'isComplete',
		type: 'boolean',
		default: false,
		description: 'Whether to create the todo already completed',
	},
	check: { kind: 'boolean' },
	apiField: 'is_complete',
});

const assignedTo = field({
	property: {
		displayName: 'Assigned To (User ID)',
		name: 'assignedTo',
		type: 'string',
		default: '',
		placeholder: 'e.g. 7',
		description:
			'Numeric ID of an organization user (a login account) who should do it. An inventory person ID is not accepted here.',
	},
	check: RECORD_ID,
	apiField: 'assigned_to',
});

/** In the order they go into the request body. */
const optionalFields = [notes, dueDate, isComplete, assignedTo];

export const description = updateDisplayOptions(
	{ show: { resource: ['asset'], operation: ['createTodo'] } },
	[
		assetId.property,
		name.property,
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [assignedTo.property, dueDate.property, isComplete.property, notes.property],
		},
	],
);

/** Two to-dos on one asset for one row are told apart by their names ("Tag and label", "Register warranty"). */
export const action: ActionKind = { noun: 'a to-do', distinguishedBy: 'name' };

export function buildRequest(input: ItemInput): BuiltRequest {
	const asset = input.record('asset', assetId);
	return {
		method: 'POST',
		path: `/api/v1/assets/${asset.id}/todos`,
		body: input.body([name], optionalFields),
		permission: 'assets:todos',
		record: asset,
	};
}
