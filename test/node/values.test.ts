/**
 * Values as people give them, read the same way: amounts computed in an
 * expression, choices by name or value in any letter case, the booleans sheets and forms write,
 * dates and times with a space, empty cells; and custom field pairs sent as their Type says. Each
 * value comes from an item through an expression; the test asserts the exact request bodies sent.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SHEET_AMOUNTS, SHEET_DATES } from '../fixtures';
import { nodeOutput } from '../harness/engine';
import { runInventory, useSandbox } from './util';

const env = useSandbox();
const bodies = () => env.sandbox.requests().map(({ path, body }) => ({ path, body }));

async function run(
	items: IDataObject[],
	parameters: INodeParameters,
	timezone = 'America/New_York',
) {
	// These rows are keyed by execution: what they test is how values are read.
	const keyed = { ...parameters, repeatProtection: 'execution' };
	const result = await runInventory(env.sandbox, items, keyed, { settings: { timezone } });
	expect(result.status).toBe('success');
	expect(nodeOutput(result, 'Inventory')).toHaveLength(items.length);
	return result;
}

/** Update Billing of subscription `2001 + $itemIndex` (lump sum, yearly) with these parameters. */
const billing = (parameters: INodeParameters): INodeParameters => ({
	resource: 'subscription',
	operation: 'updateBilling',
	subscriptionId: '={{ 2001 + $itemIndex }}',
	priceModel: 'lump_sum',
	cost: 10,
	billingFrequency: 'yearly',
	...parameters,
});

