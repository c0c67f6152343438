import { randomUUID } from 'node:crypto';

import axios, { type AxiosInstance, type AxiosResponse } from 'axios';

import { TOKENS } from '../../test/fixtures';
import { startSandbox, type HeldRequest, type SandboxHandle, type SandboxOptions } from '../src';

export interface TestSandbox {
	sb: SandboxHandle;
	http: AxiosInstance;
	admin: AxiosInstance;
}

export async function startTestSandbox(opts: SandboxOptions = {}): Promise<TestSandbox> {
	const sb = await startSandbox({ log: false, ...opts });
	const http = axios.create({ baseURL: sb.baseUrl, validateStatus: () => true });
	const admin = axios.create({
		baseURL: sb.baseUrl,
		validateStatus: () => true,
		headers: { Authorization: `Bearer ${sb.adminToken}` },
	});
	return { sb, http, admin };
}

/** One sandbox per test file, with its faults and rate limit off and its data back at the seed before each test. */
export function useTestSandbox(): TestSandbox {
	const t = {} as TestSandbox;
	beforeAll(async () => {
		Object.assign(t, await startTestSandbox());
	});
	afterAll(() => t.sb.close());
	beforeEach(() => {
		t.sb.holdRequests(null);
		t.sb.setFaults(null);
		t.sb.setRateLimit(null);
		t.sb.reset();
	});
	return t;
}

export interface Holds {
	/** Every request held so far, in the order the holds began. */
	all: HeldRequest[];
	/** The `count`-th request held (1 = the first), once it is held. */
	nth(count: number): Promise<HeldRequest>;
}

/** From now on the sandbox's timed waits hold their requests until released (holdRequests); these are they. */
export function holdRequests(sb: SandboxHandle): Holds {
	const all: HeldRequest[] = [];
	const waiting: Array<{ count: number; resolve: (held: HeldRequest) => void }> = [];
	sb.holdRequests((held) => {
		all.push(held);
		for (const waiter of waiting.filter(({ count }) => count === all.length)) waiter.resolve(held);
	});
	return {
		all,
		nth: (count) =>
			count <= all.length
				? Promise.resolve(all[count - 1])
				: new Promise((resolve) => waiting.push({ count, resolve })),
	};
}

export interface CallOptions {
	token?: string | null;
	key?: string | null;
	headers?: Record<string, string>;
	timeout?: number;
	/** Send a string body byte for byte (no axios JSON handling). */
	raw?: boolean;
	/** Aborting it ends the request on the client's side, as a timeout would. */
	signal?: AbortSignal;
}

export function call(
	http: AxiosInstance,
	method: 'POST' | 'PUT' | 'GET' | 'PATCH' | 'DELETE',
	path: string,
	body?: unknown,
	opts: CallOptions = {},
): Promise<AxiosResponse> {
	const headers: Record<string, string> = { Accept: 'application/json' };
	const token = opts.token === undefined ? TOKENS.fullAccess : opts.token;
	if (token !== null) headers.Authorization = `Bearer ${token}`;
	const key = opts.key === undefined ? randomUUID() : opts.key;
	if (key !== null) headers['Idempotency-Key'] = key;
	if (body !== undefined && typeof body !== 'string') headers['Content-Type'] = 'application/json';
	return http.request({
		method,
		url: path,
		data: body,
		headers: { ...headers, ...opts.headers },
		timeout: opts.timeout,
		signal: opts.signal,
		...(opts.raw ? { transformRequest: [(d: unknown) => d] } : {}),
	});
}

export const todo = (
	http: AxiosInstance,
	asset: number | string,
	body: unknown,
	opts?: CallOptions,
) => call(http, 'POST', `/api/v1/assets/${asset}/todos`, body, opts);
export const billing = (
	http: AxiosInstance,
	sub: number | string,
	body: unknown,
	opts?: CallOptions,
) => call(http, 'PUT', `/api/v1/subscriptions/${sub}/billing`, body, opts);
export const acquisition = (
	http: AxiosInstance,
	asset: number | string,
	body: unknown,
	opts?: CallOptions,
) => call(http, 'POST', `/api/v1/assets/${asset}/acquisitions`, body, opts);

/** YYYY-MM-DDThh:mm:ss±hh:mm for a Date, in the given offset (minutes east of UTC). */
export function eventDate(d: Date, offsetMinutes = 0): string {
	const local = new Date(d.getTime() + offsetMinutes * 60_000);
	const iso = local.toISOString().slice(0, 19);
	const sign = offsetMinutes < 0 ? '-' : '+';
	const abs = Math.abs(offsetMinutes);
	return `${iso}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

export const TIMESTAMP_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d+Z$/;

export const ASSET_STATE_KEYS = [
	'condition_id',
	'decommission_event_type_id',
	'is_in_storage',
	'location_id',
	'location_loan_due',
	'person_id',
	'person_loan_due',
	'status',
	'sublocation_id',
];

export const ASSET_RESULT_KEYS = [
	'asset_event_ids',
	'asset_id',
	'state',
	'subscription_event_ids',
	'todo',
	'tracker_disconnect_pending',
];

export { randomUUID };
