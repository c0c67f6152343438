import { TOKENS } from '../../test/fixtures';
import { sleep } from 'n8n-workflow';

import { acquisition, billing, holdRequests, randomUUID, todo, useTestSandbox } from './helpers';

const t = useTestSandbox();

describe('Idempotency-Key header', () => {
	test('missing: 422, nothing applied', async () => {
		const r = await todo(t.http, 1001, { name: 'x' }, { key: null });
		expect(r.status).toBe(422);
		expect(r.data.message).toMatch(/Idempotency-Key/);
		expect(t.sb.state().todos).toHaveLength(0);
	});

	test.each([
		'abc',
		'12345',
		'not-a-uuid-at-all-000000000000000000',
		'3f1c6a9e2b7d4c1e9a550d6f1b2c3e4f',
		'{3f1c6a9e-2b7d-4c1e-9a55-0d6f1b2c3e4f}',
	])('not a UUID (%s): 422', async (key) => {
		expect((await todo(t.http, 1001, { name: 'x' }, { key })).status).toBe(422);
		expect(t.sb.state().todos).toHaveLength(0);
	});
});

describe('replay', () => {
	test('same key and request: same status and body, no new record or event, Idempotent-Replayed header', async () => {
		const key = randomUUID();
		const first = await acquisition(t.http, 1101, { event_type_id: 301, cost: 10 }, { key });
		expect(first.status).toBe(201);
		expect(first.headers['idempotent-replayed']).toBeUndefined();
		const second = await acquisition(t.http, 1101, { event_type_id: 301, cost: 10 }, { key });
		expect(second.status).toBe(201);
		expect(second.headers['idempotent-replayed']).toBe('true');
		expect(second.data).toEqual(first.data);
		const s = t.sb.state();
		expect(s.acquisitions).toHaveLength(1);
		expect(s.assetEvents).toHaveLength(2);
		expect(s.organizations[0].plan.reactivations_used).toBe(1);
		expect(s.counters.replays).toBe(1);
		expect(s.counters.applied).toBe(1);
	});

	test('for every operation', async () => {
		const cases = [
			() => todo(t.http, 1001, { name: 'x' }, { key: k1 }),
			() =>
				billing(
					t.http,
					2001,
					{ price_model: 'lump_sum', cost: 5, billing_frequency: 'monthly' },
					{ key: k2 },
				),
			() => acquisition(t.http, 1001, { event_type_id: 301 }, { key: k3 }),
		];
		const [k1, k2, k3] = [randomUUID(), randomUUID(), randomUUID()];
		for (const c of cases) {
			const a = await c();
			const b = await c();
			expect(b.status).toBe(a.status);
			expect(b.data).toEqual(a.data);
			expect(b.headers['idempotent-replayed']).toBe('true');
		}
		const s = t.sb.state();
		expect([s.todos.length, s.billingChanges.length, s.acquisitions.length]).toEqual([1, 1, 1]);
		expect(s.idempotencyKeys.map((k) => k.key).sort()).toEqual([k1, k2, k3].sort());
	});

	test('the replayed body is the original one even after the record changed', async () => {
		const key = randomUUID();
		const body = { price_model: 'lump_sum', cost: 5, billing_frequency: 'monthly' };
		const first = await billing(t.http, 2001, body, { key });
		await billing(t.http, 2001, { ...body, cost: 99 });
		const replay = await billing(t.http, 2001, body, { key });
		expect(replay.data).toEqual(first.data);
		expect(replay.data.data.state.cost).toBe('5.00');
	});

	test('key order and whitespace of the JSON body do not matter (canonical JSON)', async () => {
		const key = randomUUID();
		const headers = { 'Content-Type': 'application/json' };
		const a = await todo(t.http, 1001, '{"name":"x","assigned_to":102}', {
			key,
			headers,
			raw: true,
		});
		const b = await todo(t.http, 1001, '{ "assigned_to": 102,\n  "name": "x" }', {
			key,
			headers,
			raw: true,
		});
		expect(a.status).toBe(201);
		expect(b.headers['idempotent-replayed']).toBe('true');
		expect(t.sb.state().todos).toHaveLength(1);
	});

	test('the key is case-insensitive (a UUID)', async () => {
		const key = randomUUID();
		await todo(t.http, 1001, { name: 'x' }, { key });
		const r = await todo(t.http, 1001, { name: 'x' }, { key: key.toUpperCase() });
		expect(r.headers['idempotent-replayed']).toBe('true');
	});

	test('another token of the same organization replays; authentication and permission still apply', async () => {
		const key = randomUUID();
		await todo(t.http, 1001, { name: 'x' }, { key });
		expect(
			(await todo(t.http, 1001, { name: 'x' }, { key, token: TOKENS.todosOnly })).headers[
				'idempotent-replayed'
			],
		).toBe('true');
		expect((await todo(t.http, 1001, { name: 'x' }, { key, token: TOKENS.noTodos })).status).toBe(
			403,
		);
		expect((await todo(t.http, 1001, { name: 'x' }, { key, token: TOKENS.revoked })).status).toBe(
			401,
		);
	});

	test('keys are scoped per organization', async () => {
		const key = randomUUID();
		expect((await todo(t.http, 1001, { name: 'x' }, { key })).status).toBe(201);
		const other = await todo(t.http, 1901, { name: 'x' }, { key, token: TOKENS.otherOrg });
		expect(other.status).toBe(201);
		expect(other.headers['idempotent-replayed']).toBeUndefined();
		expect(t.sb.state().todos).toHaveLength(2);
	});

	test('reset forgets keys', async () => {
		const key = randomUUID();
		await todo(t.http, 1001, { name: 'x' }, { key });
		t.sb.reset();
		const r = await todo(t.http, 1001, { name: 'x' }, { key });
		expect(r.headers['idempotent-replayed']).toBeUndefined();
	});
});