describe('values as expressions and sheets give them', () => {
	test('amounts within floating-point noise of a cent are that cent', async () => {
		await run(
			[
				{ a: 0.1, b: 0.2 },
				{ a: 12.5, b: 1.1 },
				{ a: '1079.99', b: 1 },
			],
			{
				...billing({}),
				cost: '={{ $itemIndex === 0 ? $json.a + $json.b : $json.a * $json.b }}',
			},
		);
		expect(bodies().map(({ body }) => (body as IDataObject).cost)).toEqual([0.3, 13.75, 1079.99]);
	});

	// Amounts and counts are text fields: what is typed reaches the node as typed (n8n's number input
	// read `12,50` as 1250) and is read as a sheet's value is.
	test.each([
		['12,50', 12.5],
		['1.079,99', 1079.99],
		['1,249.00', 1249],
		['$10.00', 10],
		[' 99.5 ', 99.5],
	])('a Cost typed into the form as %j is booked as %j', async (typed, cost) => {
		await run([{}], billing({ cost: typed }));
		expect(bodies()).toEqual([
			{
				path: '/api/v1/subscriptions/2001/billing',
				body: { price_model: 'lump_sum', cost, billing_frequency: 'yearly' },
			},
		]);
	});

	test('every amount and count typed into the form as text, a decimal comma or a thousands separator too', async () => {
		await run([{}], {
			resource: 'asset',
			operation: 'recordAcquisition',
			assetId: '1001',
			eventTypeId: '303',
			additionalFields: {
				price: '1.249,99',
				cost: '249,99',
				salvageValue: '100,5',
				financeAmount: '1.000,00',
				paymentPlan: {
					plan: { payment: '87,25', billingFrequency: 'monthly', numberOfPayments: '1,000' },
				},
				fieldValues: { values: [{ fieldId: '403', type: 'number', value: '2' }] },
			},
		});
		await run([{}], billing({ priceModel: 'per_license', licenseCount: '1,500' }));
		expect(bodies().map(({ body }) => body)).toEqual([
			{
				event_type_id: 303,
				price: 1249.99,
				cost: 249.99,
				salvage_value: 100.5,
				finance_amount: 1000,
				payment: 87.25,
				billing_frequency: 'monthly',
				number_of_payments: 1000,
				field_values: { '403': 2 },
			},
			{ price_model: 'per_license', cost: 10, billing_frequency: 'yearly', license_count: 1500 },
		]);
	});

	test('choices by the API value or the name, in any letter case, with spaces or underscores', async () => {
		const items = [
			{ model: 'Lump Sum', frequency: 'Monthly' },
			{ model: 'lump_sum', frequency: 'QUARTERLY' },
			{ model: 'LUMP SUM', frequency: 'quarterly' },
			{ model: 'lump-sum', frequency: 'upfront' },
		];
		await run(items, {
			...billing({}),
			priceModel: '={{ $json.model }}',
			billingFrequency: '={{ $json.frequency }}',
		});
		expect(bodies()).toEqual(
			['monthly', 'Quarterly', 'Quarterly', 'upfront'].map((frequency, item) => ({
				path: `/api/v1/subscriptions/${2001 + item}/billing`,
				body: { price_model: 'lump_sum', cost: 10, billing_frequency: frequency },
			})),
		);
	});

	test('Per License by its name sends per_license with the license count it requires', async () => {
		await run([{ model: 'Per License' }, { model: 'per_license' }], {
			...billing({}),
			subscriptionId: '={{ [2002, 2005][$itemIndex] }}',
			priceModel: '={{ $json.model }}',
			licenseCount: 25,
		});
		expect(bodies().map(({ body }) => body)).toEqual([
			{ price_model: 'per_license', cost: 10, billing_frequency: 'yearly', license_count: 25 },
			{ price_model: 'per_license', cost: 10, billing_frequency: 'yearly', license_count: 25 },
		]);
	});

	test('booleans as sheets and forms write them; an empty cell leaves the field out', async () => {
		const values = ['TRUE', 'False', 'yes', 'No', '1', 0, ' true ', ''];
		await run(
			// Each row has a task besides the cell: a row whose cells are all empty is a blank row.
			values.map((done, row) => ({ task: `T${row}`, done })),
			{
				resource: 'asset',
				operation: 'createTodo',
				assetId: '1001',
				name: 'Tag and label',
				additionalFields: { isComplete: '={{ $json.done }}', notes: '={{ $json.notes }}' },
			},
		);
		expect(bodies().map(({ body }) => body)).toEqual([
			...[true, false, true, false, true, false, true].map((done) => ({
				name: 'Tag and label',
				is_complete: done,
			})),
			{ name: 'Tag and label' },
		]);
	});

	test("dates and times with a space instead of T, in the workflow's time zone", async () => {
		const acquisition = {
			resource: 'asset',
			operation: 'recordAcquisition',
			assetId: '={{ 1001 + $itemIndex }}',
			eventTypeId: '301',
			additionalFields: { eventDate: '={{ $json.at }}' },
		};
		await run([{ at: '2026-01-15 10:00' }, { at: '2026-07-15 10:00:30' }], acquisition);
		await run([{ at: '2026-01-16 09:15' }], acquisition, 'Europe/Berlin');
		await run(
			[{ due: '2026-11-20 10:00' }, { due: '2026-11-20 23:30' }],
			{
				resource: 'asset',
				operation: 'createTodo',
				assetId: '1004',
				name: 'Tag and label',
				additionalFields: { dueDate: '={{ $json.due }}' },
			},
			'Pacific/Auckland',
		);
		expect(bodies().map(({ body }) => body)).toEqual([
			{ event_type_id: 301, event_date: '2026-01-15T10:00:00-05:00' },
			{ event_type_id: 301, event_date: '2026-07-15T10:00:30-04:00' },
			{ event_type_id: 301, event_date: '2026-01-16T09:15:00+01:00' },
			{ name: 'Tag and label', due_date: '2026-11-20' },
			{ name: 'Tag and label', due_date: '2026-11-20' },
		]);
	});
});

/** Record Acquisition (Purchase) of asset `first` + item, its event date from `$json.at`. */
const acquiredAt = (options: INodeParameters = {}, first = 1001): INodeParameters => ({
	resource: 'asset',
	operation: 'recordAcquisition',
	assetId: `={{ ${first} + $itemIndex }}`,
	eventTypeId: '301',
	additionalFields: { eventDate: '={{ $json.at }}' },
	options,
});

