import { TOKENS } from '../../test/fixtures';
import { acquisition, billing, call, todo, useTestSandbox } from './helpers';

const t = useTestSandbox();

const ops = {
	todos: (token: string | null) => todo(t.http, 1001, { name: 'x' }, { token }),
	billing: (token: string | null) =>
		billing(
			t.http,
			2001,
			{ price_model: 'lump_sum', cost: 1, billing_frequency: 'yearly' },
			{ token },
		),
	acquisitions: (token: string | null) =>
		acquisition(t.http, 1001, { event_type_id: 301 }, { token }),
};
const success = { todos: 201, billing: 200, acquisitions: 201 };

describe('authentication (401)', () => {
	test.each([TOKENS.expired, TOKENS.revoked, TOKENS.personal, 'not-a-token'])(
		'%s is 401 on every endpoint',
		async (token) => {
			for (const op of Object.values(ops)) {
				const r = await op(token);
				expect(r.status).toBe(401);
				expect(typeof r.data.message).toBe('string');
			}
		},
	);

	test('missing Authorization header is 401', async () => {
		const r = await ops.todos(null);
		expect(r.status).toBe(401);
		expect(r.headers['www-authenticate']).toBe('Bearer');
	});

	test('non-Bearer scheme is 401', async () => {
		const r = await todo(
			t.http,
			1001,
			{ name: 'x' },
			{ headers: { Authorization: 'Basic aW52OmRlbW8=' } },
		);
		expect(r.status).toBe(401);
	});

	test('the admin token is not an API token', async () => {
		expect((await ops.todos(t.sb.adminToken)).status).toBe(401);
	});

	test('401 comes before the Idempotency-Key check and nothing is applied', async () => {
		const r = await todo(t.http, 1001, { name: 'x' }, { token: TOKENS.revoked, key: null });
		expect(r.status).toBe(401);
		expect(t.sb.state().todos).toHaveLength(0);
	});
});

describe('authorization (403): every permission mix', () => {
	const matrix: Record<string, Record<keyof typeof ops, boolean>> = {
		[TOKENS.fullAccess]: { todos: true, billing: true, acquisitions: true },
		[TOKENS.noTodos]: { todos: false, billing: true, acquisitions: true },
		[TOKENS.noBilling]: { todos: true, billing: false, acquisitions: true },
		[TOKENS.noLifecycle]: { todos: true, billing: true, acquisitions: false },
		[TOKENS.todosOnly]: { todos: true, billing: false, acquisitions: false },
		[TOKENS.billingOnly]: { todos: false, billing: true, acquisitions: false },
		[TOKENS.lifecycleOnly]: { todos: false, billing: false, acquisitions: true },
		[TOKENS.noPermissions]: { todos: false, billing: false, acquisitions: false },
	};
	test.each(Object.keys(matrix))('%s', async (token) => {
		for (const [op, allowed] of Object.entries(matrix[token]) as [keyof typeof ops, boolean][]) {
			const r = await ops[op](token);
			expect([op, r.status]).toEqual([op, allowed ? success[op] : 403]);
		}
	});

	test('403 comes before 404 and before the Idempotency-Key check', async () => {
		expect((await todo(t.http, 999999, { name: 'x' }, { token: TOKENS.noTodos })).status).toBe(403);
		expect(
			(await todo(t.http, 1001, { name: 'x' }, { token: TOKENS.noTodos, key: 'nope' })).status,
		).toBe(403);
	});
});

describe('records outside the organization (404)', () => {
	test('asset and subscription of the other organization are 404', async () => {
		expect((await todo(t.http, 1901, { name: 'x' })).status).toBe(404);
		expect((await acquisition(t.http, 1901, { event_type_id: 301 })).status).toBe(404);
		expect(
			(
				await billing(t.http, 2901, {
					price_model: 'lump_sum',
					cost: 1,
					billing_frequency: 'yearly',
				})
			).status,
		).toBe(404);
		// and the other way round
		expect((await todo(t.http, 1001, { name: 'x' }, { token: TOKENS.otherOrg })).status).toBe(404);
		expect((await todo(t.http, 1901, { name: 'x' }, { token: TOKENS.otherOrg })).status).toBe(201);
	});

	test('unknown IDs and IDs of the wrong kind are 404', async () => {
		expect((await todo(t.http, 424242, { name: 'x' })).status).toBe(404);
		expect((await todo(t.http, 2001, { name: 'x' })).status).toBe(404); // a subscription ID on an asset path
		expect(
			(
				await billing(t.http, 1001, {
					price_model: 'lump_sum',
					cost: 1,
					billing_frequency: 'yearly',
				})
			).status,
		).toBe(404);
	});

	test('404 is reported even when the body is invalid (record lookup first)', async () => {
		const r = await todo(t.http, 1901, { name: '' });
		expect(r.status).toBe(404);
		expect(r.data.errors).toBeUndefined();
	});

	test.each(['abc', '10x', '-1', '1.5', '%20'])(
		'non-numeric record id %s is 404',
		async (record) => {
			expect((await todo(t.http, record, { name: 'x' })).status).toBe(404);
			expect((await todo(t.http, record, { name: 'x' }, { token: null })).status).toBe(404);
		},
	);
});