describe('reuse with a different request: 409', () => {
	test('different body', async () => {
		const key = randomUUID();
		await todo(t.http, 1001, { name: 'x' }, { key });
		const r = await todo(t.http, 1001, { name: 'y' }, { key });
		expect(r.status).toBe(409);
		expect(r.data.message).toMatch(/Idempotency-Key/);
		expect(t.sb.state().todos).toHaveLength(1);
		expect(t.sb.state().counters.idempotencyMismatches).toBe(1);
	});

	test('different path (another record)', async () => {
		const key = randomUUID();
		await todo(t.http, 1001, { name: 'x' }, { key });
		expect((await todo(t.http, 1002, { name: 'x' }, { key })).status).toBe(409);
	});

	test('different method and path (another operation)', async () => {
		const key = randomUUID();
		await todo(t.http, 1001, { name: 'x' }, { key });
		expect(
			(
				await billing(
					t.http,
					2001,
					{ price_model: 'lump_sum', cost: 5, billing_frequency: 'monthly' },
					{ key },
				)
			).status,
		).toBe(409);
		expect((await acquisition(t.http, 1001, { event_type_id: 301 }, { key })).status).toBe(409);
		expect(t.sb.state().counters.applied).toBe(1);
	});

	test('an invalid body with a used key is 409 too (the key check comes first)', async () => {
		const key = randomUUID();
		await todo(t.http, 1001, { name: 'x' }, { key });
		expect((await todo(t.http, 1001, { name: '' }, { key })).status).toBe(409);
	});

	test('an extra null field is a different body', async () => {
		const key = randomUUID();
		await todo(t.http, 1001, { name: 'x' }, { key });
		expect((await todo(t.http, 1001, { name: 'x', notes: null }, { key })).status).toBe(409);
	});
});

describe('rejected requests store nothing, so a corrected request can reuse the key', () => {
	test.each([
		['401', () => todo(t.http, 1001, { name: 'x' }, { key: K, token: TOKENS.expired }), 401],
		['403', () => todo(t.http, 1001, { name: 'x' }, { key: K, token: TOKENS.noTodos }), 403],
		['404 other organization', () => todo(t.http, 1901, { name: 'x' }, { key: K }), 404],
		['422 validation', () => todo(t.http, 1001, { name: '' }, { key: K }), 422],
		[
			'422 content type',
			() =>
				todo(t.http, 1001, '{"name":"x"}', {
					key: K,
					raw: true,
					headers: { 'Content-Type': 'text/plain' },
				}),
			422,
		],
	])('%s', async (_label, bad, status) => {
		expect((await bad()).status).toBe(status);
		const r = await todo(t.http, 1001, { name: 'x' }, { key: K });
		expect(r.status).toBe(201);
		expect(r.headers['idempotent-replayed']).toBeUndefined();
		expect(t.sb.state().todos).toHaveLength(1);
	});

	test('409 business rejections (free subscription, plan limit, older event_date) store nothing', async () => {
		const key = randomUUID();
		const body = { price_model: 'lump_sum', cost: 5, billing_frequency: 'monthly' };
		expect((await billing(t.http, 2101, body, { key })).status).toBe(409);
		// the same request again is evaluated again (still 409), not replayed
		const again = await billing(t.http, 2101, body, { key });
		expect(again.status).toBe(409);
		expect(again.headers['idempotent-replayed']).toBeUndefined();
		expect((await billing(t.http, 2001, body, { key })).status).toBe(200);

		const k2 = randomUUID();
		expect(
			(
				await acquisition(
					t.http,
					1001,
					{ event_type_id: 301, event_date: '2020-01-01T00:00:00+00:00' },
					{ key: k2 },
				)
			).status,
		).toBe(409);
		expect((await acquisition(t.http, 1001, { event_type_id: 301 }, { key: k2 })).status).toBe(201);
	});
});

