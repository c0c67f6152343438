import { Agent } from 'node:https';

import axios from 'axios';

import { TOKENS } from '../../test/fixtures';
import { randomUUID, todo } from './helpers';
import { startSandbox, type SandboxHandle } from '../src';
import { makeSelfSignedCertificate } from '../src/http/tls';

const clientTrusting = (sb: SandboxHandle, ca?: string) =>
	axios.create({
		baseURL: sb.baseUrl,
		validateStatus: () => true,
		httpsAgent: new Agent({ ca, keepAlive: false }),
	});

describe('HTTPS (tls option)', () => {
	let sb: SandboxHandle;
	beforeAll(async () => {
		sb = await startSandbox({ log: false, tls: true });
	});
	afterAll(() => sb.close());
	beforeEach(() => {
		sb.setFaults(null);
		sb.reset();
	});

	test('tls: true serves https with a self-signed certificate for 127.0.0.1 that the handle gives', async () => {
		expect(sb.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
		expect(sb.certificate).toMatch(
			/^-----BEGIN CERTIFICATE-----\n[\s\S]+\n-----END CERTIFICATE-----\n$/,
		);
		const http = clientTrusting(sb, sb.certificate);
		const r = await todo(http, 1001, { name: 'over TLS' });
		expect(r.status).toBe(201);
		expect(r.data.data.todo.name).toBe('over TLS');
		const state = await http.get('/_sandbox/state', {
			headers: { Authorization: `Bearer ${sb.adminToken}` },
		});
		expect(state.status).toBe(200);
		expect(state.data.todos).toHaveLength(1);
	});

	test('a client that does not trust the certificate fails with a certificate error; nothing reaches the API', async () => {
		await expect(todo(clientTrusting(sb), 1001, { name: 'x' })).rejects.toMatchObject({
			code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
		});
		expect(sb.requests()).toHaveLength(0);
		expect(sb.state().todos).toHaveLength(0);
	});

	test('faults work over TLS: a closed connection (not reset: TLS), then the retry applies once', async () => {
		sb.setFaults({ resetBeforeApplyRate: 1, maxFaultsPerKey: 1 });
		const http = clientTrusting(sb, sb.certificate);
		const key = randomUUID();
		await expect(todo(http, 1001, { name: 'x' }, { key })).rejects.toMatchObject({
			code: 'ECONNRESET',
			message: expect.stringMatching(/socket hang up|ECONNRESET/),
		});
		expect(sb.state().todos).toHaveLength(0);
		expect((await todo(http, 1001, { name: 'x' }, { key })).status).toBe(201);
		expect(sb.requests().map((r) => [r.status, r.fault])).toEqual([
			[null, 'resetBeforeApply'],
			[201, null],
		]);
	});
});

describe('tls options', () => {
	test('a given key and certificate are served, and the handle gives the certificate back', async () => {
		const own = makeSelfSignedCertificate();
		const sb = await startSandbox({ log: false, tls: own });
		try {
			expect(sb.certificate).toBe(own.cert);
			const r = await todo(clientTrusting(sb, own.cert), 1001, { name: 'x' });
			expect(r.status).toBe(201);
		} finally {
			await sb.close();
		}
	});

	test('without tls: plain http and no certificate', async () => {
		const sb = await startSandbox({ log: false, tls: false });
		try {
			expect(sb.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
			expect(sb.certificate).toBeUndefined();
			const http = axios.create({ baseURL: sb.baseUrl, validateStatus: () => true });
			expect((await todo(http, 1001, { name: 'x' }, { token: TOKENS.fullAccess })).status).toBe(
				201,
			);
		} finally {
			await sb.close();
		}
	});
});
