import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../../helpers/fields';
import * as updateBilling from './updateBilling.operation';

export { updateBilling };

export const description: INodeProperties[] = [
	operationSelector('subscription', [
		{
			name: 'Update Billing',
			value: 'updateBilling',
			description: "Replace a subscription's billing values and record a billing-change event",
			action: 'Update subscription billing',
		},
	]),
	...updateBilling.description,
];
