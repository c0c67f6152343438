import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';
import { jsonParse, updateDisplayOptions } from 'n8n-workflow';

import { isEmptyValue, type FieldDefinition, type ItemInput } from '../../helpers/fields';
import {
	amountOption,
	assetIdParameter,
	descriptionField,
	descriptionOption,
	eventDateField,
	eventDateOption,
	NAME_LIMIT,
	recurringFrequencies,
} from '../common.descriptions';
import type { OperationRun } from '../node.type';

const PAYMENTS_MAX = 1_000_000;

const shownWithPayment: IDisplayOptions = { show: { payment: [{ _cnd: { exists: true } }] } };

const properties: INodeProperties[] = [
	assetIdParameter,
	{
		displayName: 'Event Type ID',
		name: 'eventTypeId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 21',
		description:
			"Numeric ID of an acquisition event type of your organization. The type decides which custom fields are required and whether finance and payment fields are allowed.",
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Acquired From',
				name: 'acquiredFrom',
				type: 'string',
				default: '',
				placeholder: 'e.g. ACME Hardware Ltd',
				description: 'Who the asset was acquired from, up to 255 characters',
			},
			{
				displayName: 'Billing Frequency',
				name: 'billingFrequency',
				type: 'options',
				options: recurringFrequencies.map(({ name, value }) => ({ name, value })),
				default: 'monthly',
				description: 'How often the payment is due. Required with Payment; the event type must support payments.',
				displayOptions: shownWithPayment,
			},
			amountOption(
				'Cost',
				'cost',
				'Amount paid at acquisition (the down payment for financed acquisitions), 0 to 999,999,999.99',
			),
			{
				displayName: 'Custom Field Values',
				name: 'fieldValues',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				placeholder: 'Add Custom Field',
				default: {},
				description:
					'Values of the custom fields the event type asks for. Numbers, true and false are sent as such; use Custom Field Values (JSON) for exact types.',
				options: [
					{
						displayName: 'Field',
						name: 'values',
						values: [
							{
								displayName: 'Field ID',
								name: 'fieldId',
								type: 'string',
								default: '',
								placeholder: 'e.g. 5',
								description: 'Numeric ID of the custom field',
							},
							{
								displayName: 'Value',
								name: 'value',
								type: 'string',
								default: '',
								description: "The field's value, or the ID of one of its allowed options",
							},
						],
					},
				],
			},
			{
				displayName: 'Custom Field Values (JSON)',
				name: 'fieldValuesJson',
				type: 'json',
				default: '{}',
				placeholder: '{ "5": "SN-1234", "6": 42 }',
				description:
					'The same as Custom Field Values, as one JSON object keyed by field ID. Both can be used together as long as no field ID appears in both.',
			},
			descriptionOption,
			eventDateOption,
			amountOption(
				'Finance Amount',
				'financeAmount',
				'Amount financed, 0 to 999,999,999.99, when the event type enables financing',
			),
			{
				displayName: 'Number of Payments',
				name: 'numberOfPayments',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: PAYMENTS_MAX, numberPrecision: 0 },
				default: 12,
				description: 'How many payments, 1 to 1,000,000, when the event type supports it',
				displayOptions: shownWithPayment,
			},
			amountOption(
				'Payment',
				'payment',
				'Amount of each payment, 0 to 999,999,999.99, when the event type enables payments. Needs Billing Frequency.',
			),
			amountOption('Price', 'price', 'Purchase price, 0 to 999,999,999.99. Defaults to the cost.'),
			amountOption('Salvage Value', 'salvageValue', 'Salvage value, 0 to 999,999,999.99'),
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['asset'], operation: ['recordAcquisition'] } },
	properties,
);

const optionalFields: FieldDefinition[] = [
	eventDateField,
	descriptionField,
	{
		parameter: 'acquiredFrom',
		apiField: 'acquired_from',
		label: 'Acquired From',
		type: 'text',
		maxLength: NAME_LIMIT,
	},
	{ parameter: 'price', apiField: 'price', label: 'Price', type: 'amount' },
	{ parameter: 'cost', apiField: 'cost', label: 'Cost', type: 'amount' },
	{ parameter: 'salvageValue', apiField: 'salvage_value', label: 'Salvage Value', type: 'amount' },
	{
		parameter: 'financeAmount',
		apiField: 'finance_amount',
		label: 'Finance Amount',
		type: 'amount',
	},
	{ parameter: 'payment', apiField: 'payment', label: 'Payment', type: 'amount' },
];

