import type { INodePropertyOptions } from 'n8n-workflow';

import { recordIdField, textField, timestampField } from '../helpers/fields';

export const TEXT_LIMIT = 10_000;
export const NAME_LIMIT = 255;

export const assetId = recordIdField({
	displayName: 'Asset ID',
	name: 'assetId',
	required: true,
	placeholder: 'e.g. 1024',
	description: 'Numeric ID of the asset in your organization',
});

export const eventDate = timestampField({
	displayName: 'Event Date',
	name: 'eventDate',
	apiField: 'event_date',
	placeholder: 'e.g. 2026-11-23T09:30:00',
	description:
		"When the event happened, in the workflow's time zone. Defaults to now. It cannot be in the future, nor earlier than a newer change of the record.",
});

export const eventDescription = textField({
	displayName: 'Description',
	name: 'description',
	apiField: 'description',
	maxLength: TEXT_LIMIT,
	rows: 3,
	placeholder: 'e.g. Bought with the Q4 laptop order',
	description: 'Plain text recorded with the event, up to 10,000 characters',
});

/** Billing frequencies in the API's order (and spelling): the recurring ones, then the one-time purchase. */
export const BILLING_FREQUENCIES: INodePropertyOptions[] = [
	{ name: 'Monthly', value: 'monthly', description: 'Recurring, every month' },
	{ name: 'Quarterly', value: 'Quarterly', description: 'Recurring, every quarter' },
	{ name: 'Yearly', value: 'yearly', description: 'Recurring, every year' },
	{ name: 'Upfront', value: 'upfront', description: 'A one-time purchase' },
];

export const RECURRING_FREQUENCIES = BILLING_FREQUENCIES.filter(({ value }) => value !== 'upfront');
