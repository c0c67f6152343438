import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { field, ONE_OF_FORM_OPTIONS } from '../../values/field';
import type { ItemInput } from '../../values/itemInput';
import { AMOUNT, RECORD_ID } from '../../values/checks';
import { AMOUNT_RANGE, countWords } from '../../values/rangeWords';
import {
	assetId,
	eventDate,
	eventDescription,
	NAME_LENGTH,
	NAME_LIMIT,
	RECURRING_FREQUENCIES,
} from '../common.fields';
import type { ActionKind } from '../../idempotency/keys';
import type { BuiltRequest } from '../node.type';
import { jsonProperty, pairsProperty, readFieldValues } from './customFieldValues';

const eventTypeId = field({
	property: {
		displayName: 'Event Type ID',
		name: 'eventTypeId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 21',
		description:
			'Numeric ID of an acquisition event type of your organization. The type decides which custom fields are required and whether finance and payment fields are allowed.',
	},
	check: RECORD_ID,
	apiField: 'event_type_id',
});

const acquiredFrom = field({
	property: {
		displayName: 'Acquired From',
		name: 'acquiredFrom',
		type: 'string',
		default: '',
		placeholder: 'e.g. ACME Hardware Ltd',
		description: `Who the asset was acquired from, ${NAME_LENGTH}`,
	},
	check: { kind: 'text', maxLength: NAME_LIMIT },
	apiField: 'acquired_from',
});

// Amounts and counts are text fields read by the node (values/checks.ts AMOUNT), starting empty, with a
// placeholder: one added to the form and left empty is not sent (n8n stores an added field with its
// default, so a default of 0 would be sent as 0).
const price = field({
	property: {
		displayName: 'Price',
		name: 'price',
		type: 'string',
		default: '',
		placeholder: 'e.g. 1249.99',
		description: `Purchase price, ${AMOUNT_RANGE}. Defaults to 'Cost'.`,
	},
	check: AMOUNT,
	apiField: 'price',
});

const cost = field({
	property: {
		displayName: 'Cost',
		name: 'cost',
		type: 'string',
		default: '',
		placeholder: 'e.g. 1249.99',
		description: `Amount paid at acquisition (the down payment for financed acquisitions), ${AMOUNT_RANGE}`,
	},
	check: AMOUNT,
	apiField: 'cost',
});

const salvageValue = field({
	property: {
		displayName: 'Salvage Value',
		name: 'salvageValue',
		type: 'string',
		default: '',
		placeholder: 'e.g. 100',
		description: `Salvage value, ${AMOUNT_RANGE}`,
	},
	check: AMOUNT,
	apiField: 'salvage_value',
});

const financeAmount = field({
	property: {
		displayName: 'Finance Amount',
		name: 'financeAmount',
		type: 'string',
		default: '',
		placeholder: 'e.g. 1000',
		description: `Amount financed, ${AMOUNT_RANGE}, when the event type enables financing`,
	},
	check: AMOUNT,
	apiField: 'finance_amount',
});

/** In the order they go into the request body; the custom field values follow them. */
const optionalFields = [
	eventDate,
	eventDescription,
	acquiredFrom,
	price,
	cost,
	salvageValue,
	financeAmount,
];

/**
 * One "Payment" entry of Additional Fields holds Payment with its Billing Frequency and Number of
 * Payments. Adding the entry means recurring payments: their amount and frequency are required; the
 * number is left out while empty.
 */
const planPayment = field({
	property: {
		displayName: 'Payment',
		name: 'payment',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 87.25',
		description: `Amount of each payment, ${AMOUNT_RANGE}`,
	},
	check: AMOUNT,
	apiField: 'payment',
});

const planBillingFrequency = field({
	property: {
		displayName: 'Billing Frequency',
		name: 'billingFrequency',
		type: 'options',
		default: '',
		required: true,
		options: RECURRING_FREQUENCIES,
		description: 'How often the payment is due; the event type must support payments',
	},
	check: ONE_OF_FORM_OPTIONS,
	apiField: 'billing_frequency',
});

/** How many payments a plan may have. */
const PAYMENT_COUNT = { kind: 'integer', min: 1, max: 1_000_000 } as const;
export const PAYMENT_COUNT_RANGE = countWords(PAYMENT_COUNT);

const planNumberOfPayments = field({
	property: {
		displayName: 'Number of Payments',
		name: 'numberOfPayments',
		type: 'string',
		default: '',
		placeholder: 'e.g. 12',
		description: `How many payments, ${PAYMENT_COUNT_RANGE}; leave it empty for event types without a set number of payments`,
	},
	check: PAYMENT_COUNT,
	apiField: 'number_of_payments',
});

/** In the order they go into the request body, after the optional fields above. */
const planFields = [planPayment, planBillingFrequency, planNumberOfPayments];

const paymentPlan: INodeProperties = {
	displayName: 'Payment',
	name: 'paymentPlan',
	type: 'fixedCollection',
	placeholder: 'Add Payment',
	default: {},
	description: 'Recurring payments, when the event type enables them',
	options: [
		{
			displayName: 'Payment Plan',
			name: 'plan',
			values: [planPayment.property, planBillingFrequency.property, planNumberOfPayments.property],
		},
	],
};

export const description = updateDisplayOptions(
	{ show: { resource: ['asset'], operation: ['recordAcquisition'] } },
	[
		assetId.property,
		eventTypeId.property,
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				acquiredFrom.property,
				cost.property,
				pairsProperty,
				jsonProperty,
				eventDescription.property,
				eventDate.property,
				financeAmount.property,
				paymentPlan,
				price.property,
				salvageValue.property,
			],
		},
	],
);

/** The Payment entry: its fields, checked, under their API fields; nothing without the entry. */
function paymentPlanBody(input: ItemInput, bundle: unknown): IDataObject {
	const terms = (bundle as { plan?: IDataObject } | undefined)?.plan;
	return terms ? input.body([], planFields, terms) : {};
}

/** One acquisition per asset and row: the same purchase recorded from a form and from a sheet is one. */
export const action: ActionKind = { noun: 'an acquisition' };

export function buildRequest(input: ItemInput): BuiltRequest {
	const asset = input.record('asset', assetId);
	const additional = input.collection('additionalFields');
	const { paymentPlan: bundle, ...others } = additional;
	const body = {
		...input.body([eventTypeId], optionalFields, others),
		...paymentPlanBody(input, bundle),
	};
	const fieldValues = readFieldValues(input, additional);
	return {
		method: 'POST',
		path: `/api/v1/assets/${asset.id}/acquisitions`,
		body: fieldValues ? { ...body, field_values: fieldValues } : body,
		permission: 'assets:lifecycle',
		record: asset,
	};
}
