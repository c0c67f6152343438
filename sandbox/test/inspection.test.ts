import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import axios from 'axios';

import { TOKENS } from '../../test/fixtures';
import {
	acquisition,
	billing,
	holdRequests,
	randomUUID,
	startTestSandbox,
	todo,
	useTestSandbox,
} from './helpers';
import { DEFAULT_SEED_FILE, startSandbox, type LogEntry, type SeedData } from '../src';

const t = useTestSandbox();

describe('GET /_sandbox/state', () => {
	test('admin token only, marked as not part of the API, same as handle.state()', async () => {
		expect((await t.http.get('/_sandbox/state')).status).toBe(401);
		expect(
			(
				await t.http.get('/_sandbox/state', {
					headers: { Authorization: `Bearer ${TOKENS.fullAccess}` },
				})
			).status,
		).toBe(401);
		await todo(t.http, 1001, { name: 'x' });
		const r = await t.admin.get('/_sandbox/state');
		expect(r.status).toBe(200);
		expect(r.data.notice).toMatch(/NOT part of the Inventory API/);
		expect(r.data).toEqual(t.sb.state());
	});

	test('lists seeded records, records created and events, with counters', async () => {
		const s0 = t.sb.state();
		expect(
			s0.assets.filter((a) => a.organization_id === 1 && a.status === 'available'),
		).toHaveLength(20);
		expect(s0.assets.filter((a) => a.status === 'decommissioned').map((a) => a.id)).toEqual([
			1101, 1102, 1103, 1902,
		]);
		expect(s0.subscriptions.map((s) => s.id)).toEqual([
			2001, 2002, 2003, 2004, 2005, 2101, 2201, 2901,
		]);
		expect(s0.subscriptions.find((s) => s.id === 2101)).toMatchObject({ free: true });
		expect(s0.subscriptions.find((s) => s.id === 2201)).toMatchObject({ final: true });

		const key = randomUUID();
		await todo(t.http, 1001, { name: 'x' }, { key });
		await todo(t.http, 1001, { name: 'x' }, { key });
		await billing(t.http, 2001, { price_model: 'lump_sum', cost: 9, billing_frequency: 'monthly' });
		await acquisition(t.http, 1101, { event_type_id: 301 });
		await todo(t.http, 1001, { name: '' });
		const s = t.sb.state();
		expect([
			s.todos.length,
			s.billingChanges.length,
			s.acquisitions.length,
			s.assetEvents.length,
			s.subscriptionEvents.length,
		]).toEqual([1, 1, 1, 2, 1]);
		expect(s.counters).toMatchObject({
			requestsTotal: 5,
			applied: 3,
			replays: 1,
			appliedByOperation: { createTodo: 1, updateBilling: 1, recordAcquisition: 1 },
			requestsByOperation: { createTodo: 3, updateBilling: 1, recordAcquisition: 1 },
			responsesByStatus: { '201': 3, '200': 1, '422': 1 },
		});
		expect(s.counters.requestsByPath['/api/v1/assets/1001/todos']).toBe(3);
		expect(s.idempotencyKeys).toHaveLength(3);
		expect(s.acquisitions[0].idempotency_key).toBeDefined();
	});

	test('state() is a copy', () => {
		const s = t.sb.state();
		s.todos.push({} as never);
		expect(t.sb.state().todos).toHaveLength(0);
	});
});

describe('GET /_sandbox/requests', () => {
	test('method, path, headers without Authorization, body, status, key', async () => {
		const key = randomUUID();
		await todo(t.http, 1001, { name: 'logged' }, { key });
		await todo(t.http, 1001, '{"name":', {
			key: null,
			raw: true,
			headers: { 'Content-Type': 'application/json' },
		});
		const r = await t.admin.get('/_sandbox/requests');
		expect(r.status).toBe(200);
		expect(r.data.notice).toMatch(/NOT part/);
		const [first, second] = r.data.requests;
		expect(first).toMatchObject({
			seq: 1,
			method: 'POST',
			path: '/api/v1/assets/1001/todos',
			operation: 'createTodo',
			body: { name: 'logged' },
			status: 201,
			key,
			replayed: false,
			fault: null,
			delivered: true,
		});
		expect(first.headers['idempotency-key']).toBe(key);
		expect(first.headers.authorization).toBeUndefined();
		expect(JSON.stringify(r.data)).not.toContain(TOKENS.fullAccess);
		expect(second).toMatchObject({ body: '{"name":', status: 422, key: null });
		expect(t.sb.requests()).toEqual(r.data.requests);
		// admin requests are not recorded
		expect(r.data.requests).toHaveLength(2);
		expect((await t.admin.delete('/_sandbox/requests')).status).toBe(200);
		expect(t.sb.requests()).toHaveLength(0);
	});
});

