import axios from 'axios';
import { sleep } from 'n8n-workflow';

import { TOKENS } from '../../test/fixtures';
import { billing, randomUUID, todo, useTestSandbox } from './helpers';
import { startSandbox } from '../src';

const t = useTestSandbox();

// Timing: the rates are slow enough that requests sent one after another never see a refill they
// do not expect, unless the machine stalls for a whole second; waits are lower bounds only.

const retryAfterSeconds = (headers: Record<string, unknown>) => Number(headers['retry-after']);

describe('token-bucket rate limit per organization', () => {
	test('off by default', async () => {
		expect(t.sb.state().rateLimit).toBeNull();
		expect(t.sb.state().rateLimitBuckets).toEqual([]);
		for (let i = 0; i < 10; i++) expect((await todo(t.http, 1001, { name: 'x' })).status).toBe(201);
		expect(t.sb.state().counters.rateLimited).toBe(0);
	});

	test('a full burst passes, then 429 at once with Retry-After in whole seconds', async () => {
		t.sb.setRateLimit({ ratePerSecond: 1, burst: 2 });
		expect((await todo(t.http, 1001, { name: 'a' })).status).toBe(201);
		expect((await todo(t.http, 1001, { name: 'b' })).status).toBe(201);
		const limited = await todo(t.http, 1001, { name: 'c' });
		expect(limited.status).toBe(429);
		// Less than one token is left and one comes per second: the next one is at most 1 s away.
		expect(limited.headers['retry-after']).toBe('1');
		expect(limited.headers['x-sandbox-fault']).toBeUndefined();
		expect(limited.headers['content-type']).toBe('application/json');
		expect(limited.data).toEqual({
			message: 'Rate limit reached: too many requests for this organization. Retry after 1 second.',
		});
		const s = t.sb.state();
		expect(s.todos).toHaveLength(2);
		expect(s.counters.rateLimited).toBe(1);
		expect(s.counters.responsesByStatus).toEqual({ '201': 2, '429': 1 });
		expect(s.counters.faults.rateLimited).toBe(0);
		expect(t.sb.requests()[2]).toMatchObject({ status: 429, fault: null, delivered: true });
	});

	test('Retry-After rounds the wait for the next token up to whole seconds', async () => {
		t.sb.setRateLimit({ ratePerSecond: 0.25, burst: 1 });
		expect((await todo(t.http, 1001, { name: 'a' })).status).toBe(201);
		const limited = await todo(t.http, 1001, { name: 'b' });
		expect(limited.status).toBe(429);
		// The next token is up to 4 s away (less the time since the first request).
		expect(limited.headers['retry-after']).toMatch(/^[1-4]$/);
		expect(limited.data.message).toBe(
			`Rate limit reached: too many requests for this organization. Retry after ${limited.headers['retry-after']} second${limited.headers['retry-after'] === '1' ? '' : 's'}.`,
		);
	});

	test('the bucket refills over time: after Retry-After a request passes again', async () => {
		t.sb.setRateLimit({ ratePerSecond: 2, burst: 1 });
		expect((await todo(t.http, 1001, { name: 'a' })).status).toBe(201);
		const limited = await todo(t.http, 1001, { name: 'b' });
		expect(limited.status).toBe(429);
		await sleep(retryAfterSeconds(limited.headers) * 1000);
		expect((await todo(t.http, 1001, { name: 'b' })).status).toBe(201);
		expect(t.sb.state().todos).toHaveLength(2);
	});

	test('each organization has its own bucket, shared by its tokens', async () => {
		t.sb.setRateLimit({ ratePerSecond: 0.1, burst: 1 });
		expect((await todo(t.http, 1001, { name: 'acme' })).status).toBe(201);
		expect((await todo(t.http, 1001, { name: 'acme' })).status).toBe(429);
		// Another token of the same organization draws from the same bucket.
		expect((await todo(t.http, 1001, { name: 'acme' }, { token: TOKENS.todosOnly })).status).toBe(
			429,
		);
		expect((await todo(t.http, 1901, { name: 'globex' }, { token: TOKENS.otherOrg })).status).toBe(
			201,
		);
		expect((await todo(t.http, 1901, { name: 'globex' }, { token: TOKENS.otherOrg })).status).toBe(
			429,
		);
		const s = t.sb.state();
		expect(s.todos.map((d) => d.organization_id)).toEqual([1, 2]);
		expect(s.counters.rateLimited).toBe(3);
		expect(s.rateLimit).toEqual({ ratePerSecond: 0.1, burst: 1 });
		expect(s.rateLimitBuckets.map((b) => b.organization_id)).toEqual([1, 2]);
		for (const bucket of s.rateLimitBuckets) expect(bucket.tokens).toBeLessThan(0.5);
	});

	test('a 429 applies nothing and stores no key; a replay is limited too', async () => {
		t.sb.setRateLimit({ ratePerSecond: 0.1, burst: 1 });
		const stored = randomUUID();
		const refused = randomUUID();
		const body = { price_model: 'lump_sum', cost: 42, billing_frequency: 'yearly' };
		expect((await billing(t.http, 2001, body, { key: stored })).status).toBe(200);
		expect((await billing(t.http, 2001, body, { key: refused })).status).toBe(429);
		const replay = await billing(t.http, 2001, body, { key: stored });
		expect(replay.status).toBe(429);
		expect(replay.headers['idempotent-replayed']).toBeUndefined();
		let s = t.sb.state();
		expect(s.billingChanges).toHaveLength(1);
		expect(s.idempotencyKeys.map((k) => k.key)).toEqual([stored]);
		expect(s.counters).toMatchObject({ applied: 1, replays: 0, rateLimited: 2 });

		t.sb.setRateLimit(null);
		const fresh = await billing(t.http, 2001, body, { key: refused });
		expect(fresh.status).toBe(200);
		expect(fresh.headers['idempotent-replayed']).toBeUndefined();
		expect(
			(await billing(t.http, 2001, body, { key: stored })).headers['idempotent-replayed'],
		).toBe('true');
		s = t.sb.state();
		expect(s.billingChanges).toHaveLength(2);
		expect(s.counters).toMatchObject({ applied: 2, replays: 1, rateLimited: 2 });
	});

	test('checked right after authentication: a 401 takes no token; a 403 or 422 request does, and is 429 once the bucket is empty', async () => {
		t.sb.setRateLimit({ ratePerSecond: 0.1, burst: 2 });
		expect((await todo(t.http, 1001, { name: 'x' }, { token: null })).status).toBe(401);
		expect((await todo(t.http, 1001, { name: 'x' }, { token: TOKENS.expired })).status).toBe(401);
		expect((await todo(t.http, 1001, { name: 'x' }, { token: TOKENS.noTodos })).status).toBe(403);
		expect((await todo(t.http, 1001, { name: '' })).status).toBe(422);
		expect((await todo(t.http, 1001, { name: '' })).status).toBe(429);
		expect((await todo(t.http, 1001, { name: 'x' }, { token: TOKENS.noTodos })).status).toBe(429);
		expect((await todo(t.http, 1001, { name: 'x' }, { key: null })).status).toBe(429);
		expect((await todo(t.http, 9999, { name: 'x' })).status).toBe(429);
		expect((await todo(t.http, 1001, { name: 'x' }, { token: null })).status).toBe(401);
		expect(t.sb.state().counters.rateLimited).toBe(4);
	});

	test('independent of the rateLimit fault, which answers before authentication and takes no token', async () => {
		t.sb.setRateLimit({ ratePerSecond: 0.1, burst: 1 });
		t.sb.setFaults({ rateLimit: { requests: 0, windowMs: 60_000 } });
		const fault = await todo(t.http, 1001, { name: 'x' });
		expect(fault.status).toBe(429);
		expect(fault.headers['x-sandbox-fault']).toBe('rateLimited');
		expect(t.sb.state().rateLimitBuckets[0]).toEqual({ organization_id: 1, tokens: 1 });
		t.sb.setFaults(null);
		expect((await todo(t.http, 1001, { name: 'x' })).status).toBe(201);
		const limited = await todo(t.http, 1001, { name: 'x' });
		expect(limited.status).toBe(429);
		expect(limited.headers['x-sandbox-fault']).toBeUndefined();
		const s = t.sb.state();
		expect(s.counters.faults.rateLimited).toBe(1);
		expect(s.counters.rateLimited).toBe(1);
		expect(t.sb.requests().map((r) => [r.status, r.fault])).toEqual([
			[429, 'rateLimited'],
			[201, null],
			[429, null],
		]);
	});

	test('a new limit takes effect at once; buckets keep their tokens, capped at the new burst', async () => {
		t.sb.setRateLimit({ ratePerSecond: 0.1, burst: 3 });
		expect((await todo(t.http, 1001, { name: 'x' })).status).toBe(201);
		expect((await todo(t.http, 1001, { name: 'x' })).status).toBe(201);
		// About one token left; a larger burst does not refill the bucket.
		t.sb.setRateLimit({ ratePerSecond: 0.1, burst: 10 });
		expect((await todo(t.http, 1001, { name: 'x' })).status).toBe(201);
		expect((await todo(t.http, 1001, { name: 'x' })).status).toBe(429);
		// Globex's untouched bucket has 3 tokens, capped at 1 by the smaller burst.
		t.sb.setRateLimit({ ratePerSecond: 0.1, burst: 3 });
		t.sb.setRateLimit({ ratePerSecond: 0.1, burst: 1 });
		expect((await todo(t.http, 1901, { name: 'x' }, { token: TOKENS.otherOrg })).status).toBe(201);
		expect((await todo(t.http, 1901, { name: 'x' }, { token: TOKENS.otherOrg })).status).toBe(429);
	});

	test('burst defaults to one second of the rate, and to at least one request', () => {
		t.sb.setRateLimit({ ratePerSecond: 3 });
		expect(t.sb.state().rateLimit).toEqual({ ratePerSecond: 3, burst: 3 });
		t.sb.setRateLimit({ ratePerSecond: 0.5 });
		expect(t.sb.state().rateLimit).toEqual({ ratePerSecond: 0.5, burst: 1 });
		expect(t.sb.state().rateLimitBuckets).toEqual([
			{ organization_id: 1, tokens: 1 },
			{ organization_id: 2, tokens: 1 },
		]);
	});

	test('reset fills every bucket again and keeps the limit', async () => {
		t.sb.setRateLimit({ ratePerSecond: 0.1, burst: 1 });
		expect((await todo(t.http, 1001, { name: 'x' })).status).toBe(201);
		expect((await todo(t.http, 1001, { name: 'x' })).status).toBe(429);
		t.sb.reset();
		expect(t.sb.state().rateLimit).toEqual({ ratePerSecond: 0.1, burst: 1 });
		expect(t.sb.state().counters.rateLimited).toBe(0);
		expect((await todo(t.http, 1001, { name: 'x' })).status).toBe(201);
	});

	test('an invalid limit is refused by the handle and by startSandbox', async () => {
		expect(() => t.sb.setRateLimit({ ratePerSecond: 0 })).toThrow(
			'ratePerSecond must be a positive finite number',
		);
		expect(() => t.sb.setRateLimit({ ratePerSecond: Infinity })).toThrow(/ratePerSecond/);
		expect(() => t.sb.setRateLimit({ ratePerSecond: 5, burst: 0.5 })).toThrow(
			'burst must be a finite number of at least 1',
		);
		expect(() => t.sb.setRateLimit({ ratePerSecond: 5, rate: 1 } as never)).toThrow(
			'unknown rate limit option rate (known: ratePerSecond, burst)',
		);
		expect(t.sb.state().rateLimit).toBeNull();
		await expect(startSandbox({ log: false, rateLimit: { ratePerSecond: -1 } })).rejects.toThrow(
			/ratePerSecond/,
		);
	});

	test('from the start options', async () => {
		const sb = await startSandbox({ log: false, rateLimit: { ratePerSecond: 0.1, burst: 1 } });
		try {
			const http = axios.create({ baseURL: sb.baseUrl, validateStatus: () => true });
			expect(sb.state().rateLimit).toEqual({ ratePerSecond: 0.1, burst: 1 });
			expect((await todo(http, 1001, { name: 'x' })).status).toBe(201);
			expect((await todo(http, 1001, { name: 'x' })).status).toBe(429);
		} finally {
			await sb.close();
		}
	});
});