describe('routing and headers', () => {
	test('unknown paths are 404, wrong methods 405 with Allow', async () => {
		expect((await call(t.http, 'POST', '/api/v2/assets/1001/todos', { name: 'x' })).status).toBe(
			404,
		);
		expect((await call(t.http, 'POST', '/api/v1/assets/1001/todos/', { name: 'x' })).status).toBe(
			404,
		);
		const r = await call(t.http, 'GET', '/api/v1/assets/1001/todos');
		expect(r.status).toBe(405);
		expect(r.headers.allow).toBe('POST');
		expect((await call(t.http, 'PATCH', '/api/v1/subscriptions/2001/billing', {})).status).toBe(
			405,
		);
	});

	test('every answer is JSON with a message, an unknown path too (a Base URL with /api/v1 twice, the root)', async () => {
		for (const path of ['/api/v1/api/v1/assets/1001/todos', '/', '/index.html']) {
			for (const token of [undefined, null]) {
				const r = await call(t.http, 'POST', path, { name: 'x' }, { token });
				expect([r.status, r.headers['content-type'], r.data]).toEqual([
					404,
					'application/json',
					{ message: 'Not found.' },
				]);
			}
		}
		const r = await call(t.http, 'GET', '/api/v1/assets/1001/todos');
		expect([r.headers['content-type'], r.data]).toEqual([
			'application/json',
			{ message: 'The GET method is not supported for this route.' },
		]);
	});

	test('Accept: absent, */* and application/json are fine; an Accept without JSON is 406', async () => {
		expect((await todo(t.http, 1001, { name: 'x' }, { headers: { Accept: '*/*' } })).status).toBe(
			201,
		);
		expect(
			(
				await todo(
					t.http,
					1001,
					{ name: 'x' },
					{ headers: { Accept: 'application/json; charset=utf-8' } },
				)
			).status,
		).toBe(201);
		expect(
			(await todo(t.http, 1001, { name: 'x' }, { headers: { Accept: 'text/html, */*;q=0.1' } }))
				.status,
		).toBe(201);
		expect((await todo(t.http, 1001, { name: 'x' }, { headers: { Accept: '' } })).status).toBe(201);
		const r = await todo(t.http, 1001, { name: 'x' }, { headers: { Accept: 'text/html' } });
		expect(r.status).toBe(406);
		expect(
			(await todo(t.http, 1001, { name: 'x' }, { headers: { Accept: 'application/json;q=0' } }))
				.status,
		).toBe(406);
		expect(t.sb.state().todos).toHaveLength(4);
	});

	test('a body without Content-Type: application/json is 422', async () => {
		const r = await todo(t.http, 1001, '{"name":"x"}', {
			headers: { 'Content-Type': 'text/plain' },
			raw: true,
		});
		expect(r.status).toBe(422);
		expect(r.data.message).toMatch(/Content-Type/);
		const ok = await todo(t.http, 1001, '{"name":"x"}', {
			headers: { 'Content-Type': 'application/json; charset=utf-8' },
			raw: true,
		});
		expect(ok.status).toBe(201);
	});

	test('malformed JSON and non-object JSON are 422', async () => {
		const headers = { 'Content-Type': 'application/json' };
		expect((await todo(t.http, 1001, '{"name":', { headers, raw: true })).status).toBe(422);
		expect((await todo(t.http, 1001, '[{"name":"x"}]', { headers, raw: true })).status).toBe(422);
		expect((await todo(t.http, 1001, '"x"', { headers, raw: true })).status).toBe(422);
		expect(t.sb.state().todos).toHaveLength(0);
	});

	test('an empty body counts as {} (so required fields are reported per field)', async () => {
		const r = await call(t.http, 'POST', '/api/v1/assets/1001/todos');
		expect(r.status).toBe(422);
		expect(r.data.errors).toEqual({ name: [expect.any(String)] });
	});

	test('responses are JSON', async () => {
		const r = await todo(t.http, 1001, { name: 'x' });
		expect(r.headers['content-type']).toMatch(/^application\/json/);
	});
});
