/**
 * Nothing is sent that the user did not choose. Update Billing's required values (Price Model, Cost,
 * Billing Frequency, License Count with Per License) start empty, and a node left so refuses the item
 * naming the field; an amount or count added to Additional Fields and left empty (as n8n adds it)
 * is not sent. Parameters left out here are left out as n8n saves a node: at their defaults.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { PER_LICENSE_BILLING, subscriptionState } from '../fixtures';
import { nodeOutput } from '../harness/engine';
import { runError, runInventory, sent, useSandbox } from './util';

const env = useSandbox();

const billing = (parameters: INode['parameters']) => ({
	resource: 'subscription',
	operation: 'updateBilling',
	subscriptionId: '2001',
	...parameters,
});
const requiredText = (label: string, parameter: string, apiField: string, when = '') => ({
	message: `${label} is required${when} [item 0]`,
	description: `Parameter "${parameter}" (API field "${apiField}"). Nothing was sent to the Inventory API for this item.`,
	httpCode: undefined,
});

/** Two rows of a sheet: the subscription, its cost and its seats, as numbers and as text. */
const SHEET_ROWS = [
	{ subscription: 2001, cost: 12.5, seats: 30 },
	{ subscription: 2002, cost: '9.90', seats: '25' },
];

/**
 * Per License billing (keyed by execution), each row's subscription, cost and seats
 * mapped from its columns; `parameters` adds to it (the frequency is not chosen unless they choose it).
 */
const runSheetRows = (rows: IDataObject[], parameters: INode['parameters'] = {}) =>
	runInventory(
		env.sandbox,
		rows,
		billing({
			repeatProtection: 'execution',
			subscriptionId: '={{ $json.subscription }}',
			priceModel: 'per_license',
			cost: '={{ $json.cost }}',
			licenseCount: '={{ $json.seats }}',
			...parameters,
		}),
		{},
	);

