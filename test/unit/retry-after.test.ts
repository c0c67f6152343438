/**
 * Retry-After (transport/answers/attemptResult.ts): both forms RFC 9110 allows, delay-seconds and an
 * HTTP-date, read against a clock jest controls; how a 429's wait is bounded by Max Retry Wait; and
 * the back-off (full jitter) where the server names no wait (transport/policy/rules.ts).
 */
import type { RetryPolicy } from '../../nodes/Inventory/transport/policy/rules';
import { transportRetry, transportRetryAfter } from '../node/package-modules';

const { retryWait } = transportRetry;
const { parseRetryAfter } = transportRetryAfter;

/** What every answer of the API below has besides its kind and status. */
const fromApi = {
	body: { message: 'Refused.' },
	answeredBy: 'api' as const,
	earlierUnanswered: false,
};

const NOW = Date.parse('2026-11-24T20:00:00.000Z');

/** A retry policy (Max Retries 3, Retry Delay 1 s, Max Retry Wait 30 s), but for `options`. */
const retryPolicy = (options: Partial<RetryPolicy> = {}): RetryPolicy => ({
	maxRetries: 3,
	baseDelayMs: 1000,
	maxDelayMs: 30_000,
	timeoutMs: 30_000,
	concurrencyOption: 'Max Automatic Concurrency',
	...options,
});

beforeEach(() => {
	jest.useFakeTimers({ now: NOW });
});
afterEach(() => {
	jest.useRealTimers();
});

describe('Retry-After in seconds', () => {
	test.each([
		['120', 120_000],
		['0', 0],
		[' 5 ', 5000],
		['1.5', 1500],
	])('"%s" is %i ms', (value, ms) => {
		expect(parseRetryAfter({ 'retry-after': value })).toBe(ms);
	});

	test('the header name is matched in any case, and a repeated header counts once', () => {
		expect(parseRetryAfter({ 'Retry-After': '3' })).toBe(3000);
		expect(parseRetryAfter({ 'retry-after': ['7', '9'] })).toBe(7000);
	});
});

describe('Retry-After as an HTTP-date', () => {
	test('a date 90 s ahead of the clock is 90,000 ms', () => {
		expect(parseRetryAfter({ 'retry-after': 'Tue, 24 Nov 2026 20:01:30 GMT' })).toBe(90_000);
	});

	test('the same header read later is shorter: the wait counts from now', () => {
		const headers = { 'retry-after': 'Tue, 24 Nov 2026 20:01:30 GMT' };
		jest.advanceTimersByTime(60_000);
		expect(parseRetryAfter(headers)).toBe(30_000);
	});

	test('`now` given explicitly wins over the clock', () => {
		expect(
			parseRetryAfter(
				{ 'retry-after': 'Tue, 24 Nov 2026 20:01:30 GMT' },
				Date.parse('2026-11-24T20:01:00Z'),
			),
		).toBe(30_000);
	});

	test('a date in the past is no wait at all', () => {
		expect(parseRetryAfter({ 'retry-after': 'Tue, 24 Nov 2026 19:59:00 GMT' })).toBe(0);
	});
});

describe('no usable Retry-After', () => {
	test.each([[{}], [undefined], [{ 'retry-after': 'soon' }], [{ 'retry-after': '-5' }]])(
		'%j is undefined',
		(headers) => {
			expect(parseRetryAfter(headers)).toBeUndefined();
		},
	);
});

describe("a 429's wait", () => {
	const policy = retryPolicy();
	const rateLimited = (retryAfterMs: number | undefined) => ({
		...fromApi,
		kind: 'rateLimited' as const,
		statusCode: 429,
		retryAfterMs,
	});

	test('is what Retry-After asks for, up to Max Retry Wait', () => {
		const fromDate = parseRetryAfter({ 'retry-after': 'Tue, 24 Nov 2026 20:00:20 GMT' });
		expect(retryWait(policy, 0, rateLimited(fromDate))).toBe(20_000);
		expect(retryWait(policy, 0, rateLimited(30_000))).toBe(30_000);
	});

	test('a longer wait, or the retries spent, end the item', () => {
		expect(retryWait(policy, 0, rateLimited(30_001))).toBeUndefined();
		expect(retryWait(policy, 3, rateLimited(1000))).toBeUndefined();
	});
});

describe('the back-off of a 5xx or a network failure', () => {
	const policy = retryPolicy({ maxRetries: 5, maxDelayMs: 6000 });
	const serverError = { ...fromApi, kind: 'serverError' as const, statusCode: 500 };
	const reset = {
		kind: 'networkFailure' as const,
		failure: { code: 'ECONNRESET', retryable: true, fateUnknown: true },
		earlierUnanswered: false,
	};
	afterEach(() => jest.restoreAllMocks());

	test.each([
		[0, 0, 0],
		[0, 0.5, 500],
		[0, 0.999, 999],
		[1, 0.5, 1000],
		[2, 0.25, 1000],
		// 8 s is over Max Retry Wait: the bound is 6 s.
		[3, 0.5, 3000],
		[3, 0.999, 5994],
	])(
		'retry %i, a draw of %d: a random time up to Retry Delay x 2^retry, at most Max Retry Wait (%i ms)',
		(retries, draw, waitMs) => {
			jest.spyOn(Math, 'random').mockReturnValue(draw);
			expect(retryWait(policy, retries, serverError)).toBe(waitMs);
			expect(retryWait(policy, retries, reset)).toBe(waitMs);
		},
	);

	test('a 409 of a request still being processed waits the whole bound, whatever the draw: only its own work is waited for', () => {
		jest.spyOn(Math, 'random').mockReturnValue(0);
		const stillProcessing = {
			...fromApi,
			kind: 'earlierAttemptInFlight' as const,
			statusCode: 409,
			unansweredCode: 'ECONNRESET',
		};
		expect([0, 1, 2, 3].map((retries) => retryWait(policy, retries, stillProcessing))).toEqual([
			1000, 2000, 4000, 6000,
		]);
	});
});
