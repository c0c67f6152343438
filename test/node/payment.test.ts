import type { INode } from 'n8n-workflow';

import { nodeOutput } from '../harness/engine';
import { runError, runInventory, sent, useSandbox } from './util';

const env = useSandbox();

const acquisition = (additionalFields: INode['parameters']) => ({
	resource: 'asset',
	operation: 'recordAcquisition',
	assetId: '1004',
	eventTypeId: '303',
	// event type 303 (financed purchase) asks for custom field 403
	additionalFields: { ...additionalFields, fieldValuesJson: '{ "403": 3.5 }' },
});

describe('Payment bundled with Billing Frequency and Number of Payments', () => {
	test('the Payment entry sends its three fields after the other optional fields', async () => {
		const { sandbox } = env;
		const terms = { payment: 87.25, billingFrequency: 'Quarterly', numberOfPayments: 8 };
		const run = await runInventory(
			sandbox,
			[{}],
			acquisition({ financeAmount: 1000, paymentPlan: { plan: terms }, acquiredFrom: 'ACME' }),
		);
		const expectedBody = {
			event_type_id: 303,
			acquired_from: 'ACME',
			finance_amount: 1000,
			payment: 87.25,
			billing_frequency: 'Quarterly',
			number_of_payments: 8,
			field_values: { '403': 3.5 },
		};
		expect(sent(sandbox).map(({ method, path, body }) => ({ method, path, body }))).toEqual([
			{ method: 'POST', path: '/api/v1/assets/1004/acquisitions', body: expectedBody },
		]);
		expect(JSON.stringify(sent(sandbox)[0].body)).toBe(JSON.stringify(expectedBody));
		expect(nodeOutput(run, 'Inventory')).toHaveLength(1);
	});

	test.each([
		['Payment', { payment: '', billingFrequency: 'Quarterly', numberOfPayments: '' }, 'payment'],
		[
			'Billing Frequency',
			{ payment: 50, billingFrequency: '', numberOfPayments: '' },
			'billingFrequency',
		],
	])(
		'the entry added without a %s refuses the item, naming the field, and nothing is sent',
		async (label, plan, parameter) => {
			const { sandbox } = env;
			const run = await runInventory(sandbox, [{}], acquisition({ paymentPlan: { plan } }));
			const apiField = parameter === 'payment' ? 'payment' : 'billing_frequency';
			expect(runError(run)).toEqual({
				message: `${label} is required [item 0]`,
				description: `Parameter "${parameter}" (API field "${apiField}"). Nothing was sent to the Inventory API for this item.`,
				httpCode: undefined,
			});
			expect(sent(sandbox)).toEqual([]);
		},
	);

	test('a bad value in the bundle names the field and the item, and nothing is sent', async () => {
		const { sandbox } = env;
		const run = await runInventory(
			sandbox,
			[{}],
			acquisition({
				paymentPlan: {
					plan: {
						payment: 'lots',
						billingFrequency: 'monthly',
						numberOfPayments: 12,
					},
				},
			}),
		);
		expect(runError(run)).toEqual({
			message: 'Payment must be a number, got "lots" [item 0]',
			description:
				'Parameter "payment" (API field "payment"). Nothing was sent to the Inventory API for this item.',
			httpCode: undefined,
		});
		expect(sent(sandbox)).toEqual([]);
	});
});