describe('start and finish times in the request log', () => {
	test('epoch milliseconds with sub-millisecond precision; a request sent after a response starts after it finished', async () => {
		const before = Date.now();
		await todo(t.http, 1001, { name: 'first' });
		await todo(t.http, 1001, { name: 'second' });
		const after = Date.now();
		const [first, second] = t.sb.requests();
		const times = [first.startedAtMs, first.finishedAtMs, second.startedAtMs, second.finishedAtMs];
		// The monotonic clock and Date.now() may drift apart a little; a second is plenty.
		for (const time of times) {
			expect(time).toBeGreaterThan(before - 1000);
			expect(time).toBeLessThan(after + 1000);
		}
		expect(times.some((time) => !Number.isInteger(time))).toBe(true);
		expect(first.finishedAtMs).toBeGreaterThanOrEqual(first.startedAtMs);
		expect(second.startedAtMs).toBeGreaterThanOrEqual(first.finishedAtMs);
		expect(second.finishedAtMs).toBeGreaterThanOrEqual(second.startedAtMs);
	});

	test('concurrent requests overlap; a slow response finishes when it is written, a reset when the connection ends', async () => {
		t.sb.setFaults({ processingDelayMs: 1 });
		// Both are held until both arrived: they overlap by construction.
		const holds = holdRequests(t.sb);
		const both = Promise.all([
			todo(t.http, 1001, { name: 'a' }),
			todo(t.http, 1002, { name: 'b' }),
		]);
		await holds.nth(2);
		t.sb.holdRequests(null);
		await both;
		const [a, b] = t.sb.requests();
		expect(Math.max(a.startedAtMs, b.startedAtMs)).toBeLessThan(
			Math.min(a.finishedAtMs, b.finishedAtMs),
		);

		t.sb.setFaults({ slowResponseRate: 1, slowResponseDelayMs: 100, maxFaultsPerKey: 1 });
		await todo(t.http, 1001, { name: 'slow' });
		const slow = t.sb.requests()[2];
		expect(slow.fault).toBe('slowResponse');
		// Timers may fire a millisecond early.
		expect(slow.finishedAtMs - slow.startedAtMs).toBeGreaterThanOrEqual(99);

		t.sb.setFaults({ resetBeforeApplyRate: 1, maxFaultsPerKey: 1 });
		await expect(todo(t.http, 1001, { name: 'reset' })).rejects.toMatchObject({
			code: 'ECONNRESET',
			message: expect.stringMatching(/socket hang up|ECONNRESET/),
		});
		const reset = t.sb.requests()[3];
		expect(reset).toMatchObject({ fault: 'resetBeforeApply', delivered: false });
		expect(reset.finishedAtMs).toBeGreaterThanOrEqual(reset.startedAtMs);
	});
});