const paymentTermsFields: FieldDefinition[] = [
	{
		parameter: 'billingFrequency',
		apiField: 'billing_frequency',
		label: 'Billing Frequency',
		type: 'options',
		values: recurringFrequencies.map(({ value }) => value),
	},
	{
		parameter: 'numberOfPayments',
		apiField: 'number_of_payments',
		label: 'Number of Payments',
		type: 'integer',
		min: 1,
		max: PAYMENTS_MAX,
	},
];

const CANONICAL_NUMBER = /^-?(0|[1-9]\d*)(\.\d*[1-9])?$/;

/** A pair's text value as the API most likely wants it: numbers and booleans typed, the rest text. */
function typedPairValue(value: unknown): unknown {
	if (typeof value !== 'string') return value;
	if (CANONICAL_NUMBER.test(value) && Number.isSafeInteger(Math.trunc(Number(value)))) return Number(value);
	if (value === 'true' || value === 'false') return value === 'true';
	return value;
}

function readFieldValues(input: ItemInput, additionalFields: IDataObject): IDataObject | undefined {
	const fieldValues: IDataObject = {};
	const pairsLabel = 'Custom Field Values';
	const jsonLabel = 'Custom Field Values (JSON)';

	const json = additionalFields.fieldValuesJson;
	if (!isEmptyValue(json)) {
		let parsed: unknown = json;
		if (typeof json === 'string') {
			try {
				parsed = jsonParse(json);
			} catch {
				input.fail(jsonLabel, 'is not valid JSON', 'fieldValuesJson', 'field_values');
			}
		}
		if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
			input.fail(
				jsonLabel,
				'must be a JSON object keyed by field ID, like { "5": "SN-1234" }',
				'fieldValuesJson',
				'field_values',
			);
		}
		for (const [fieldId, value] of Object.entries(parsed as IDataObject)) {
			const id = input.recordId(fieldId, `${jsonLabel}: key "${fieldId}"`, 'fieldValuesJson', 'field_values');
			fieldValues[String(id)] = value;
		}
	}

	const pairs = (additionalFields.fieldValues as { values?: IDataObject[] } | undefined)?.values ?? [];
	for (const pair of pairs) {
		const id = String(
			input.recordId(pair.fieldId, `${pairsLabel}: Field ID`, 'fieldValues', 'field_values'),
		);
		if (id in fieldValues) {
			input.fail(pairsLabel, `give field ${id} more than once`, 'fieldValues', 'field_values');
		}
		fieldValues[id] = typedPairValue(pair.value) as IDataObject[string];
	}
	return Object.keys(fieldValues).length > 0 ? fieldValues : undefined;
}

export async function execute(input: ItemInput, run: OperationRun): Promise<IDataObject> {
	const assetId = input.recordId(input.parameter('assetId'), 'Asset ID', 'assetId');
	const body: IDataObject = {
		event_type_id: input.recordId(
			input.parameter('eventTypeId'),
			'Event Type ID',
			'eventTypeId',
			'event_type_id',
		),
	};

	const additionalFields = input.collection('additionalFields');
	input.fields(optionalFields, additionalFields, body);
	const [billingFrequency, numberOfPayments] = paymentTermsFields;
	input.fields(
		[
			{ ...billingFrequency, required: body.payment !== undefined, requiredWhen: 'when Payment is given' },
			numberOfPayments,
		],
		additionalFields,
		body,
	);
	const fieldValues = readFieldValues(input, additionalFields);
	if (fieldValues) body.field_values = fieldValues;

	return await run.send({
		method: 'POST',
		path: `/api/v1/assets/${assetId}/acquisitions`,
		body,
		permission: 'assets:lifecycle',
		record: `Asset ${assetId}`,
	});
}
