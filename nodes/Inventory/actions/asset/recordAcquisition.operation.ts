import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	additionalFields,
	amountField,
	integerField,
	optionsField,
	recordIdField,
	textField,
	variant,
} from '../../helpers/fields';
import type { ItemInput } from '../../helpers/itemInput';
import {
	assetId,
	eventDate,
	eventDescription,
	NAME_LIMIT,
	RECURRING_FREQUENCIES,
} from '../common.fields';
import type { PreparedRequest } from '../node.type';
import { jsonProperty, pairsProperty, readFieldValues } from './customFieldValues';

const eventTypeId = recordIdField({
	displayName: 'Event Type ID',
	name: 'eventTypeId',
	apiField: 'event_type_id',
	required: true,
	placeholder: 'e.g. 21',
	description:
		'Numeric ID of an acquisition event type of your organization. The type decides which custom fields are required and whether finance and payment fields are allowed.',
});

const acquiredFrom = textField({
	displayName: 'Acquired From',
	name: 'acquiredFrom',
	apiField: 'acquired_from',
	maxLength: NAME_LIMIT,
	placeholder: 'e.g. ACME Hardware Ltd',
	description: 'Who the asset was acquired from, up to 255 characters',
});

const price = amountField({
	displayName: 'Price',
	name: 'price',
	apiField: 'price',
	placeholder: 'e.g. 1499.00',
	description: "Purchase price, 0 to 999,999,999.99. Defaults to 'Cost'.",
});
const cost = amountField({
	displayName: 'Cost',
	name: 'cost',
	apiField: 'cost',
	placeholder: 'e.g. 299.00',
	description:
		'Amount paid at acquisition (the down payment for financed acquisitions), 0 to 999,999,999.99',
});
const salvageValue = amountField({
	displayName: 'Salvage Value',
	name: 'salvageValue',
	apiField: 'salvage_value',
	placeholder: 'e.g. 150.00',
	description: 'Salvage value, 0 to 999,999,999.99',
});
const financeAmount = amountField({
	displayName: 'Finance Amount',
	name: 'financeAmount',
	apiField: 'finance_amount',
	placeholder: 'e.g. 1200.00',
	description: 'Amount financed, 0 to 999,999,999.99, when the event type enables financing',
});
const payment = amountField({
	displayName: 'Payment',
	name: 'payment',
	apiField: 'payment',
	placeholder: 'e.g. 100.00',
	description:
		'Amount of each payment, 0 to 999,999,999.99, when the event type enables payments. Needs Billing Frequency.',
});

const shownWithPayment: IDisplayOptions = { show: { payment: [{ _cnd: { exists: true } }] } };

const billingFrequency = optionsField({
	displayName: 'Billing Frequency',
	name: 'billingFrequency',
	apiField: 'billing_frequency',
	requiredWith: payment,
	options: RECURRING_FREQUENCIES,
	default: 'monthly',
	description:
		"How often the payment is due. Required with 'Payment'; the event type must support payments.",
	displayOptions: shownWithPayment,
});

const numberOfPayments = integerField({
	displayName: 'Number of Payments',
	name: 'numberOfPayments',
	apiField: 'number_of_payments',
	min: 1,
	max: 1_000_000,
	default: 12,
	placeholder: 'e.g. 12',
	description: 'How many payments, 1 to 1,000,000, when the event type supports it',
	displayOptions: shownWithPayment,
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
	payment,
	billingFrequency,
	numberOfPayments,
];

const paymentTerms = [payment, billingFrequency, numberOfPayments];

const NO_NUMBER_OF_PAYMENTS = 0;

/**
 * Version 2 bundles Payment with its Billing Frequency and Number of Payments: one "Payment" entry of
 * Additional Fields shows the three together. Version 1 (saved workflows) keeps them as three entries.
 */
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
			values: [
				variant(payment, {
					required: true,
					description: 'Amount of each payment, 0 to 999,999,999.99',
				}).property,
				variant(billingFrequency, { required: true, displayOptions: undefined }).property,
				{
					...variant(numberOfPayments, { displayOptions: undefined }).property,
					default: NO_NUMBER_OF_PAYMENTS,
					typeOptions: { minValue: NO_NUMBER_OF_PAYMENTS, maxValue: 1_000_000, numberPrecision: 0 },
					hint: '0 leaves it out, for event types without a set number of payments',
				},
			],
		},
	],
};

const otherFields = optionalFields.filter((field) => !paymentTerms.includes(field));
const customFieldValues = [pairsProperty, jsonProperty];

export const description = updateDisplayOptions(
	{ show: { resource: ['asset'], operation: ['recordAcquisition'] } },
	[
		assetId.property,
		eventTypeId.property,
		{
			...additionalFields([...optionalFields, ...customFieldValues]),
			displayOptions: { show: { '@version': [1] } },
		},
		{
			...additionalFields([...otherFields, paymentPlan, ...customFieldValues]),
			displayOptions: { show: { '@version': [{ _cnd: { gte: 2 } }] } },
		},
	],
);

/** Version 2's Payment entry read as version 1's three fields, so both go through the same checks. */
function withPaymentTermsFlattened(additional: IDataObject): IDataObject {
	const { paymentPlan: bundle, ...others } = additional;
	const terms = (bundle as { plan?: IDataObject } | undefined)?.plan;
	if (!terms) return others;
	const { numberOfPayments: count, ...amountAndFrequency } = terms;
	return {
		...others,
		...amountAndFrequency,
		...(count === NO_NUMBER_OF_PAYMENTS ? {} : { numberOfPayments: count }),
	};
}

export function buildRequest(input: ItemInput): PreparedRequest {
	const asset = input.parameter(assetId);
	const additional = input.collection('additionalFields');
	const values = input.nodeVersion >= 2 ? withPaymentTermsFlattened(additional) : additional;
	const body = input.body([eventTypeId], optionalFields, values);
	const fieldValues = readFieldValues(input, additional);
	return {
		method: 'POST',
		path: `/api/v1/assets/${asset}/acquisitions`,
		body: fieldValues ? { ...body, field_values: fieldValues } : body,
		permission: 'assets:lifecycle',
		record: `Asset ${asset}`,
	};
}
