import axios from 'axios';
import { sleep } from 'n8n-workflow';

import { TOKENS } from '../../test/fixtures';
import { acquisition, billing, holdRequests, randomUUID, todo, useTestSandbox } from './helpers';
import { startSandbox, type FaultConfig } from '../src';

const t = useTestSandbox();

/** Sends until success or the retry budget is spent; network errors count as failed attempts. */
async function withRetries(
	send: () => Promise<{ status: number; headers: Record<string, unknown> }>,
	budget: number,
) {
	const outcomes: (number | string)[] = [];
	for (let i = 0; i < budget; i++) {
		try {
			const r = await send();
			outcomes.push(r.status);
			if (r.status < 300)
				return { ok: true, outcomes, replayed: r.headers['idempotent-replayed'] === 'true' };
		} catch (error) {
			outcomes.push((error as { code?: string }).code ?? 'error');
		}
	}
	return { ok: false, outcomes, replayed: false };
}

describe('fault injection', () => {
	test('off by default', async () => {
		expect(t.sb.state().faults).toBeNull();
		for (let i = 0; i < 10; i++) expect((await todo(t.http, 1001, { name: 'x' })).status).toBe(201);
		expect(Object.values(t.sb.state().counters.faults).every((n) => n === 0)).toBe(true);
	});

	test('5xx before the action is applied, capped by maxFaultsPerKey', async () => {
		t.sb.setFaults({ serverErrorRate: 1, maxFaultsPerKey: 3 });
		const key = randomUUID();
		const statuses = [];
		for (let i = 0; i < 4; i++)
			statuses.push((await todo(t.http, 1001, { name: 'x' }, { key })).status);
		expect(statuses).toEqual([503, 503, 503, 201]);
		const s = t.sb.state();
		expect(s.todos).toHaveLength(1);
		expect(s.counters.faults.serverError).toBe(3);
		expect(t.sb.requests().filter((r) => r.fault === 'serverError')).toHaveLength(3);
	});

	test('5xx status is configurable and marked with X-Sandbox-Fault', async () => {
		t.sb.setFaults({ serverErrorRate: 1, serverErrorStatus: 500, maxFaultsPerKey: 1 });
		const r = await todo(t.http, 1001, { name: 'x' });
		expect(r.status).toBe(500);
		expect(r.headers['x-sandbox-fault']).toBe('serverError');
		expect(t.sb.state().todos).toHaveLength(0);
	});

	test('429 with Retry-After after N requests per window; the per-key cap lets a retrying key through', async () => {
		t.sb.setFaults({ rateLimit: { requests: 3, windowMs: 60_000 }, maxFaultsPerKey: 2 });
		for (let i = 0; i < 3; i++) expect((await todo(t.http, 1001, { name: 'x' })).status).toBe(201);
		const key = randomUUID();
		const limited = await todo(t.http, 1001, { name: 'x' }, { key });
		expect(limited.status).toBe(429);
		expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
		expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
		expect((await todo(t.http, 1001, { name: 'x' }, { key })).status).toBe(429);
		expect((await todo(t.http, 1001, { name: 'x' }, { key })).status).toBe(201);
		expect(t.sb.state().counters.faults.rateLimited).toBe(2);
		expect(t.sb.state().todos).toHaveLength(4);
	});

	test('Retry-After can be fixed', async () => {
		t.sb.setFaults({ rateLimit: { requests: 0, windowMs: 1000, retryAfterSeconds: 7 } });
		const r = await todo(t.http, 1001, { name: 'x' });
		expect(r.status).toBe(429);
		expect(r.headers['retry-after']).toBe('7');
	});

	test('connection reset before the action is applied: nothing stored, the retry applies fresh', async () => {
		t.sb.setFaults({ resetBeforeApplyRate: 1, maxFaultsPerKey: 1 });
		const key = randomUUID();
		await expect(todo(t.http, 1001, { name: 'x' }, { key })).rejects.toMatchObject({
			code: expect.stringMatching(/ECONNRESET|ERR_BAD_RESPONSE|ECONNABORTED/),
		});
		expect(t.sb.state().todos).toHaveLength(0);
		const r = await todo(t.http, 1001, { name: 'x' }, { key });
		expect(r.status).toBe(201);
		expect(r.headers['idempotent-replayed']).toBeUndefined();
		expect(t.sb.state().todos).toHaveLength(1);
		expect(t.sb.requests()[0]).toMatchObject({
			fault: 'resetBeforeApply',
			delivered: false,
			status: null,
		});
	});

	test('connection dropped after the action is applied: record exists, the retry replays', async () => {
		t.sb.setFaults({ dropAfterApplyRate: 1, maxFaultsPerKey: 1 });
		const key = randomUUID();
		await expect(acquisition(t.http, 1001, { event_type_id: 301 }, { key })).rejects.toMatchObject({
			code: 'ECONNRESET',
			message: expect.stringMatching(/socket hang up|ECONNRESET/),
		});
		expect(t.sb.state().acquisitions).toHaveLength(1);
		const r = await acquisition(t.http, 1001, { event_type_id: 301 }, { key });
		expect(r.status).toBe(201);
		expect(r.headers['idempotent-replayed']).toBe('true');
		expect(t.sb.state().acquisitions).toHaveLength(1);
		expect(t.sb.requests()[0]).toMatchObject({
			fault: 'dropAfterApply',
			delivered: false,
			status: 201,
		});
	});

	test('slow response past a client timeout: applied and stored first, the retry replays', async () => {
		t.sb.setFaults({ slowResponseRate: 1, maxFaultsPerKey: 1 });
		// Held until released, so the client's timeout comes first whatever the machine's speed.
		const holds = holdRequests(t.sb);
		const key = randomUUID();
		const body = { price_model: 'lump_sum', cost: 42, billing_frequency: 'yearly' };
		await expect(billing(t.http, 2001, body, { key, timeout: 100 })).rejects.toMatchObject({
			code: 'ECONNABORTED',
		});
		expect(holds.all.map(({ kind, key: heldKey }) => [kind, heldKey])).toEqual([
			['slowResponse', key],
		]);
		expect(t.sb.state().billingChanges).toHaveLength(1);
		const r = await billing(t.http, 2001, body, { key });
		expect(r.status).toBe(200);
		expect(r.headers['idempotent-replayed']).toBe('true');
		expect(t.sb.state().counters.faults.slowResponse).toBe(1);
		holds.all[0].release();
	});

	test('a slow response still arrives for a patient client', async () => {
		t.sb.setFaults({ slowResponseRate: 1, slowResponseDelayMs: 50 });
		const r = await todo(t.http, 1001, { name: 'x' });
		expect(r.status).toBe(201);
		expect(t.sb.requests()[0]).toMatchObject({ fault: 'slowResponse', delivered: true });
	});

	test('a fresh action held in flight past a client timeout: a retry meanwhile gets 409, then it is applied once and the retry replays', async () => {
		t.sb.setFaults({ holdInFlightRate: 1, maxFaultsPerKey: 1 });
		// Held until released: past the client's timeout and the retry's 409 by construction.
		const holds = holdRequests(t.sb);
		const key = randomUUID();
		const body = { price_model: 'lump_sum', cost: 42, billing_frequency: 'yearly' };
		await expect(billing(t.http, 2001, body, { key, timeout: 100 })).rejects.toMatchObject({
			code: 'ECONNABORTED',
		});
		// Still held: nothing applied yet, and the same key is answered "still being processed".
		expect(t.sb.state().billingChanges).toHaveLength(0);
		const meanwhile = await billing(t.http, 2001, body, { key });
		expect(meanwhile.status).toBe(409);
		expect(meanwhile.data).toEqual({
			message:
				'A request with this Idempotency-Key is still being processed; retry later to get its result.',
		});
		expect(holds.all.map(({ kind, key: heldKey }) => [kind, heldKey])).toEqual([
			['holdInFlight', key],
		]);
		holds.all[0].release();
		while (t.sb.state().billingChanges.length === 0) await sleep(20);
		const after = await billing(t.http, 2001, body, { key });
		expect(after.status).toBe(200);
		expect(after.headers['idempotent-replayed']).toBe('true');

		const s = t.sb.state();
		expect(s.billingChanges).toHaveLength(1);
		expect(s.billingChanges[0].idempotency_key).toBe(key);
		expect(s.counters.faults.holdInFlight).toBe(1);
		expect(s.counters.idempotencyInFlight).toBe(1);
		expect(s.counters.applied).toBe(1);
		// In the order they completed: the 409, the held request (applied, its client gone), the replay.
		expect(t.sb.requests().map((r) => [r.status, r.fault, r.replayed, r.key])).toEqual([
			[409, null, false, key],
			[200, 'holdInFlight', false, key],
			[200, null, true, key],
		]);
	});

	test('a held action still answers a patient client; the hold counts towards maxFaultsPerKey', async () => {
		t.sb.setFaults({ holdInFlightRate: 1, holdInFlightMs: 50, maxFaultsPerKey: 1 });
		const r = await todo(t.http, 1001, { name: 'x' });
		expect(r.status).toBe(201);
		expect(t.sb.requests()[0]).toMatchObject({
			status: 201,
			fault: 'holdInFlight',
			delivered: true,
		});

		// A key whose one allowed fault was a 5xx is not held afterwards.
		t.sb.setFaults({
			serverErrorRate: 1,
			holdInFlightRate: 1,
			holdInFlightMs: 50,
			maxFaultsPerKey: 1,
		});
		const key = randomUUID();
		expect((await todo(t.http, 1002, { name: 'y' }, { key })).status).toBe(503);
		expect((await todo(t.http, 1002, { name: 'y' }, { key })).status).toBe(201);
		expect(
			t.sb
				.requests()
				.slice(1)
				.map((r) => [r.status, r.fault]),
		).toEqual([
			[503, 'serverError'],
			[201, null],
		]);
		expect(t.sb.state().counters.faults).toMatchObject({ holdInFlight: 1, serverError: 1 });
		expect(t.sb.state().todos).toHaveLength(2);
		expect(() => t.sb.setFaults({ holdInFlightRate: 1.5 })).toThrow(/holdInFlightRate/);
		expect(() => t.sb.setFaults({ holdInFlightMs: -1 })).toThrow(/holdInFlightMs/);
	});

	test('added latency is applied to every affected request and counted', async () => {
		t.sb.setFaults({ latencyMs: 20 });
		for (let i = 0; i < 3; i++) expect((await todo(t.http, 1001, { name: 'x' })).status).toBe(201);
		expect(t.sb.state().counters.faults.latency).toBe(3);
	});

	test('only the chosen operations are affected', async () => {
		t.sb.setFaults({ serverErrorRate: 1, operations: ['updateBilling'], maxFaultsPerKey: 10 });
		expect((await todo(t.http, 1001, { name: 'x' })).status).toBe(201);
		expect((await acquisition(t.http, 1001, { event_type_id: 301 })).status).toBe(201);
		expect(
			(
				await billing(t.http, 2001, {
					price_model: 'lump_sum',
					cost: 1,
					billing_frequency: 'yearly',
				})
			).status,
		).toBe(503);
	});

	test('a client with a retry budget above maxFaultsPerKey always succeeds, exactly once per action', async () => {
		t.sb.setFaults({
			seed: 42,
			serverErrorRate: 0.3,
			resetBeforeApplyRate: 0.2,
			dropAfterApplyRate: 0.3,
			slowResponseRate: 0.2,
			maxFaultsPerKey: 3,
		});
		// A slow response is the client's timeout: the client gives up on it, then the sandbox lets it go.
		let attempt = new AbortController();
		t.sb.holdRequests((held) => {
			attempt.abort();
			held.release();
		});
		for (let i = 0; i < 30; i++) {
			const key = randomUUID();
			const res = await withRetries(() => {
				attempt = new AbortController();
				return todo(
					t.http,
					1001 + (i % 20),
					{ name: `action ${i}` },
					{ key, signal: attempt.signal },
				);
			}, 4);
			expect(res).toMatchObject({ ok: true });
		}
		const s = t.sb.state();
		expect(s.todos).toHaveLength(30);
		const injected = s.counters.faults;
		expect(
			injected.serverError +
				injected.resetBeforeApply +
				injected.dropAfterApply +
				injected.slowResponse,
		).toBeGreaterThan(0);
	});

	test('decisions are deterministic for a seed, key and attempt', async () => {
		const config: FaultConfig = { seed: 7, serverErrorRate: 0.5, maxFaultsPerKey: 100 };
		const keys = Array.from(
			{ length: 24 },
			(_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
		);
		const run = async (cfg: FaultConfig) => {
			const sb = await startSandbox({ log: false, faults: cfg });
			const http = axios.create({ baseURL: sb.baseUrl, validateStatus: () => true });
			const statuses: number[] = [];
			try {
				for (const key of keys) {
					for (let attempt = 0; attempt < 2; attempt++)
						statuses.push((await todo(http, 1001, { name: 'x' }, { key })).status);
				}
			} finally {
				await sb.close();
			}
			return statuses;
		};
		const a = await run(config);
		const b = await run(config);
		const c = await run({ ...config, seed: 8 });
		expect(b).toEqual(a);
		expect(c).not.toEqual(a);
		expect(a.filter((s) => s === 503).length).toBeGreaterThan(0);
		expect(a.filter((s) => s === 201).length).toBeGreaterThan(0);
	});

	test('faults from the start options', async () => {
		const sb = await startSandbox({
			log: false,
			faults: { serverErrorRate: 1, maxFaultsPerKey: 1 },
		});
		try {
			const http = axios.create({ baseURL: sb.baseUrl, validateStatus: () => true });
			const key = randomUUID();
			expect((await todo(http, 1001, { name: 'x' }, { key })).status).toBe(503);
			expect((await todo(http, 1001, { name: 'x' }, { key })).status).toBe(201);
		} finally {
			await sb.close();
		}
	});

	test('an invalid config is refused', () => {
		expect(() => t.sb.setFaults({ serverErrorRate: 2 })).toThrow(/serverErrorRate/);
		expect(() => t.sb.setFaults({ operations: ['deleteEverything' as never] })).toThrow(
			/operations/,
		);
		expect(() => t.sb.setFaults({ bogus: 1 } as never)).toThrow(/unknown fault option/);
	});
});

describe('PUT/GET/DELETE /_sandbox/faults (admin token)', () => {
	test('sets, reads and clears the config', async () => {
		const put = await t.admin.put('/_sandbox/faults', {
			serverErrorRate: 1,
			maxFaultsPerKey: 1,
			operations: ['createTodo'],
		});
		expect(put.status).toBe(200);
		expect(put.data.faults).toEqual({
			serverErrorRate: 1,
			maxFaultsPerKey: 1,
			operations: ['createTodo'],
		});
		expect((await todo(t.http, 1001, { name: 'x' })).status).toBe(503);
		const get = await t.admin.get('/_sandbox/faults');
		expect(get.data.counters.serverError).toBe(1);
		expect(get.data.notice).toMatch(/NOT part of the Inventory API/);
		expect((await t.admin.delete('/_sandbox/faults')).status).toBe(200);
		expect((await todo(t.http, 1001, { name: 'x' })).status).toBe(201);
		expect((await t.admin.put('/_sandbox/faults', { serverErrorRate: 1 })).status).toBe(200);
		expect(
			(
				await t.admin.put('/_sandbox/faults', 'null', {
					headers: { 'Content-Type': 'application/json' },
				})
			).data.faults,
		).toBeNull();
	});

	test('invalid config is 422; wrong or API token is 401', async () => {
		expect((await t.admin.put('/_sandbox/faults', { latencyMs: -1 })).status).toBe(422);
		const noAuth = await t.http.put('/_sandbox/faults', { serverErrorRate: 1 });
		expect(noAuth.status).toBe(401);
		const apiToken = await t.http.put(
			'/_sandbox/faults',
			{ serverErrorRate: 1 },
			{ headers: { Authorization: `Bearer ${TOKENS.fullAccess}` } },
		);
		expect(apiToken.status).toBe(401);
		expect(t.sb.state().faults).toBeNull();
	});
});

describe('holdRequests: the timed waits last until released', () => {
	test('latency, then processing with the key in flight: each holds its request until release(), and the listener hears of each as it begins', async () => {
		t.sb.setFaults({ latencyMs: 1, processingDelayMs: 1 });
		const holds = holdRequests(t.sb);
		const key = randomUUID();
		const pending = todo(t.http, 1001, { name: 'held' }, { key });

		const latency = await holds.nth(1);
		expect(latency).toMatchObject({ kind: 'latency', seq: 1, key, operation: 'createTodo' });
		expect(t.sb.state().counters.requestsTotal).toBe(1);
		latency.release();
		latency.release(); // again: nothing more

		const processing = await holds.nth(2);
		expect(processing).toMatchObject({ kind: 'processing', seq: 1, key });
		expect(t.sb.state().todos).toHaveLength(0);
		expect(t.sb.requests()).toHaveLength(0);
		processing.release();

		expect((await pending).status).toBe(201);
		expect(t.sb.state().todos).toHaveLength(1);
		expect(holds.all).toHaveLength(2);
	});

	test('holdInFlight and slowResponse; null lets every held request go, and the waits take their milliseconds again', async () => {
		const holds = holdRequests(t.sb);
		t.sb.setFaults({ holdInFlightRate: 1, maxFaultsPerKey: 1 });
		const inFlight = todo(t.http, 1001, { name: 'held in flight' });
		expect(await holds.nth(1)).toMatchObject({ kind: 'holdInFlight', seq: 1 });

		t.sb.setFaults({ slowResponseRate: 1, maxFaultsPerKey: 1 });
		const slow = todo(t.http, 1002, { name: 'slow' });
		expect(await holds.nth(2)).toMatchObject({ kind: 'slowResponse', seq: 2 });
		// The slow one is applied and stored, its answer held; the one in flight is not applied yet.
		expect(t.sb.state().todos.map(({ name }) => name)).toEqual(['slow']);

		t.sb.holdRequests(null);
		expect([(await inFlight).status, (await slow).status]).toEqual([201, 201]);
		expect(t.sb.requests().map(({ seq, fault }) => [seq, fault])).toEqual(
			expect.arrayContaining([
				[1, 'holdInFlight'],
				[2, 'slowResponse'],
			]),
		);

		t.sb.setFaults({ slowResponseRate: 1, slowResponseDelayMs: 1, maxFaultsPerKey: 1 });
		expect((await todo(t.http, 1003, { name: 'timed' })).status).toBe(201);
		expect(t.sb.requests()[2]).toMatchObject({ seq: 3, fault: 'slowResponse', delivered: true });
		expect(holds.all).toHaveLength(2);
	});
});
