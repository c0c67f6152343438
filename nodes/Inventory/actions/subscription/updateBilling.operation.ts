import { updateDisplayOptions } from 'n8n-workflow';

import { field, ONE_OF_FORM_OPTIONS } from '../../values/field';
import type { ItemInput } from '../../values/itemInput';
import { AMOUNT } from '../../values/checks';
import { AMOUNT_RANGE, countWords } from '../../values/rangeWords';
import { BILLING_FREQUENCIES, eventDate, eventDescription, subscriptionId } from '../common.fields';
import type { ActionKind } from '../../idempotency/keys';
import type { BuiltRequest } from '../node.type';

const PRICE_MODELS = [
	{ name: 'Lump Sum', value: 'lump_sum', description: 'One price for the whole subscription' },
	{ name: 'Per License', value: 'per_license', description: 'The cost is per license' },
];

// The billing values start empty: a value the user never chose is never sent (n8n saves no parameter
// left at its default, so a default could not be told from a choice). Empty, the node refuses the item.
const priceModel = field({
	property: {
		displayName: 'Price Model',
		name: 'priceModel',
		type: 'options',
		default: '',
		required: true,
		options: PRICE_MODELS,
		description: 'Whether the cost is for the whole subscription or per license',
	},
	check: ONE_OF_FORM_OPTIONS,
	apiField: 'price_model',
});

const cost = field({
	property: {
		displayName: 'Cost',
		name: 'cost',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 1249.99',
		description: `The billing amount, ${AMOUNT_RANGE}`,
	},
	check: AMOUNT,
	apiField: 'cost',
});

const billingFrequency = field({
	property: {
		displayName: 'Billing Frequency',
		name: 'billingFrequency',
		type: 'options',
		default: '',
		required: true,
		options: BILLING_FREQUENCIES,
		description: 'How often the cost is billed, or Upfront for a one-time purchase',
	},
	check: ONE_OF_FORM_OPTIONS,
	apiField: 'billing_frequency',
});

/**
 * A count of licenses, typed as text like every amount and count. The form shows License Count in two
 * places, top level with Per License (where it is required) and under Additional Fields with Lump Sum;
 * n8n's lint reads each as a literal of its own, and both take this check and its range.
 */
const LICENSE_COUNT = { kind: 'integer', min: 1, max: 100_000_000 } as const;
export const LICENSE_COUNT_RANGE = countWords(LICENSE_COUNT);

/** Optional, under Additional Fields, with the Lump Sum price model. */
const licenseCount = field({
	property: {
		displayName: 'License Count',
		name: 'licenseCount',
		type: 'string',
		default: '',
		placeholder: 'e.g. 25',
		description: `Number of licenses, ${LICENSE_COUNT_RANGE}`,
		displayOptions: { show: { '/priceModel': ['lump_sum'] } },
	},
	check: LICENSE_COUNT,
	apiField: 'license_count',
});

/** Required (by the node: see FieldDeclaration.requiredWhen), and a top-level parameter, with the Per License price model. */
const perLicenseCount = field({
	property: {
		displayName: 'License Count',
		name: 'licenseCount',
		type: 'string',
		default: '',
		placeholder: 'e.g. 25',
		description: `Number of licenses, ${LICENSE_COUNT_RANGE}. Required when 'Price Model' is 'Per License'.`,
		displayOptions: { show: { priceModel: ['per_license'] } },
	},
	check: LICENSE_COUNT,
	apiField: 'license_count',
	requiredWhen: 'with the Per License price model',
});

export const description = updateDisplayOptions(
	{ show: { resource: ['subscription'], operation: ['updateBilling'] } },
	[
		subscriptionId.property,
		priceModel.property,
		cost.property,
		billingFrequency.property,
		perLicenseCount.property,
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [eventDescription.property, eventDate.property, licenseCount.property],
		},
	],
);

/** One billing change per subscription and row. */
export const action: ActionKind = { noun: 'a billing change' };

export function buildRequest(input: ItemInput): BuiltRequest {
	const subscription = input.record('subscription', subscriptionId);
	const body = input.body([priceModel, cost, billingFrequency], [eventDate, eventDescription]);
	const licenses =
		body.price_model === 'per_license'
			? input.body([perLicenseCount])
			: input.body([], [licenseCount]);
	return {
		method: 'PUT',
		path: `/api/v1/subscriptions/${subscription.id}/billing`,
		body: { ...body, ...licenses },
		permission: 'subscriptions:update',
		record: subscription,
	};
}
