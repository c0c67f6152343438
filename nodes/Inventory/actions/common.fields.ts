import type { INodePropertyOptions } from 'n8n-workflow';

import { field } from '../values/field';
import { RECORD_ID } from '../values/checks';
import { lengthWords } from '../values/rangeWords';

export const TEXT_LIMIT = 10_000;
export const NAME_LIMIT = 255;
/** The lengths as a description states them. */
export const TEXT_LENGTH = lengthWords(TEXT_LIMIT);
export const NAME_LENGTH = lengthWords(NAME_LIMIT);

export const assetId = field({
	property: {
		displayName: 'Asset ID',
		name: 'assetId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 1024',
		description: 'Numeric ID of the asset in your organization',
	},
	check: RECORD_ID,
});

export const subscriptionId = field({
	property: {
		displayName: 'Subscription ID',
		name: 'subscriptionId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 310',
		description: 'Numeric ID of the subscription in your organization',
	},
	check: RECORD_ID,
});

export const eventDate = field({
	property: {
		displayName: 'Event Date',
		name: 'eventDate',
		type: 'dateTime',
		default: '',
		placeholder: 'e.g. 2026-11-23T09:30:00',
		description:
			"When the event happened, in the workflow's time zone. Defaults to now. It cannot be in the future, nor earlier than a newer change of the record.",
	},
	check: { kind: 'timestamp' },
	apiField: 'event_date',
});

export const eventDescription = field({
	property: {
		displayName: 'Description',
		name: 'description',
		type: 'string',
		default: '',
		typeOptions: { rows: 3 },
		placeholder: 'e.g. Bought with the Q4 laptop order',
		description: `Plain text recorded with the event, ${TEXT_LENGTH}`,
	},
	check: { kind: 'text', maxLength: TEXT_LIMIT },
	apiField: 'description',
});

/**
 * Billing frequencies, listed by name as n8n's style asks; the values are the API's spelling. A value
 * given by an expression may also be the name, in any letter case ("Monthly", "QUARTERLY").
 */
export const BILLING_FREQUENCIES: INodePropertyOptions[] = [
	{ name: 'Monthly', value: 'monthly', description: 'Recurring, every month' },
	{ name: 'Quarterly', value: 'Quarterly', description: 'Recurring, every quarter' },
	{ name: 'Upfront', value: 'upfront', description: 'A one-time purchase' },
	{ name: 'Yearly', value: 'yearly', description: 'Recurring, every year' },
];

/** The recurring frequencies (payments of an acquisition): all but Upfront. */
export const RECURRING_FREQUENCIES: INodePropertyOptions[] = BILLING_FREQUENCIES.filter(
	({ value }) => value !== 'upfront',
);
