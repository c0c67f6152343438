import { TOKENS } from '../../test/fixtures';
import { acquisition, ASSET_RESULT_KEYS, eventDate, todo, useTestSandbox } from './helpers';

const t = useTestSandbox();

const lease = { event_type_id: 302, field_values: { '401': 'L-2026-001', '402': 4021 } };
const financed = { event_type_id: 303, field_values: { '403': 4.5 } };

describe('POST /api/v1/assets/{record}/acquisitions', () => {
	test('201 with the asset result: one asset event, todo null', async () => {
		const r = await acquisition(t.http, 1001, {
			event_type_id: 301,
			acquired_from: 'Dell',
			price: 1299.99,
			cost: 1299.99,
			description: 'PO 77',
		});
		expect(r.status).toBe(201);
		expect(Object.keys(r.data)).toEqual(['data']);
		const d = r.data.data;
		expect(Object.keys(d).sort()).toEqual(ASSET_RESULT_KEYS);
		expect(d).toMatchObject({
			asset_id: 1001,
			subscription_event_ids: [],
			todo: null,
			tracker_disconnect_pending: false,
		});
		expect(d.asset_event_ids).toHaveLength(1);
		expect(d.state.status).toBe('available');
		const s = t.sb.state();
		expect(s.assetEvents).toEqual([
			expect.objectContaining({
				id: d.asset_event_ids[0],
				asset_id: 1001,
				kind: 'acquisition',
				event_type_id: 301,
			}),
		]);
		expect(s.acquisitions[0]).toMatchObject({
			asset_id: 1001,
			acquired_from: 'Dell',
			price: '1299.99',
			cost: '1299.99',
			description: 'PO 77',
			reactivated: false,
		});
		expect(s.assets.find((a) => a.id === 1001)?.acquisition).toMatchObject({
			event_type_id: 301,
			acquired_from: 'Dell',
		});
	});

	test('price defaults to cost when omitted; explicit null stays null', async () => {
		await acquisition(t.http, 1001, { event_type_id: 301, cost: 250 });
		await acquisition(t.http, 1002, { event_type_id: 301, cost: 250, price: null });
		const [a, b] = t.sb.state().acquisitions;
		expect(a.price).toBe('250.00');
		expect(b.price).toBeNull();
	});

	test('many acquisitions on one asset with the default event_date all succeed', async () => {
		const ids = new Set<number>();
		for (let i = 0; i < 15; i++) {
			const r = await acquisition(t.http, 1004, { event_type_id: 301 });
			expect(r.status).toBe(201);
			ids.add(r.data.data.asset_event_ids[0]);
		}
		expect(ids.size).toBe(15);
	});

	test('many acquisitions on one asset with event_date = now (seconds) all succeed', async () => {
		for (let i = 0; i < 5; i++) {
			expect(
				(await acquisition(t.http, 1005, { event_type_id: 301, event_date: eventDate(new Date()) }))
					.status,
			).toBe(201);
			expect((await acquisition(t.http, 1005, { event_type_id: 301 })).status).toBe(201);
		}
	});

	test('custom field values: required, datatypes, allowed option IDs', async () => {
		expect((await acquisition(t.http, 1001, lease)).status).toBe(201);
		expect(
			(
				await acquisition(t.http, 1002, {
					...financed,
					field_values: { '403': 3, '404': '2026-01-15', '405': true },
				})
			).status,
		).toBe(201);
		expect(
			(
				await acquisition(t.http, 1003, {
					event_type_id: 304,
					field_values: { '406': [4061, 4062] },
				})
			).status,
		).toBe(201);
		expect((await acquisition(t.http, 1006, { event_type_id: 304 })).status).toBe(201);
		expect((await acquisition(t.http, 1007, { event_type_id: 304, field_values: {} })).status).toBe(
			201,
		);
		expect(
			(await acquisition(t.http, 1008, { ...financed, field_values: { '403': 3, '404': null } }))
				.status,
		).toBe(201);
		expect(t.sb.state().acquisitions[0].field_values).toEqual({ '401': 'L-2026-001', '402': 4021 });
	});

	test('finance and payment fields where the event type enables them', async () => {
		const r = await acquisition(t.http, 1001, {
			...financed,
			price: 30000,
			cost: 5000,
			salvage_value: 1000,
			finance_amount: 25000,
			payment: 750.5,
			billing_frequency: 'monthly',
			number_of_payments: 36,
		});
		expect(r.status).toBe(201);
		expect(t.sb.state().acquisitions[0]).toMatchObject({
			finance_amount: '25000.00',
			payment: '750.50',
			billing_frequency: 'monthly',
			number_of_payments: 36,
			salvage_value: '1000.00',
		});
		expect(
			(
				await acquisition(t.http, 1002, {
					...lease,
					payment: 99,
					billing_frequency: 'Quarterly',
					number_of_payments: 8,
				})
			).status,
		).toBe(201);
	});

	describe('validation (422 with per-field errors)', () => {
		const cases: [string, number | string, Record<string, unknown>, string[]][] = [
			['event_type_id missing', 1001, {}, ['event_type_id']],
			['event_type_id a string', 1001, { event_type_id: '301' }, ['event_type_id']],
			['not an acquisition event type', 1001, { event_type_id: 305 }, ['event_type_id']],
			['decommission event type', 1001, { event_type_id: 306 }, ['event_type_id']],
			['event type of another organization', 1001, { event_type_id: 391 }, ['event_type_id']],
			['unknown event type', 1001, { event_type_id: 999 }, ['event_type_id']],
			[
				'required custom fields missing',
				1001,
				{ event_type_id: 302 },
				['field_values.401', 'field_values.402'],
			],
			[
				'required custom field null',
				1001,
				{ ...lease, field_values: { '401': null, '402': 4021 } },
				['field_values.401'],
			],
			[
				'select option not allowed',
				1001,
				{ ...lease, field_values: { '401': 'L', '402': 4061 } },
				['field_values.402'],
			],
			[
				'select given as label',
				1001,
				{ ...lease, field_values: { '401': 'L', '402': 'LeaseCo' } },
				['field_values.402'],
			],
			[
				'text field given a number',
				1001,
				{ ...lease, field_values: { '401': 12, '402': 4021 } },
				['field_values.401'],
			],
			[
				'field of another event type',
				1001,
				{ ...lease, field_values: { ...lease.field_values, '403': 1 } },
				['field_values.403'],
			],
			[
				'unknown field key',
				1001,
				{ ...lease, field_values: { ...lease.field_values, abc: 1 } },
				['field_values.abc'],
			],
			[
				'number field given a string',
				1001,
				{ ...financed, field_values: { '403': '4.5' } },
				['field_values.403'],
			],
			[
				'date field invalid',
				1001,
				{ ...financed, field_values: { '403': 1, '404': '15.01.2026' } },
				['field_values.404'],
			],
			[
				'checkbox not boolean',
				1001,
				{ ...financed, field_values: { '403': 1, '405': 'yes' } },
				['field_values.405'],
			],
			[
				'multi_select not allowed',
				1001,
				{ event_type_id: 304, field_values: { '406': [4061, 4021] } },
				['field_values.406'],
			],
			[
				'multi_select not an array',
				1001,
				{ event_type_id: 304, field_values: { '406': 4061 } },
				['field_values.406'],
			],
			['field_values an array', 1001, { event_type_id: 301, field_values: [] }, ['field_values']],
			['field_values null', 1001, { event_type_id: 301, field_values: null }, ['field_values']],
			['finance_amount not enabled', 1001, { ...lease, finance_amount: 100 }, ['finance_amount']],
			[
				'payment not supported',
				1001,
				{ event_type_id: 301, payment: 10, billing_frequency: 'monthly' },
				['billing_frequency', 'payment'],
			],
			[
				'number_of_payments not supported',
				1001,
				{ event_type_id: 301, number_of_payments: 3 },
				['number_of_payments'],
			],
			['payment without billing_frequency', 1001, { ...lease, payment: 10 }, ['billing_frequency']],
			[
				'billing_frequency upfront',
				1001,
				{ ...lease, payment: 10, billing_frequency: 'upfront' },
				['billing_frequency'],
			],
			[
				'billing_frequency lower-case quarterly',
				1001,
				{ ...lease, payment: 10, billing_frequency: 'quarterly' },
				['billing_frequency'],
			],
			['number_of_payments 0', 1001, { ...lease, number_of_payments: 0 }, ['number_of_payments']],
			[
				'number_of_payments too large',
				1001,
				{ ...lease, number_of_payments: 1_000_001 },
				['number_of_payments'],
			],
			[
				'number_of_payments fractional',
				1001,
				{ ...lease, number_of_payments: 1.5 },
				['number_of_payments'],
			],
			['price negative', 1001, { event_type_id: 301, price: -1 }, ['price']],
			['cost too large', 1001, { event_type_id: 301, cost: 1_000_000_000 }, ['cost']],
			[
				'salvage_value a string',
				1001,
				{ event_type_id: 301, salvage_value: '10' },
				['salvage_value'],
			],
			['finance_amount too large', 1001, { ...financed, finance_amount: 1e10 }, ['finance_amount']],
			[
				'payment negative',
				1001,
				{ ...lease, payment: -5, billing_frequency: 'monthly' },
				['payment'],
			],
			[
				'acquired_from too long',
				1001,
				{ event_type_id: 301, acquired_from: 'a'.repeat(256) },
				['acquired_from'],
			],
			[
				'description too long',
				1001,
				{ event_type_id: 301, description: 'd'.repeat(10_001) },
				['description'],
			],
			['unknown field', 1001, { event_type_id: 301, vendor: 'x' }, ['vendor']],
			[
				'event_date with Z',
				1001,
				{ event_type_id: 301, event_date: '2025-06-01T12:00:00Z' },
				['event_date'],
			],
		];
		test.each(cases)('%s', async (_label, asset, body, fields) => {
			const r = await acquisition(t.http, asset, body);
			expect(r.status).toBe(422);
			expect(typeof r.data.message).toBe('string');
			expect(Object.keys(r.data.errors).sort()).toEqual(fields);
			const s = t.sb.state();
			expect(s.acquisitions).toHaveLength(0);
			expect(s.assetEvents).toHaveLength(0);
		});

		test('limits are inclusive', async () => {
			const r = await acquisition(t.http, 1001, {
				...financed,
				acquired_from: 'a'.repeat(255),
				description: 'd'.repeat(10_000),
				price: 999_999_999.99,
				cost: 0,
				salvage_value: 0,
				finance_amount: 999_999_999.99,
				payment: 0,
				billing_frequency: 'yearly',
				number_of_payments: 1_000_000,
			});
			expect(r.status).toBe(201);
		});

		test('explicit nulls of nullable fields are accepted on any acquisition type', async () => {
			const r = await acquisition(t.http, 1001, {
				event_type_id: 301,
				description: null,
				acquired_from: null,
				price: null,
				cost: null,
				salvage_value: null,
				finance_amount: null,
				payment: null,
				billing_frequency: null,
				number_of_payments: null,
			});
			expect(r.status).toBe(201);
		});
	});

	describe('event_date', () => {
		test('future is 422', async () => {
			const r = await acquisition(t.http, 1001, {
				event_type_id: 301,
				event_date: eventDate(new Date(Date.now() + 120_000), 60),
			});
			expect(r.status).toBe(422);
			expect(Object.keys(r.data.errors)).toEqual(['event_date']);
		});

		test('earlier than the newest state change of the asset is 409', async () => {
			// seed: 1001 last changed 2024-03-01T09:00:00Z
			expect(
				(
					await acquisition(t.http, 1001, {
						event_type_id: 301,
						event_date: '2024-03-01T08:59:59+00:00',
					})
				).status,
			).toBe(409);
			expect(
				(
					await acquisition(t.http, 1001, {
						event_type_id: 301,
						event_date: '2024-03-01T10:59:59+02:00',
					})
				).status,
			).toBe(409);
			expect(
				(
					await acquisition(t.http, 1001, {
						event_type_id: 301,
						event_date: '2024-03-01T09:00:00+00:00',
					})
				).status,
			).toBe(201);
			expect(
				(
					await acquisition(t.http, 1001, {
						event_type_id: 301,
						event_date: '2025-01-01T00:00:00+00:00',
					})
				).status,
			).toBe(201);
			const r = await acquisition(t.http, 1001, {
				event_type_id: 301,
				event_date: '2024-12-31T23:59:59+00:00',
			});
			expect(r.status).toBe(409);
			expect(r.data.message).toMatch(/newer state change/);
			expect(t.sb.state().acquisitions).toHaveLength(2);
		});

		test('to-dos are not state changes', async () => {
			await todo(t.http, 1001, { name: 'x' });
			expect(
				(
					await acquisition(t.http, 1001, {
						event_type_id: 301,
						event_date: '2024-06-01T00:00:00+00:00',
					})
				).status,
			).toBe(201);
		});
	});

	describe('reactivation of decommissioned assets', () => {
		test('returns several asset event IDs and makes the asset available', async () => {
			const r = await acquisition(t.http, 1101, { event_type_id: 301 });
			expect(r.status).toBe(201);
			const ids = r.data.data.asset_event_ids;
			expect(ids).toHaveLength(2);
			expect(r.data.data.state).toMatchObject({
				status: 'available',
				decommission_event_type_id: null,
			});
			const s = t.sb.state();
			expect(s.assetEvents.map((e) => [e.id, e.kind])).toEqual([
				[ids[0], 'reactivation'],
				[ids[1], 'acquisition'],
			]);
			expect(s.organizations[0].plan.reactivations_used).toBe(1);
			// now available: a further acquisition is a plain one
			expect(
				(await acquisition(t.http, 1101, { event_type_id: 301 })).data.data.asset_event_ids,
			).toHaveLength(1);
		});

		test('refused over the plan limit (409), nothing applied', async () => {
			expect((await acquisition(t.http, 1101, { event_type_id: 301 })).status).toBe(201);
			expect((await acquisition(t.http, 1102, { event_type_id: 301 })).status).toBe(201);
			const r = await acquisition(t.http, 1103, { event_type_id: 301 });
			expect(r.status).toBe(409);
			expect(r.data.message).toMatch(/plan limit/);
			const s = t.sb.state();
			expect(s.assets.find((a) => a.id === 1103)?.status).toBe('decommissioned');
			expect(s.assetEvents).toHaveLength(4);
		});

		test('an organization whose plan allows no reactivation', async () => {
			const r = await acquisition(t.http, 1902, { event_type_id: 391 }, { token: TOKENS.otherOrg });
			expect(r.status).toBe(409);
			expect(
				(await acquisition(t.http, 1901, { event_type_id: 391 }, { token: TOKENS.otherOrg }))
					.status,
			).toBe(201);
		});

		test('event_date before the decommissioning is 409', async () => {
			// seed: 1101 decommissioned 2025-02-01T10:00:00Z
			expect(
				(
					await acquisition(t.http, 1101, {
						event_type_id: 301,
						event_date: '2025-01-15T00:00:00+00:00',
					})
				).status,
			).toBe(409);
			expect(t.sb.state().organizations[0].plan.reactivations_used).toBe(0);
		});

		test('validation still comes first on a decommissioned asset over the limit', async () => {
			expect(
				(await acquisition(t.http, 1902, { event_type_id: 392 }, { token: TOKENS.otherOrg }))
					.status,
			).toBe(422);
		});
	});
});