describe('GET/PUT/DELETE /_sandbox/rate-limit (admin token)', () => {
	test('sets, reads and clears the limit', async () => {
		const put = await t.admin.put('/_sandbox/rate-limit', { ratePerSecond: 50, burst: 50 });
		expect(put.status).toBe(200);
		expect(put.data).toEqual({
			notice: 'Sandbox inspection/control endpoint: NOT part of the Inventory API.',
			rateLimit: { ratePerSecond: 50, burst: 50 },
		});
		expect(t.sb.state().rateLimit).toEqual({ ratePerSecond: 50, burst: 50 });

		// Halved mid-run: the bucket keeps its tokens, capped at the new burst of 1.
		expect((await todo(t.http, 1001, { name: 'x' })).status).toBe(201);
		const halved = await t.admin.put('/_sandbox/rate-limit', { ratePerSecond: 0.1, burst: 1 });
		expect(halved.data.rateLimit).toEqual({ ratePerSecond: 0.1, burst: 1 });
		expect((await todo(t.http, 1001, { name: 'x' })).status).toBe(201);
		expect((await todo(t.http, 1001, { name: 'x' })).status).toBe(429);

		const get = await t.admin.get('/_sandbox/rate-limit');
		expect(get.status).toBe(200);
		expect(get.data.notice).toMatch(/NOT part of the Inventory API/);
		expect(get.data.rateLimit).toEqual({ ratePerSecond: 0.1, burst: 1 });
		expect(get.data.rateLimited).toBe(1);
		expect(get.data.buckets).toEqual([
			{ organization_id: 1, tokens: expect.any(Number) },
			{ organization_id: 2, tokens: 1 },
		]);
		expect(get.data.buckets[0].tokens).toBeLessThan(0.5);

		const del = await t.admin.delete('/_sandbox/rate-limit');
		expect(del.status).toBe(200);
		expect(del.data.rateLimit).toBeNull();
		expect((await todo(t.http, 1001, { name: 'x' })).status).toBe(201);
		expect((await t.admin.get('/_sandbox/rate-limit')).data).toMatchObject({
			rateLimit: null,
			buckets: [],
		});
	});

	test('an invalid limit is 422 and changes nothing; an API token is 401', async () => {
		t.sb.setRateLimit({ ratePerSecond: 5 });
		const json = { headers: { 'Content-Type': 'application/json' } };
		const cases: [unknown, string][] = [
			[{ ratePerSecond: 0 }, 'ratePerSecond must be a positive finite number'],
			[{ ratePerSecond: '50' }, 'ratePerSecond must be a positive finite number'],
			['{"ratePerSecond": 1e999}', 'ratePerSecond must be a positive finite number'],
			[{ ratePerSecond: 5, burst: 0 }, 'burst must be a finite number of at least 1'],
			[{ rate: 5 }, 'unknown rate limit option rate (known: ratePerSecond, burst)'],
			['[50]', 'the rate limit must be an object {"ratePerSecond": number, "burst"?: number}'],
		];
		for (const [body, reason] of cases) {
			const r = await t.admin.put('/_sandbox/rate-limit', body, json);
			expect([r.status, r.data.message]).toEqual([422, `Invalid rate limit: ${reason}`]);
		}
		const notJson = await t.admin.put('/_sandbox/rate-limit', '{"ratePerSecond":', json);
		expect(notJson.status).toBe(422);
		expect(notJson.data.message).toMatch(/^Invalid rate limit: /);
		expect(t.sb.state().rateLimit).toEqual({ ratePerSecond: 5, burst: 5 });

		const apiToken = await t.http.put(
			'/_sandbox/rate-limit',
			{ ratePerSecond: 1 },
			{ headers: { Authorization: `Bearer ${TOKENS.fullAccess}` } },
		);
		expect(apiToken.status).toBe(401);
		expect(t.sb.state().rateLimit).toEqual({ ratePerSecond: 5, burst: 5 });
	});
});