/** Create Todo on asset 1001 with the due date `$json.due`. */
const dueOn = (options: INodeParameters = {}): INodeParameters => ({
	resource: 'asset',
	operation: 'createTodo',
	assetId: '1001',
	name: 'Tag and label',
	additionalFields: { dueDate: '={{ $json.due }}' },
	options,
});

const sentField = (field: string) => bodies().map(({ body }) => (body as IDataObject)[field]);

describe('dates, serial days and numbers as sheets write them', () => {
	test("dates with one reading, with or without a time of day, in the workflow's time zone", async () => {
		const values = [
			...SHEET_DATES.map(([at]) => at),
			'2026-11-20 2:30 pm',
			// Intl's date and time, with a no-break space and a narrow no-break space, spaces around
			' 11/20/2026\u00a02:30\u202fPM ',
			// The same day either way
			'07/07/2026 12:00 AM',
		];
		await run(
			values.map((at) => ({ at })),
			acquiredAt(),
		);
		expect(sentField('event_date')).toEqual([
			// New York is at -05:00 on every day of SHEET_DATES (November, January)
			...SHEET_DATES.map(([, wallClock]) => `${wallClock}-05:00`),
			'2026-11-20T14:30:00-05:00',
			'2026-11-20T14:30:00-05:00',
			'2026-07-07T00:00:00-04:00',
		]);
	});

	test('serial day numbers (fraction: the time of day, on the wall clock) and Unix times', async () => {
		const values = [
			46346,
			46346.604166666664,
			'46346',
			// 2026-07-15 10:00 in Berlin, summer time
			46218.416666666664,
			1768471200,
			1768471200000,
			'1768471200.5',
		];
		await run(
			values.map((at) => ({ at })),
			acquiredAt(),
			'Europe/Berlin',
		);
		await run([{ due: 46346 }, { due: 46346.99 }], dueOn(), 'Pacific/Auckland');
		expect(sentField('event_date').slice(0, values.length)).toEqual([
			'2026-11-20T00:00:00+01:00',
			'2026-11-20T14:30:00+01:00',
			'2026-11-20T00:00:00+01:00',
			'2026-07-15T10:00:00+02:00',
			'2026-01-15T11:00:00+01:00',
			'2026-01-15T11:00:00+01:00',
			'2026-01-15T11:00:00+01:00',
		]);
		expect(sentField('due_date').slice(values.length)).toEqual(['2026-11-20', '2026-11-20']);
	});

	test('Options → Date Order reads every date whose day and month could be either', async () => {
		const items = [{ at: '04/05/2026' }, { at: '4.5.2026 10:00' }, { at: '20/11/2026' }];
		await run(items, acquiredAt({ dateOrder: 'dayFirst' }));
		await run(
			[{ at: '04/05/2026' }, { at: '11/20/2026' }],
			acquiredAt({ dateOrder: 'monthFirst' }, 1011),
		);
		expect(sentField('event_date')).toEqual([
			'2026-05-04T00:00:00-04:00',
			'2026-05-04T10:00:00-04:00',
			'2026-11-20T00:00:00-05:00',
			'2026-04-05T00:00:00-04:00',
			'2026-11-20T00:00:00-05:00',
		]);
	});

	test('amounts and counts with thousands separators, a decimal comma, a currency sign, spaces around', async () => {
		const costs = SHEET_AMOUNTS.map(([cost]) => cost);
		await run(
			costs.map((cost) => ({ cost, seats: '1,200' })),
			billing({
				subscriptionId: '={{ [2002, 2005][$itemIndex % 2] }}',
				priceModel: 'per_license',
				cost: '={{ $json.cost }}',
				licenseCount: '={{ $json.seats }}',
			}),
		);
		expect(sentField('cost')).toEqual(SHEET_AMOUNTS.map(([, amount]) => amount));
		expect(sentField('license_count')).toEqual(costs.map(() => 1200));
	});
});