describe('Update Billing: a required value not chosen refuses the item, and nothing is sent', () => {
	// A choice or an amount left empty is a parameter issue to n8n, as in the editor: it runs no such
	// workflow. (Amounts are text fields, which n8n requires as it does choices; License Count is
	// required by the node, with Per License: n8n would require it whenever Price Model is an expression.)
	test('a new node with only its Subscription ID is not run at all', async () => {
		const { sandbox } = env;
		await expect(
			runInventory(sandbox, [{}], billing({ repeatProtection: 'execution' })),
		).rejects.toThrow(
			new Error(
				"The 'Inventory' node has issues:\n" +
					'- Parameter "Price Model" is required.\n' +
					'- Parameter "Cost" is required.\n' +
					'- Parameter "Billing Frequency" is required.',
			),
		);
		expect(sent(sandbox)).toEqual([]);
	});

	test('Cost left empty in the form: not run', async () => {
		const { sandbox } = env;
		await expect(
			runInventory(sandbox, [{}], billing({ priceModel: 'lump_sum', billingFrequency: 'yearly' })),
		).rejects.toThrow(
			new Error('The \'Inventory\' node has issues:\n- Parameter "Cost" is required.'),
		);
		expect(sent(sandbox)).toEqual([]);
	});

	test('cost and seats mapped from a sheet, the frequency not chosen: not run, the subscription unchanged', async () => {
		const { sandbox } = env;
		const before = sandbox.state();
		await expect(runSheetRows(SHEET_ROWS)).rejects.toThrow(
			new Error('The \'Inventory\' node has issues:\n- Parameter "Billing Frequency" is required.'),
		);
		expect(sent(sandbox)).toEqual([]);
		expect(sandbox.state().subscriptions).toEqual(before.subscriptions);
	});

	// License Count left empty, and any value an expression leaves empty, the node itself refuses.
	test.each([
		[
			'Cost',
			{ priceModel: 'lump_sum', cost: '={{ $json.cost }}', billingFrequency: 'yearly' },
			['cost', 'cost'],
		],
		[
			'License Count',
			{ priceModel: 'per_license', cost: 12.5, billingFrequency: 'yearly' },
			['licenseCount', 'license_count', ' with the Per License price model'],
		],
		[
			'Price Model',
			{ priceModel: '={{ $json.model }}', cost: 1200, billingFrequency: 'yearly' },
			['priceModel', 'price_model'],
		],
		[
			'Billing Frequency',
			{ priceModel: 'lump_sum', cost: 1200, billingFrequency: '={{ $json.frequency }}' },
			['billingFrequency', 'billing_frequency'],
		],
	])('%s not chosen', async (label, parameters, [parameter, apiField, when]) => {
		const { sandbox } = env;
		const run = await runInventory(
			sandbox,
			// A row with empty cells, not a blank row (blank-rows.test.ts): it has its subscription.
			[{ subscription: 2001, model: '', frequency: null, cost: ' ', seats: '' }],
			billing(parameters),
		);
		expect(runError(run)).toEqual(requiredText(label, parameter, apiField, when));
		expect(sent(sandbox)).toEqual([]);
	});

	test('a column of the sheet the frequency comes from is empty: no row is sent', async () => {
		const { sandbox } = env;
		const before = sandbox.state();
		const run = await runSheetRows(
			SHEET_ROWS.map((row) => ({ ...row, frequency: '' })),
			{ billingFrequency: '={{ $json.frequency }}' },
		);
		const error = run.data.resultData.error;
		expect([error?.message, error?.description]).toEqual([
			'Nothing was sent: 2 of 2 items failed their checks. The first: Billing Frequency is required [item 0]',
			'Nothing was sent. Billing Frequency is required [item 0]; Billing Frequency is required [item 1]. Correct them and run again, or set On Error to "Continue (using error output)" to send the items that pass and get every failing item, with its reasons, on the error output.',
		]);
		expect(sent(sandbox)).toEqual([]);
		expect(sandbox.state().subscriptions).toEqual(before.subscriptions);
	});

	test('chosen, by the form or by expressions, the same values are sent as before', async () => {
		const { sandbox } = env;
		const run = await runInventory(
			sandbox,
			[{ model: 'Per License', cost: '12.50', frequency: 'QUARTERLY', seats: 30 }],
			billing({
				priceModel: '={{ $json.model }}',
				cost: '={{ $json.cost }}',
				billingFrequency: '={{ $json.frequency }}',
				licenseCount: '={{ $json.seats }}',
			}),
		);
		await runInventory(sandbox, [{}], billing(PER_LICENSE_BILLING));
		const body = {
			price_model: 'per_license',
			cost: 12.5,
			billing_frequency: 'Quarterly',
			license_count: 30,
		};
		expect(sent(sandbox).map(({ body }) => body)).toEqual([body, body]);
		expect(nodeOutput(run, 'Inventory')[0].json.state).toEqual(
			subscriptionState({ ...body, cost: '12.50' }),
		);
	});
});

describe('an amount or count added to Additional Fields and left empty is not sent', () => {
	/** n8n adds a collection's field with its default, so an added field never set holds that. */
	const addedEmpty = { price: '', salvageValue: '', financeAmount: '' };

	test('Record Acquisition: Price, Salvage Value, Finance Amount, Cost, and the Payment entry’s Number of Payments', async () => {
		const { sandbox } = env;
		await runInventory(
			sandbox,
			[{}],
			{
				resource: 'asset',
				operation: 'recordAcquisition',
				repeatProtection: 'execution',
				assetId: '1004',
				eventTypeId: '303',
				additionalFields: {
					...addedEmpty,
					cost: '',
					fieldValuesJson: '{ "403": 3.5 }',
					paymentPlan: { plan: { payment: 50, billingFrequency: 'monthly', numberOfPayments: '' } },
				},
			},
			{},
		);
		expect(sent(sandbox).map(({ body }) => body)).toEqual([
			{
				event_type_id: 303,
				payment: 50,
				billing_frequency: 'monthly',
				field_values: { '403': 3.5 },
			},
		]);
	});

	test('Update Billing with Lump Sum: License Count', async () => {
		const { sandbox } = env;
		await runInventory(
			sandbox,
			[{}],
			billing({
				priceModel: 'lump_sum',
				cost: 1200,
				billingFrequency: 'yearly',
				additionalFields: { licenseCount: '' },
			}),
		);
		expect(sent(sandbox).map(({ body }) => body)).toEqual([
			{ price_model: 'lump_sum', cost: 1200, billing_frequency: 'yearly' },
		]);
	});
});
