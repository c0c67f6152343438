import { updateDisplayOptions } from 'n8n-workflow';

import {
	additionalFields,
	amountField,
	integerField,
	optionsField,
	recordIdField,
	variant,
} from '../../helpers/fields';
import type { ItemInput } from '../../helpers/itemInput';
import { BILLING_FREQUENCIES, eventDate, eventDescription } from '../common.fields';
import type { PreparedRequest } from '../node.type';

const subscriptionId = recordIdField({
	displayName: 'Subscription ID',
	name: 'subscriptionId',
	required: true,
	placeholder: 'e.g. 310',
	description: 'Numeric ID of the subscription in your organization',
});

const priceModel = optionsField({
	displayName: 'Price Model',
	name: 'priceModel',
	apiField: 'price_model',
	required: true,
	options: [
		{ name: 'Lump Sum', value: 'lump_sum', description: 'One price for the whole subscription' },
		{ name: 'Per License', value: 'per_license', description: 'The cost is per license' },
	],
	default: 'lump_sum',
});

const cost = amountField({
	displayName: 'Cost',
	name: 'cost',
	apiField: 'cost',
	required: true,
	placeholder: 'e.g. 1200.00',
	description: 'The billing amount, 0 to 999,999,999.99',
});

const billingFrequency = optionsField({
	displayName: 'Billing Frequency',
	name: 'billingFrequency',
	apiField: 'billing_frequency',
	required: true,
	options: BILLING_FREQUENCIES,
	default: 'monthly',
});

/** Optional, under Additional Fields, with the Lump Sum price model. */
const licenseCount = integerField({
	displayName: 'License Count',
	name: 'licenseCount',
	apiField: 'license_count',
	min: 1,
	max: 100_000_000,
	default: 1,
	placeholder: 'e.g. 25',
	description: 'Number of licenses, 1 to 100,000,000',
	displayOptions: { show: { '/priceModel': ['lump_sum'] } },
});

/** Required, and a top-level parameter, with the Per License price model. */
const perLicenseCount = variant(licenseCount, {
	required: true,
	requiredWhen: 'with the Per License price model',
	description:
		"Number of licenses, 1 to 100,000,000. Required when 'Price Model' is 'Per License'.",
	displayOptions: { show: { priceModel: ['per_license'] } },
});

export const description = updateDisplayOptions(
	{ show: { resource: ['subscription'], operation: ['updateBilling'] } },
	[
		subscriptionId.property,
		priceModel.property,
		cost.property,
		billingFrequency.property,
		perLicenseCount.property,
		additionalFields([eventDescription, eventDate, licenseCount]),
	],
);

export function buildRequest(input: ItemInput): PreparedRequest {
	const subscription = input.parameter(subscriptionId);
	const body = input.body([priceModel, cost, billingFrequency], [eventDate, eventDescription]);
	const licenses =
		body.price_model === 'per_license'
			? input.body([perLicenseCount])
			: input.body([], [licenseCount]);
	return {
		method: 'PUT',
		path: `/api/v1/subscriptions/${subscription}/billing`,
		body: { ...body, ...licenses },
		permission: 'subscriptions:update',
		record: `Subscription ${subscription}`,
	};
}
