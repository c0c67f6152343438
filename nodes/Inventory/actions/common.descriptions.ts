import type { INodeProperties } from 'n8n-workflow';

import { MAX_AMOUNT, type FieldDefinition } from '../helpers/fields';

export const TEXT_LIMIT = 10_000;
export const NAME_LIMIT = 255;

export const assetIdParameter: INodeProperties = {
	displayName: 'Asset ID',
	name: 'assetId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 1024',
	description: 'Numeric ID of the asset in your organization',
};

export const eventDateOption: INodeProperties = {
	displayName: 'Event Date',
	name: 'eventDate',
	type: 'dateTime',
	default: '',
	description:
		"When the event happened, in the workflow's time zone. Defaults to now. It cannot be in the future, nor earlier than a newer change of the record.",
};

export const descriptionOption: INodeProperties = {
	displayName: 'Description',
	name: 'description',
	type: 'string',
	typeOptions: { rows: 3 },
	default: '',
	description: 'Plain text recorded with the event, up to 10,000 characters',
};

export function amountOption(displayName: string, name: string, description: string): INodeProperties {
	return {
		displayName,
		name,
		type: 'number',
		typeOptions: { minValue: 0, maxValue: MAX_AMOUNT, numberPrecision: 2 },
		default: 0,
		description,
	};
}

export const eventDateField: FieldDefinition = {
	parameter: 'eventDate',
	apiField: 'event_date',
	label: 'Event Date',
	type: 'timestamp',
};

export const descriptionField: FieldDefinition = {
	parameter: 'description',
	apiField: 'description',
	label: 'Description',
	type: 'text',
	maxLength: TEXT_LIMIT,
};

export const recurringFrequencies = [
	{ name: 'Monthly', value: 'monthly' },
	{ name: 'Quarterly', value: 'Quarterly' },
	{ name: 'Yearly', value: 'yearly' },
] as const;