describe('POST /_sandbox/reset', () => {
	test('back to the seed', async () => {
		await acquisition(t.http, 1101, { event_type_id: 301 });
		t.sb.setFaults({ latencyMs: 1 });
		const r = await t.admin.post('/_sandbox/reset');
		expect(r.status).toBe(200);
		const s = t.sb.state();
		expect(s.acquisitions).toHaveLength(0);
		expect(s.assets.find((a) => a.id === 1101)?.status).toBe('decommissioned');
		expect(s.organizations[0].plan.reactivations_used).toBe(0);
		expect(s.counters.requestsTotal).toBe(0);
		expect(t.sb.requests()).toHaveLength(0);
		// the fault config stays; its counters restart
		expect(s.faults).toEqual({ latencyMs: 1 });
	});

	test('IDs restart from the seed values', async () => {
		const a = (await todo(t.http, 1001, { name: 'x' })).data.data.todo.id;
		t.sb.reset();
		expect((await todo(t.http, 1001, { name: 'x' })).data.data.todo.id).toBe(a);
	});

	test('a request under way at the reset changes nothing in the new world and is in neither its log nor its counters', async () => {
		t.sb.setFaults({ latencyMs: 1 });
		const holds = holdRequests(t.sb);
		const underWay = todo(t.http, 1001, { name: 'before the reset' });
		const held = await holds.nth(1);
		t.sb.reset();
		t.sb.setFaults(null);
		held.release();
		const after = await todo(t.http, 1002, { name: 'after the reset' });
		expect(after.status).toBe(201);
		const answer = await underWay;
		expect([answer.status, answer.data.message]).toEqual([
			503,
			'The sandbox was reset; send the request again.',
		]);
		const s = t.sb.state();
		expect(s.todos.map(({ name }) => name)).toEqual(['after the reset']);
		expect(s.counters.requestsTotal).toBe(1);
		expect(t.sb.requests().map(({ body }) => body)).toEqual([{ name: 'after the reset' }]);
	});

	test('a request held in flight (being processed) at the reset is not applied in the new world', async () => {
		t.sb.setFaults({ holdInFlightRate: 1 });
		const holds = holdRequests(t.sb);
		const underWay = todo(t.http, 1001, { name: 'held at the reset' });
		const held = await holds.nth(1);
		expect(held.kind).toBe('holdInFlight');
		t.sb.reset();
		t.sb.setFaults(null);
		held.release();
		const answer = await underWay;
		expect([answer.status, answer.data.message]).toEqual([
			503,
			'The sandbox was reset; send the request again.',
		]);
		expect(t.sb.state().todos).toEqual([]);
	});

	test('unknown control endpoints are 404, wrong methods 405; health needs no token', async () => {
		expect((await t.admin.get('/_sandbox/nope')).status).toBe(404);
		expect((await t.admin.get('/_sandbox/reset')).status).toBe(405);
		const h = await t.http.get('/_sandbox/health');
		expect(h.status).toBe(200);
		expect(h.data.ok).toBe(true);
	});
});

describe('request log', () => {
	test('keeps the latest recordedRequests API requests', async () => {
		const t = await startTestSandbox({ recordedRequests: 2 });
		try {
			for (const name of ['a', 'b', 'c']) await todo(t.http, 1001, { name });
			const r = await t.admin.get('/_sandbox/requests');
			expect(
				r.data.requests.map((request: { body: { name: string } }) => request.body.name),
			).toEqual(['b', 'c']);
		} finally {
			await t.sb.close();
		}
	});

	test('refuses a recordedRequests that is not a positive integer', async () => {
		await expect(startSandbox({ log: false, recordedRequests: 0 })).rejects.toThrow(
			'recordedRequests must be a positive integer (got 0)',
		);
	});

	test('JSON lines to a callback: method, path, status, key, duration; never the token', async () => {
		const entries: LogEntry[] = [];
		const sb = await startSandbox({ log: (e) => entries.push(e) });
		try {
			const http = axios.create({ baseURL: sb.baseUrl, validateStatus: () => true });
			const key = randomUUID();
			await todo(http, 1001, { name: 'x' }, { key });
			await todo(http, 1001, { name: 'x' }, { key });
			expect(entries).toHaveLength(2);
			expect(entries[0]).toMatchObject({
				method: 'POST',
				path: '/api/v1/assets/1001/todos',
				status: 201,
				key,
				replayed: false,
				fault: null,
				operation: 'createTodo',
			});
			expect(entries[1].replayed).toBe(true);
			expect(typeof entries[0].durationMs).toBe('number');
			expect(JSON.stringify(entries)).not.toContain('inv_demo');
		} finally {
			await sb.close();
		}
	});

	test('default: JSON lines on stdout', async () => {
		const writes: string[] = [];
		const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
			writes.push(String(chunk));
			return true;
		});
		const sb = await startSandbox();
		try {
			const http = axios.create({ baseURL: sb.baseUrl, validateStatus: () => true });
			await todo(http, 1001, { name: 'x' });
		} finally {
			await sb.close();
			spy.mockRestore();
		}
		const lines = writes.join('').trim().split('\n');
		expect(lines).toHaveLength(1);
		const entry = JSON.parse(lines[0]);
		expect(entry).toMatchObject({ method: 'POST', status: 201 });
		expect(lines[0]).not.toContain(TOKENS.fullAccess);
	});

	test('log: false is silent', async () => {
		const spy = jest.spyOn(process.stdout, 'write');
		const sb = await startSandbox({ log: false });
		try {
			await todo(axios.create({ baseURL: sb.baseUrl, validateStatus: () => true }), 1001, {
				name: 'x',
			});
		} finally {
			await sb.close();
		}
		expect(spy).not.toHaveBeenCalled();
		spy.mockRestore();
	});
});

