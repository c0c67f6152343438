import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { MAX_AMOUNT, type FieldDefinition, type ItemInput } from '../../helpers/fields';
import {
	descriptionField,
	descriptionOption,
	eventDateField,
	eventDateOption,
	recurringFrequencies,
} from '../common.descriptions';
import type { OperationRun } from '../node.type';

const LICENSE_COUNT_MAX = 100_000_000;

const priceModels = ['lump_sum', 'per_license'] as const;
const billingFrequencies = [...recurringFrequencies.map(({ value }) => value), 'upfront'] as const;

const licenseCountDescription = {
	displayName: 'License Count',
	name: 'licenseCount',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: LICENSE_COUNT_MAX, numberPrecision: 0 },
	default: 1,
} as const;

const properties: INodeProperties[] = [
	{
		displayName: 'Subscription ID',
		name: 'subscriptionId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 310',
		description: 'Numeric ID of the subscription in your organization',
	},
	{
		displayName: 'Price Model',
		name: 'priceModel',
		type: 'options',
		required: true,
		options: [
			{ name: 'Lump Sum', value: 'lump_sum', description: 'One price for the whole subscription' },
			{ name: 'Per License', value: 'per_license', description: 'The cost is per license' },
		],
		default: 'lump_sum',
	},
	{
		displayName: 'Cost',
		name: 'cost',
		type: 'number',
		required: true,
		typeOptions: { minValue: 0, maxValue: MAX_AMOUNT, numberPrecision: 2 },
		default: 0,
		description: 'The billing amount, 0 to 999,999,999.99',
	},
	{
		displayName: 'Billing Frequency',
		name: 'billingFrequency',
		type: 'options',
		required: true,
		options: [
			{ name: 'Monthly', value: 'monthly', description: 'Recurring, every month' },
			{ name: 'Quarterly', value: 'Quarterly', description: 'Recurring, every quarter' },
			{ name: 'Upfront', value: 'upfront', description: 'A one-time purchase' },
			{ name: 'Yearly', value: 'yearly', description: 'Recurring, every year' },
		],
		default: 'monthly',
	},
	{
		...licenseCountDescription,
		required: true,
		description: 'Number of licenses, 1 to 100,000,000. Required with the Per License price model.',
		displayOptions: { show: { priceModel: ['per_license'] } },
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			descriptionOption,
			eventDateOption,
			{
				...licenseCountDescription,
				description: 'Number of licenses, 1 to 100,000,000',
				displayOptions: { show: { '/priceModel': ['lump_sum'] } },
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['subscription'], operation: ['updateBilling'] } },
	properties,
);

const licenseCountField: FieldDefinition = {
	parameter: 'licenseCount',
	apiField: 'license_count',
	label: 'License Count',
	type: 'integer',
	min: 1,
	max: LICENSE_COUNT_MAX,
};

const requiredFields: FieldDefinition[] = [
	{
		parameter: 'priceModel',
		apiField: 'price_model',
		label: 'Price Model',
		type: 'options',
		values: priceModels,
		required: true,
	},
	{ parameter: 'cost', apiField: 'cost', label: 'Cost', type: 'amount', required: true },
	{
		parameter: 'billingFrequency',
		apiField: 'billing_frequency',
		label: 'Billing Frequency',
		type: 'options',
		values: billingFrequencies,
		required: true,
	},
];

const optionalFields: FieldDefinition[] = [eventDateField, descriptionField];

export async function execute(input: ItemInput, run: OperationRun): Promise<IDataObject> {
	const subscriptionId = input.recordId(
		input.parameter('subscriptionId'),
		'Subscription ID',
		'subscriptionId',
	);
	const body: IDataObject = {};
	input.fields(requiredFields, input.parameters(requiredFields), body);

	const additionalFields = input.collection('additionalFields');
	input.fields(optionalFields, additionalFields, body);
	if (body.price_model === 'per_license') {
		const licenseCount = input.parameter('licenseCount', '');
		input.fields(
			[{ ...licenseCountField, required: true, requiredWhen: 'with the Per License price model' }],
			{ licenseCount } as IDataObject,
			body,
		);
	} else {
		input.fields([licenseCountField], additionalFields, body);
	}

	return await run.send({
		method: 'PUT',
		path: `/api/v1/subscriptions/${subscriptionId}/billing`,
		body,
		permission: 'subscriptions:update',
		record: `Subscription ${subscriptionId}`,
	});
}
