import { nodeOutput } from '../harness/engine';
import {
	AVAILABLE_ASSET_STATE,
	PER_LICENSE_BILLING,
	PER_LICENSE_BILLING_BODY,
	PER_LICENSE_BILLING_STATE,
	updateBillingParameters,
} from '../fixtures';
import { recorded, runInventory, sent, TIMESTAMP, useSandbox, UUID_V5 } from './util';

const env = useSandbox();

const jsonHeaders = (key: unknown) => ({
	accept: 'application/json',
	'content-type': 'application/json',
	'idempotency-key': key,
});

describe('asset / createTodo', () => {
	test('sends every field and returns the unwrapped data', async () => {
		const { sandbox } = env;
		const run = await runInventory(sandbox, [{ asset: 1001 }], {
			resource: 'asset',
			operation: 'createTodo',
			assetId: '={{ $json.asset }}',
			name: 'Tag and label',
			additionalFields: {
				notes: 'Use the blue labels.\nSecond line.',
				dueDate: '2026-03-31T09:00:00',
				assignedTo: '102',
				isComplete: true,
			},
		});

		const requests = sent(sandbox);
		expect(requests).toEqual([
			{
				method: 'POST',
				path: '/api/v1/assets/1001/todos',
				headers: jsonHeaders(expect.stringMatching(UUID_V5)),
				body: {
					name: 'Tag and label',
					notes: 'Use the blue labels.\nSecond line.',
					due_date: '2026-03-31',
					is_complete: true,
					assigned_to: 102,
				},
			},
		]);

		const [todo] = sandbox.state().todos;
		expect(nodeOutput(run, 'Inventory')).toEqual([
			{
				json: {
					repeatCheck: recorded(sandbox),
					asset_id: 1001,
					asset_event_ids: [],
					subscription_event_ids: [],
					todo: {
						id: todo.id,
						name: 'Tag and label',
						// The API may answer notes as HTML; the node passes the response through unchanged.
						notes: 'Use the blue labels.<br>\nSecond line.',
						due_date: '2026-03-31',
						assigned_to: 102,
						created_by: 101,
						is_complete: true,
						created_at: expect.stringMatching(TIMESTAMP),
						updated_at: expect.stringMatching(TIMESTAMP),
					},
					tracker_disconnect_pending: false,
					state: AVAILABLE_ASSET_STATE,
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	test('sends only the required field when nothing else is set', async () => {
		const { sandbox } = env;
		await runInventory(sandbox, [{}], {
			resource: 'asset',
			operation: 'createTodo',
			assetId: '1002',
			name: 'Check battery',
		});
		expect(sent(sandbox).map(({ body }) => body)).toEqual([{ name: 'Check battery' }]);
	});

	test('due dates are calendar days in the workflow time zone, from picker, ISO and Luxon values', async () => {
		const { sandbox } = env;
		const run = await runInventory(
			sandbox,
			[{ due: '2026-03-31T23:30:00' }, { due: '2026-04-01T02:00:00+00:00' }, { due: '2026-04-01' }],
			{
				resource: 'asset',
				operation: 'createTodo',
				assetId: '1003',
				name: 'Return loaner',
				additionalFields: { dueDate: '={{ $json.due }}' },
			},
			{ settings: { timezone: 'America/New_York' } },
		);
		expect(run.status).toBe('success');
		expect(sent(sandbox).map(({ body }) => (body as { due_date: string }).due_date)).toEqual([
			'2026-03-31',
			'2026-03-31',
			'2026-04-01',
		]);
	});

	test('a Luxon DateTime from an expression is converted in the workflow time zone', async () => {
		const { sandbox } = env;
		await runInventory(
			sandbox,
			[{}],
			{
				resource: 'asset',
				operation: 'createTodo',
				assetId: '1003',
				name: 'Return loaner',
				additionalFields: { dueDate: "={{ DateTime.fromISO('2026-04-01T03:30:00Z') }}" },
			},
			{ settings: { timezone: 'America/New_York' } },
		);
		expect(sent(sandbox).map(({ body }) => body)).toEqual([
			{ name: 'Return loaner', due_date: '2026-03-31' },
		]);
	});
});

describe('subscription / updateBilling', () => {
	test('per license: sends every field, license count from the top-level parameter', async () => {
		const { sandbox } = env;
		const run = await runInventory(
			sandbox,
			[{}],
			updateBillingParameters(PER_LICENSE_BILLING, {
				eventDate: '2025-06-01T10:00:00',
				description: 'Renewal at the new price',
				licenseCount: 999,
			}),
			{ settings: { timezone: 'Asia/Kolkata' } },
		);

		expect(sent(sandbox)).toEqual([
			{
				method: 'PUT',
				path: '/api/v1/subscriptions/2002/billing',
				headers: jsonHeaders(expect.stringMatching(UUID_V5)),
				body: {
					...PER_LICENSE_BILLING_BODY,
					event_date: '2025-06-01T10:00:00+05:30',
					description: 'Renewal at the new price',
					license_count: 30,
				},
			},
		]);
		const [change] = sandbox.state().billingChanges;
		expect(nodeOutput(run, 'Inventory')).toEqual([
			{
				json: {
					repeatCheck: recorded(sandbox),
					subscription_id: 2002,
					subscription_event_ids: [change.subscription_event_id],
					todo: null,
					state: PER_LICENSE_BILLING_STATE,
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	test('lump sum: the optional license count comes from Additional Fields; upfront is spelled as the API wants', async () => {
		const { sandbox } = env;
		await runInventory(sandbox, [{}], {
			resource: 'subscription',
			operation: 'updateBilling',
			subscriptionId: '2001',
			priceModel: 'lump_sum',
			cost: 1500,
			billingFrequency: 'upfront',
			additionalFields: { licenseCount: 10 },
		});
		expect(sent(sandbox).map(({ body }) => body)).toEqual([
			{ price_model: 'lump_sum', cost: 1500, billing_frequency: 'upfront', license_count: 10 },
		]);
	});

	test('event dates keep the instant and carry the workflow time zone offset', async () => {
		const { sandbox } = env;
		await runInventory(
			sandbox,
			[{ when: '2025-06-01T00:00:00Z' }, { when: 'DateTime' }],
			{
				resource: 'subscription',
				operation: 'updateBilling',
				subscriptionId: '={{ 2003 + $itemIndex }}',
				priceModel: 'lump_sum',
				cost: 10,
				billingFrequency: 'monthly',
				additionalFields: {
					eventDate:
						"={{ $json.when === 'DateTime' ? DateTime.fromISO('2025-07-01T12:00:00', { zone: 'Europe/Paris' }) : $json.when }}",
				},
			},
			{ settings: { timezone: 'Asia/Kolkata' } },
		);
		expect(sent(sandbox).map(({ body }) => (body as { event_date: string }).event_date)).toEqual([
			'2025-06-01T05:30:00+05:30',
			'2025-07-01T15:30:00+05:30',
		]);
	});
});

describe('asset / recordAcquisition', () => {
	test('sends every field, custom field values from pairs and JSON together', async () => {
		const { sandbox } = env;
		const run = await runInventory(
			sandbox,
			[{}],
			{
				resource: 'asset',
				operation: 'recordAcquisition',
				assetId: '1004',
				eventTypeId: '303',
				additionalFields: {
					eventDate: '2025-05-02T08:15:00',
					description: 'Financed through the bank',
					acquiredFrom: 'ACME Hardware Ltd',
					price: 1200,
					cost: 200,
					salvageValue: 50.5,
					financeAmount: 1000,
					paymentPlan: {
						plan: { payment: 87.25, billingFrequency: 'monthly', numberOfPayments: 12 },
					},
					fieldValues: { values: [{ fieldId: '403', type: 'number', value: '3.5' }] },
					fieldValuesJson: '{ "404": "2025-06-01" }',
				},
			},
			{ settings: { timezone: 'Europe/Berlin' } },
		);

		expect(sent(sandbox)).toEqual([
			{
				method: 'POST',
				path: '/api/v1/assets/1004/acquisitions',
				headers: jsonHeaders(expect.stringMatching(UUID_V5)),
				body: {
					event_type_id: 303,
					event_date: '2025-05-02T08:15:00+02:00',
					description: 'Financed through the bank',
					acquired_from: 'ACME Hardware Ltd',
					price: 1200,
					cost: 200,
					salvage_value: 50.5,
					finance_amount: 1000,
					payment: 87.25,
					billing_frequency: 'monthly',
					number_of_payments: 12,
					field_values: { '404': '2025-06-01', '403': 3.5 },
				},
			},
		]);
		const [acquisition] = sandbox.state().acquisitions;
		expect(nodeOutput(run, 'Inventory')).toEqual([
			{
				json: {
					repeatCheck: recorded(sandbox),
					asset_id: 1004,
					asset_event_ids: acquisition.asset_event_ids,
					subscription_event_ids: [],
					todo: null,
					tracker_disconnect_pending: false,
					state: AVAILABLE_ASSET_STATE,
				},
				pairedItem: { item: 0 },
			},
		]);
		expect(acquisition.asset_event_ids).toHaveLength(1);
	});

	test('reactivating a decommissioned asset returns several asset event IDs', async () => {
		const { sandbox } = env;
		const run = await runInventory(sandbox, [{}], {
			resource: 'asset',
			operation: 'recordAcquisition',
			assetId: '1101',
			eventTypeId: '301',
		});
		const [item] = nodeOutput(run, 'Inventory');
		expect(sent(sandbox).map(({ body }) => body)).toEqual([{ event_type_id: 301 }]);
		expect((item.json.asset_event_ids as number[]).length).toBeGreaterThan(1);
		expect(item.json.asset_event_ids).toEqual(sandbox.state().acquisitions[0].asset_event_ids);
	});
});

test('one output item per input item, in order, each paired with its input', async () => {
	const { sandbox } = env;
	const run = await runInventory(sandbox, [{ asset: 1005 }, { asset: 1006 }, { asset: 1007 }], {
		resource: 'asset',
		operation: 'createTodo',
		assetId: '={{ $json.asset }}',
		name: 'Label',
	});
	const output = nodeOutput(run, 'Inventory');
	expect(output.map(({ json, pairedItem }) => [json.asset_id, pairedItem])).toEqual([
		[1005, { item: 0 }],
		[1006, { item: 1 }],
		[1007, { item: 2 }],
	]);
});
