import { PER_LICENSE_BILLING_BODY, PER_LICENSE_BILLING_STATE } from '../../test/fixtures';
import { billing, eventDate, useTestSandbox } from './helpers';

const t = useTestSandbox();

const valid = { price_model: 'lump_sum', cost: 1500, billing_frequency: 'yearly' };

describe('PUT /api/v1/subscriptions/{record}/billing', () => {
	test('200 with the subscription result; billing values replaced; one billing-change event', async () => {
		const r = await billing(t.http, 2002, {
			...PER_LICENSE_BILLING_BODY,
			description: 'Renegotiated',
		});
		expect(r.status).toBe(200);
		expect(Object.keys(r.data)).toEqual(['data']);
		const d = r.data.data;
		expect(Object.keys(d).sort()).toEqual([
			'state',
			'subscription_event_ids',
			'subscription_id',
			'todo',
		]);
		expect(d.subscription_id).toBe(2002);
		expect(d.todo).toBeNull();
		expect(d.subscription_event_ids).toHaveLength(1);
		expect(d.state).toEqual(PER_LICENSE_BILLING_STATE);
		const s = t.sb.state();
		expect(s.subscriptionEvents).toEqual([
			expect.objectContaining({
				id: d.subscription_event_ids[0],
				subscription_id: 2002,
				kind: 'billing_change',
			}),
		]);
		expect(s.billingChanges).toHaveLength(1);
		expect(s.billingChanges[0].before).toEqual({
			price_model: 'per_license',
			cost: '10.00',
			billing_frequency: 'monthly',
			license_count: 25,
		});
		expect(s.billingChanges[0].description).toBe('Renegotiated');
		expect(s.subscriptions.find((x) => x.id === 2002)?.cost).toBe('12.50');
	});

	test('cost is always a string with two decimals', async () => {
		for (const [cost, expected] of [
			[0, '0.00'],
			[7, '7.00'],
			[0.1, '0.10'],
			[19.99, '19.99'],
			[999_999_999.99, '999999999.99'],
		] as const) {
			const r = await billing(t.http, 2001, { ...valid, cost });
			expect(r.status).toBe(200);
			expect(r.data.data.state.cost).toBe(expected);
		}
	});

	test('lump_sum without license_count stores null; every frequency is accepted', async () => {
		for (const billing_frequency of ['monthly', 'Quarterly', 'yearly', 'upfront']) {
			const r = await billing(t.http, 2002, {
				price_model: 'lump_sum',
				cost: 1,
				billing_frequency,
			});
			expect(r.status).toBe(200);
			expect(r.data.data.state).toMatchObject({
				license_count: null,
				billing_frequency,
				price_model: 'lump_sum',
			});
		}
	});

	test('each accepted update records its own event', async () => {
		const a = await billing(t.http, 2001, valid);
		const b = await billing(t.http, 2001, { ...valid, cost: 1600 });
		expect(a.data.data.subscription_event_ids[0]).not.toBe(b.data.data.subscription_event_ids[0]);
		expect(t.sb.state().subscriptionEvents).toHaveLength(2);
	});

	test('a free subscription is 409 and unchanged', async () => {
		const r = await billing(t.http, 2101, valid);
		expect(r.status).toBe(409);
		expect(r.data.message).toMatch(/free/);
		expect(t.sb.state().subscriptionEvents).toHaveLength(0);
	});

	test('a final subscription is refused (409, sandbox choice) and unchanged', async () => {
		const r = await billing(t.http, 2201, valid);
		expect(r.status).toBe(409);
		expect(r.data.message).toMatch(/restored/);
		expect(t.sb.state().subscriptions.find((s) => s.id === 2201)?.cost).toBe('5000.00');
	});

	describe('event_date', () => {
		test('explicit offsets are accepted and the event takes that time', async () => {
			const r = await billing(t.http, 2001, { ...valid, event_date: '2025-06-01T14:00:00+02:00' });
			expect(r.status).toBe(200);
			expect(t.sb.state().subscriptionEvents[0].event_date).toBe('2025-06-01T12:00:00.000000Z');
		});

		test('in the future: 422', async () => {
			const r = await billing(t.http, 2001, {
				...valid,
				event_date: eventDate(new Date(Date.now() + 3_600_000)),
			});
			expect(r.status).toBe(422);
			expect(Object.keys(r.data.errors)).toEqual(['event_date']);
		});

		test('now in another offset is not the future', async () => {
			expect(
				(await billing(t.http, 2001, { ...valid, event_date: eventDate(new Date(), 330) })).status,
			).toBe(200);
			expect(
				(await billing(t.http, 2001, { ...valid, event_date: eventDate(new Date(), -480) })).status,
			).toBe(200);
		});

		test('earlier than the newest state change of the subscription: 409', async () => {
			// seed: last change 2024-03-01T09:00:00Z
			const r = await billing(t.http, 2001, { ...valid, event_date: '2024-02-29T09:00:00+00:00' });
			expect(r.status).toBe(409);
			expect(t.sb.state().subscriptionEvents).toHaveLength(0);
			// an accepted change moves the newest state change forward
			expect(
				(await billing(t.http, 2001, { ...valid, event_date: '2025-06-01T12:00:00+00:00' })).status,
			).toBe(200);
			expect(
				(await billing(t.http, 2001, { ...valid, event_date: '2025-05-01T12:00:00+00:00' })).status,
			).toBe(409);
			expect(
				(await billing(t.http, 2001, { ...valid, event_date: '2025-06-01T12:00:00+00:00' })).status,
			).toBe(200);
		});

		test.each([
			'2025-06-01T12:00:00Z',
			'2025-06-01T12:00:00.000+00:00',
			'2025-06-01T12:00+00:00',
			'2025-06-01 12:00:00+00:00',
			'2025-06-01',
			'2025-06-01T12:00:00+0000',
			'2025-02-30T12:00:00+00:00',
			'2025-06-01T25:00:00+00:00',
			'2025-06-01T12:00:00+15:00',
		])('shape %s is 422', async (event_date) => {
			const r = await billing(t.http, 2001, { ...valid, event_date });
			expect(r.status).toBe(422);
			expect(Object.keys(r.data.errors)).toEqual(['event_date']);
		});

		test('null event_date is 422 (the field is a string, optional)', async () => {
			expect((await billing(t.http, 2001, { ...valid, event_date: null })).status).toBe(422);
		});
	});

	describe('validation (422)', () => {
		const cases: [string, Record<string, unknown>, string][] = [
			['price_model missing', { cost: 1, billing_frequency: 'yearly' }, 'price_model'],
			['price_model unknown', { ...valid, price_model: 'tiered' }, 'price_model'],
			['cost missing', { price_model: 'lump_sum', billing_frequency: 'yearly' }, 'cost'],
			['cost null', { ...valid, cost: null }, 'cost'],
			['cost as a string', { ...valid, cost: '12.50' }, 'cost'],
			['cost negative', { ...valid, cost: -0.01 }, 'cost'],
			['cost too large', { ...valid, cost: 1_000_000_000 }, 'cost'],
			['billing_frequency missing', { price_model: 'lump_sum', cost: 1 }, 'billing_frequency'],
			[
				'billing_frequency lower-case quarterly',
				{ ...valid, billing_frequency: 'quarterly' },
				'billing_frequency',
			],
			[
				'billing_frequency Monthly',
				{ ...valid, billing_frequency: 'Monthly' },
				'billing_frequency',
			],
			[
				'per_license without license_count',
				{ price_model: 'per_license', cost: 1, billing_frequency: 'yearly' },
				'license_count',
			],
			[
				'per_license with null license_count',
				{ price_model: 'per_license', cost: 1, billing_frequency: 'yearly', license_count: null },
				'license_count',
			],
			['license_count 0', { ...valid, license_count: 0 }, 'license_count'],
			['license_count too large', { ...valid, license_count: 100_000_001 }, 'license_count'],
			['license_count fractional', { ...valid, license_count: 2.5 }, 'license_count'],
			['description too long', { ...valid, description: 'd'.repeat(10_001) }, 'description'],
			['billing_type present', { ...valid, billing_type: 'subscription' }, 'billing_type'],
			['unknown field', { ...valid, currency: 'EUR' }, 'currency'],
		];
		test.each(cases)('%s', async (_label, body, field) => {
			const r = await billing(t.http, 2001, body);
			expect(r.status).toBe(422);
			expect(Object.keys(r.data.errors)).toEqual([field]);
			expect(t.sb.state().subscriptionEvents).toHaveLength(0);
		});

		test('limits are inclusive', async () => {
			const r = await billing(t.http, 2001, {
				price_model: 'per_license',
				cost: 999_999_999.99,
				billing_frequency: 'monthly',
				license_count: 100_000_000,
				description: 'd'.repeat(10_000),
			});
			expect(r.status).toBe(200);
			expect(
				(
					await billing(t.http, 2001, {
						price_model: 'per_license',
						cost: 0,
						billing_frequency: 'monthly',
						license_count: 1,
					})
				).status,
			).toBe(200);
		});

		test('validation comes before the free/final checks', async () => {
			expect((await billing(t.http, 2101, { price_model: 'nope' })).status).toBe(422);
			expect((await billing(t.http, 2201, {})).status).toBe(422);
		});
	});
});