describe('options', () => {
	test('baseUrl is loopback with no trailing slash; admin token option', async () => {
		const sb = await startSandbox({ log: false, adminToken: 'secret-admin' });
		try {
			expect(sb.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
			expect(sb.adminToken).toBe('secret-admin');
			const http = axios.create({ baseURL: sb.baseUrl, validateStatus: () => true });
			expect(
				(await http.get('/_sandbox/state', { headers: { Authorization: 'Bearer sandbox-admin' } }))
					.status,
			).toBe(401);
			expect(
				(await http.get('/_sandbox/state', { headers: { Authorization: 'Bearer secret-admin' } }))
					.status,
			).toBe(200);
		} finally {
			await sb.close();
		}
	});

	test('a replacement seed file', async () => {
		const seed = JSON.parse(readFileSync(DEFAULT_SEED_FILE, 'utf8')) as SeedData;
		seed.tokens.push({
			token: 'my_token',
			organization_id: 2,
			user_id: 201,
			kind: 'customer_api',
			permissions: ['assets:todos'],
		});
		const dir = mkdtempSync(join(tmpdir(), 'sandbox-seed-'));
		const file = join(dir, 'seed.json');
		writeFileSync(file, JSON.stringify(seed));
		const sb = await startSandbox({ log: false, seedFile: file });
		try {
			const http = axios.create({ baseURL: sb.baseUrl, validateStatus: () => true });
			const r = await todo(http, 1901, { name: 'x' }, { token: 'my_token' });
			expect(r.status).toBe(201);
			expect(r.data.data.todo.created_by).toBe(201);
		} finally {
			await sb.close();
		}
	});

	test('a seed object, and the now option', async () => {
		const seed = JSON.parse(readFileSync(DEFAULT_SEED_FILE, 'utf8')) as SeedData;
		const sb = await startSandbox({
			log: false,
			seed,
			now: () => new Date('2025-01-01T00:00:00Z'),
		});
		try {
			const http = axios.create({ baseURL: sb.baseUrl, validateStatus: () => true });
			const r = await todo(http, 1001, { name: 'x' });
			expect(r.data.data.todo.created_at).toBe('2025-01-01T00:00:00.000000Z');
			// 2025-06-01 is in the future for this clock
			const a = await acquisition(http, 1001, {
				event_type_id: 301,
				event_date: '2025-06-01T00:00:00+00:00',
			});
			expect(a.status).toBe(422);
			// the expired token expired exactly then: still 401 (expiry not in the future)
			expect((await todo(http, 1001, { name: 'x' }, { token: TOKENS.expired })).status).toBe(401);
		} finally {
			await sb.close();
		}
	});

	test('an invalid seed is refused with a readable error', async () => {
		await expect(
			startSandbox({ log: false, seed: { organizations: [], tokens: [] } }),
		).rejects.toThrow(/organizations/);
		const bad = JSON.parse(readFileSync(DEFAULT_SEED_FILE, 'utf8')) as SeedData;
		bad.organizations[0].users.push({ id: 501, name: 'clash with a person' });
		await expect(startSandbox({ log: false, seed: bad })).rejects.toThrow(/duplicate/);
		await expect(startSandbox({ log: false, seedFile: '/nonexistent/seed.json' })).rejects.toThrow(
			/Cannot read seed file/,
		);
	});

	test('close() is idempotent and ends open connections', async () => {
		const sb = await startSandbox({ log: false, faults: { slowResponseRate: 1 } });
		const holds = holdRequests(sb);
		const http = axios.create({ baseURL: sb.baseUrl, validateStatus: () => true });
		const pending = todo(http, 1001, { name: 'x' }).catch((e: Error) => e);
		// Its answer is held (never released): the connection is open when the sandbox closes.
		await holds.nth(1);
		await Promise.all([sb.close(), sb.close()]);
		expect(await pending).toBeInstanceOf(Error);
	});
});