describe('concurrency', () => {
	test('50 parallel requests with one key apply once (others: 409 in flight, or replay)', async () => {
		t.sb.setFaults({ processingDelayMs: 1 });
		// The first is held in flight until another one met it there (409), the rest come when they come.
		const holds = holdRequests(t.sb);
		const key = randomUUID();
		const sent = Promise.all(
			Array.from({ length: 50 }, () => acquisition(t.http, 1101, { event_type_id: 301 }, { key })),
		);
		const first = await holds.nth(1);
		while (t.sb.state().counters.idempotencyInFlight === 0) await sleep(5);
		first.release();
		const responses = await sent;
		const fresh = responses.filter(
			(r) => r.status === 201 && r.headers['idempotent-replayed'] === undefined,
		);
		const replays = responses.filter(
			(r) => r.status === 201 && r.headers['idempotent-replayed'] === 'true',
		);
		const inFlight = responses.filter((r) => r.status === 409);
		expect(fresh).toHaveLength(1);
		expect(inFlight.length).toBeGreaterThan(0);
		expect(fresh.length + replays.length + inFlight.length).toBe(50);
		for (const r of inFlight) expect(r.data.message).toMatch(/still being processed/);
		for (const r of replays) expect(r.data).toEqual(fresh[0].data);
		const s = t.sb.state();
		expect(s.acquisitions).toHaveLength(1);
		expect(s.assetEvents).toHaveLength(2);
		expect(s.organizations[0].plan.reactivations_used).toBe(1);
		expect(s.counters.idempotencyInFlight).toBe(inFlight.length);
		// after completion the key replays
		const later = await acquisition(t.http, 1101, { event_type_id: 301 }, { key });
		expect(later.headers['idempotent-replayed']).toBe('true');
	});

	test('50 parallel requests with one key but different bodies apply once', async () => {
		t.sb.setFaults({ processingDelayMs: 100 });
		const key = randomUUID();
		const responses = await Promise.all(
			Array.from({ length: 50 }, (_, i) => todo(t.http, 1001, { name: `t${i}` }, { key })),
		);
		expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
		expect(responses.every((r) => r.status === 201 || r.status === 409)).toBe(true);
		expect(t.sb.state().todos).toHaveLength(1);
	});

	test('50 parallel requests with one key, without a processing delay, still apply once', async () => {
		const key = randomUUID();
		const responses = await Promise.all(
			Array.from({ length: 50 }, () => todo(t.http, 1001, { name: 'x' }, { key })),
		);
		expect(
			responses.filter((r) => r.status === 201 && !r.headers['idempotent-replayed']),
		).toHaveLength(1);
		expect(t.sb.state().todos).toHaveLength(1);
	});

	test('50 parallel requests with distinct keys apply 50 times', async () => {
		t.sb.setFaults({ processingDelayMs: 20 });
		const responses = await Promise.all(
			Array.from({ length: 50 }, () => acquisition(t.http, 1002, { event_type_id: 301 })),
		);
		expect(responses.every((r) => r.status === 201)).toBe(true);
		expect(t.sb.state().acquisitions).toHaveLength(50);
	});

	test('a request that failed validation after holding the key (processing delay) leaves the key reusable', async () => {
		t.sb.setFaults({ processingDelayMs: 50 });
		const key = randomUUID();
		expect((await todo(t.http, 1001, { name: '' }, { key })).status).toBe(422);
		expect((await todo(t.http, 1001, { name: 'ok' }, { key })).status).toBe(201);
	});
});

// a fixed key shared by the test.each cases above (each case runs after a reset)
const K = '6f1c6a9e-2b7d-4c1e-9a55-0d6f1b2c3e4f';