test('a Number custom field written with a thousands separator and a decimal comma', async () => {
	await run([{ rate: '4,5' }, { rate: '1.249,50' }, { rate: '1 249' }], {
		resource: 'asset',
		operation: 'recordAcquisition',
		assetId: '={{ 1001 + $itemIndex }}',
		eventTypeId: '303',
		additionalFields: {
			fieldValues: { values: [{ fieldId: '403', type: 'number', value: '={{ $json.rate }}' }] },
		},
	});
	expect(sentField('field_values')).toEqual([{ '403': 4.5 }, { '403': 1249.5 }, { '403': 1249 }]);
});

describe('custom field pairs, each sent as its Type says', () => {
	/** A Lease (302) of asset 1001 + item: its text field 401 and its single choice field 402. */
	const lease = (pairs: IDataObject[]): INodeParameters => ({
		resource: 'asset',
		operation: 'recordAcquisition',
		assetId: '={{ 1001 + $itemIndex }}',
		eventTypeId: '302',
		additionalFields: { fieldValues: { values: pairs } } as INodeParameters,
	});

	test('a pair typed Auto-Detect sends a number, true or false as such, other text as text', async () => {
		await run(
			[{}],
			lease([
				{ fieldId: '401', type: 'auto', value: '004512' },
				{ fieldId: '402', type: 'auto', value: '4021' },
			]),
		);
		expect(bodies().map(({ body }) => (body as IDataObject).field_values)).toEqual([
			{ '401': '004512', '402': 4021 },
		]);
	});

	test('a lease number typed String stays text; an option ID typed Number is a number', async () => {
		await run(
			[{ lease: 12345, company: '4022' }],
			lease([
				{ fieldId: '401', type: 'string', value: '={{ $json.lease }}' },
				{ fieldId: '402', type: 'number', value: '={{ $json.company }}' },
			]),
		);
		expect(bodies().map(({ body }) => (body as IDataObject).field_values)).toEqual([
			{ '401': '12345', '402': 4022 },
		]);
	});

	test('a pair without a Type is sent as text, exactly as typed', async () => {
		const result = await runInventory(
			env.sandbox,
			[{}],
			{
				...lease([
					{ fieldId: '401', value: '12345' },
					{ fieldId: '402', value: '4021' },
				]),
				repeatProtection: 'execution',
			},
			{ node: { onError: 'continueRegularOutput' } },
		);
		// The text field takes the lease number; the choice field asks for its option ID as a number.
		expect(bodies().map(({ body }) => (body as IDataObject).field_values)).toEqual([
			{ '401': '12345', '402': '4021' },
		]);
		expect(String(nodeOutput(result, 'Inventory')[0].json.error)).toMatch(/422/);
	});

	test('Boolean and Array pairs: the words sheets write, a JSON list of option IDs', async () => {
		await run([{ insured: 'Yes' }], {
			resource: 'asset',
			operation: 'recordAcquisition',
			assetId: '1001',
			eventTypeId: '303',
			additionalFields: {
				fieldValues: {
					values: [
						{ fieldId: '403', type: 'number', value: '4.5' },
						{ fieldId: '405', type: 'boolean', value: '={{ $json.insured }}' },
					],
				},
			},
		});
		await run([{}], {
			resource: 'asset',
			operation: 'recordAcquisition',
			assetId: '1002',
			eventTypeId: '304',
			additionalFields: {
				fieldValues: { values: [{ fieldId: '406', type: 'array', value: '[4061, 4062]' }] },
			},
		});
		expect(bodies().map(({ body }) => (body as IDataObject).field_values)).toEqual([
			{ '403': 4.5, '405': true },
			{ '406': [4061, 4062] },
		]);
	});
});
