import { AVAILABLE_ASSET_STATE, TOKENS } from '../../test/fixtures';
import { ASSET_RESULT_KEYS, ASSET_STATE_KEYS, TIMESTAMP_RE, todo, useTestSandbox } from './helpers';

const t = useTestSandbox();

describe('POST /api/v1/assets/{record}/todos', () => {
	test('201 with the asset result envelope and the to-do', async () => {
		const r = await todo(t.http, 1001, {
			name: 'Tag and label',
			due_date: '2026-12-31',
			assigned_to: 102,
			notes: 'Use the blue labels',
		});
		expect(r.status).toBe(201);
		expect(Object.keys(r.data)).toEqual(['data']);
		const d = r.data.data;
		expect(Object.keys(d).sort()).toEqual(ASSET_RESULT_KEYS);
		expect(d.asset_id).toBe(1001);
		expect(d.asset_event_ids).toEqual([]);
		expect(d.subscription_event_ids).toEqual([]);
		expect(d.tracker_disconnect_pending).toBe(false);
		expect(Object.keys(d.state).sort()).toEqual(ASSET_STATE_KEYS);
		expect(d.state).toEqual(AVAILABLE_ASSET_STATE);
		const td = d.todo;
		expect(Object.keys(td).sort()).toEqual(
			[
				'assigned_to',
				'created_at',
				'created_by',
				'due_date',
				'id',
				'is_complete',
				'name',
				'notes',
				'updated_at',
			].sort(),
		);
		expect(td).toMatchObject({
			name: 'Tag and label',
			notes: 'Use the blue labels',
			due_date: '2026-12-31',
			assigned_to: 102,
			created_by: 101, // the user of TOKENS.fullAccess
			is_complete: false,
		});
		expect(Number.isInteger(td.id)).toBe(true);
		expect(td.created_at).toMatch(TIMESTAMP_RE);
		expect(td.updated_at).toBe(td.created_at);
		expect(t.sb.state().todos).toEqual([
			expect.objectContaining({ id: td.id, asset_id: 1001, organization_id: 1 }),
		]);
	});

	test('minimal to-do: optional fields default to null / false', async () => {
		const r = await todo(t.http, 1002, { name: 'x' });
		expect(r.status).toBe(201);
		expect(r.data.data.todo).toMatchObject({
			notes: null,
			due_date: null,
			assigned_to: null,
			is_complete: false,
		});
	});

	test('is_complete true creates a complete to-do; false an open one', async () => {
		expect(
			(await todo(t.http, 1001, { name: 'done', is_complete: true })).data.data.todo.is_complete,
		).toBe(true);
		expect(
			(await todo(t.http, 1001, { name: 'open', is_complete: false })).data.data.todo.is_complete,
		).toBe(false);
	});

	test('explicit nulls are accepted for nullable fields', async () => {
		const r = await todo(t.http, 1001, {
			name: 'x',
			notes: null,
			due_date: null,
			assigned_to: null,
		});
		expect(r.status).toBe(201);
	});

	test('created_by is the user of the token', async () => {
		const r = await todo(t.http, 1001, { name: 'x' }, { token: TOKENS.todosOnly });
		expect(r.data.data.todo.created_by).toBe(102);
	});

	test('to-dos repeat on the same asset and get new IDs', async () => {
		const ids = [];
		for (let i = 0; i < 5; i++)
			ids.push((await todo(t.http, 1003, { name: `t${i}` })).data.data.todo.id);
		expect(new Set(ids).size).toBe(5);
		expect(t.sb.state().todos).toHaveLength(5);
	});

	test('to-dos emit no events', async () => {
		await todo(t.http, 1001, { name: 'x' });
		expect(t.sb.state().assetEvents).toHaveLength(0);
		expect(t.sb.state().subscriptionEvents).toHaveLength(0);
	});

	test('a decommissioned asset exists, so it takes to-dos (state shows the sandbox status)', async () => {
		const r = await todo(t.http, 1101, { name: 'x' });
		expect(r.status).toBe(201);
		expect(r.data.data.state.status).toBe('decommissioned');
		expect(r.data.data.state.decommission_event_type_id).toBe(306);
	});

	test('notes: plain text in, HTML-escaped with <br> for line breaks out', async () => {
		const r = await todo(t.http, 1001, { name: 'x', notes: 'line 1\nline <2> & more' });
		expect(r.data.data.todo.notes).toBe('line 1<br>\nline &lt;2&gt; &amp; more');
	});

	describe('validation (422 with per-field errors)', () => {
		const cases: [string, Record<string, unknown>, string][] = [
			['name missing', {}, 'name'],
			['name null', { name: null }, 'name'],
			['name empty', { name: '' }, 'name'],
			['name blank', { name: '   ' }, 'name'],
			['name not a string', { name: 5 }, 'name'],
			['name 256 chars', { name: 'a'.repeat(256) }, 'name'],
			['notes 10001 chars', { name: 'x', notes: 'n'.repeat(10_001) }, 'notes'],
			['notes not a string', { name: 'x', notes: 7 }, 'notes'],
			['due_date wrong format', { name: 'x', due_date: '2026/01/01' }, 'due_date'],
			['due_date impossible', { name: 'x', due_date: '2026-02-30' }, 'due_date'],
			['due_date with time', { name: 'x', due_date: '2026-02-01T00:00:00+00:00' }, 'due_date'],
			['assigned_to an inventory person', { name: 'x', assigned_to: 501 }, 'assigned_to'],
			['assigned_to another person', { name: 'x', assigned_to: 502 }, 'assigned_to'],
			[
				'assigned_to a user of another organization',
				{ name: 'x', assigned_to: 201 },
				'assigned_to',
			],
			['assigned_to unknown', { name: 'x', assigned_to: 99999 }, 'assigned_to'],
			['assigned_to a string', { name: 'x', assigned_to: '102' }, 'assigned_to'],
			['assigned_to fractional', { name: 'x', assigned_to: 102.5 }, 'assigned_to'],
			['is_complete a string', { name: 'x', is_complete: 'true' }, 'is_complete'],
			['is_complete null', { name: 'x', is_complete: null }, 'is_complete'],
			['unknown field', { name: 'x', title: 'y' }, 'title'],
		];
		test.each(cases)('%s', async (_label, body, field) => {
			const r = await todo(t.http, 1001, body);
			expect(r.status).toBe(422);
			expect(typeof r.data.message).toBe('string');
			expect(Object.keys(r.data.errors)).toEqual([field]);
			expect(r.data.errors[field]).toEqual([expect.any(String)]);
			expect(t.sb.state().todos).toHaveLength(0);
		});

		test('an inventory person is named as such in the error', async () => {
			const r = await todo(t.http, 1001, { name: 'x', assigned_to: 501 });
			expect(r.data.errors.assigned_to[0]).toMatch(/inventory person/);
		});

		test('several problems are all reported', async () => {
			const r = await todo(t.http, 1001, { name: '', due_date: 'soon', assigned_to: 501 });
			expect(Object.keys(r.data.errors).sort()).toEqual(['assigned_to', 'due_date', 'name']);
		});
	});

	test('limits are inclusive: 255-character name and 10,000-character notes are fine', async () => {
		const r = await todo(t.http, 1001, { name: 'a'.repeat(255), notes: 'n'.repeat(10_000) });
		expect(r.status).toBe(201);
	});

	test('lengths count characters, not UTF-16 units', async () => {
		expect((await todo(t.http, 1001, { name: '😀'.repeat(255) })).status).toBe(201);
		expect((await todo(t.http, 1001, { name: '😀'.repeat(256) })).status).toBe(422);
	});

	test('assigned_to accepts every organization user', async () => {
		for (const user of [101, 102, 103]) {
			expect((await todo(t.http, 1001, { name: 'x', assigned_to: user })).status).toBe(201);
		}
	});
});
