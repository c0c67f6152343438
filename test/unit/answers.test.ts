/**
 * Whether an answer is the Inventory API's, what is known of a failed request's fate, the per-field
 * reasons of a 422 (nested ones as dotted paths), the Base URL as pasted, and which answers are
 * retried (transport/answers/, policy/rules.ts, wording/itemError.ts, credential/baseUrl.ts).
 */
import { randomUUID } from 'node:crypto';
import type { INode } from 'n8n-workflow';

import type { InventoryRequest } from '../../nodes/Inventory/transport/request';
import { TOKENS } from '../fixtures';
import {
	transportAnswerBody,
	transportAttemptResult,
	transportConnection,
	transportErrors,
	transportFate,
	transportRateOutcome,
	transportRetry,
} from '../node/package-modules';

const { apiErrorBody, bodyKind, fieldReasons } = transportAnswerBody;
const { classifyAnswer, isGatewayStatus } = transportAttemptResult;
const { fateOf } = transportFate;
const { itemError } = transportErrors;
const { normalizeBaseUrl, isHttpAddress } = transportConnection;
const { retryWait } = transportRetry;
const { rateOutcome } = transportRateOutcome;

/** What an answer means, known to be no success; `unansweredCode`: an earlier attempt got no answer. */
function failedAnswer(
	answer: Parameters<typeof classifyAnswer>[0],
	unansweredCode?: string,
): Parameters<typeof fateOf>[0] {
	const result = classifyAnswer(answer, unansweredCode);
	if (result.kind === 'success') throw new Error(`${answer.statusCode} is a success`);
	return result;
}

/** A body as the API gives it (JSON with a message), or as another server does (a page). */
const bodyOf = (fromApi: boolean, apiMessage = 'Refused.') =>
	fromApi ? { message: apiMessage } : '<html><body>Not here</body></html>';

describe('the Base URL as pasted', () => {
	test.each([
		['https://inventory.example.com', 'https://inventory.example.com'],
		['  https://inventory.example.com/  ', 'https://inventory.example.com'],
		['https://inventory.example.com/api/v1', 'https://inventory.example.com'],
		['https://inventory.example.com/api/v1/', 'https://inventory.example.com'],
		['https://inventory.example.com/API/V1//', 'https://inventory.example.com'],
		['https://example.com/inventory/api/v1', 'https://example.com/inventory'],
		// Only a trailing /api/v1 is the API's prefix.
		['https://example.com/api/v1/inventory', 'https://example.com/api/v1/inventory'],
		['https://example.com/api/v10', 'https://example.com/api/v10'],
	])('%s -> %s', (pasted, base) => {
		expect(normalizeBaseUrl(pasted)).toBe(base);
		expect(isHttpAddress(normalizeBaseUrl(pasted))).toBe(true);
	});

	test('an address without http(s) is not taken', () => {
		expect(isHttpAddress(normalizeBaseUrl('inventory.example.com/api/v1'))).toBe(false);
		expect(isHttpAddress(normalizeBaseUrl(undefined))).toBe(false);
	});
});

describe("the API's answer: JSON with a message (every error body of the contract has one)", () => {
	test.each([
		[{ message: 'Not found.' }, true],
		['{"message":"Not found.","errors":{}}', true],
		[{ error: 'Not Found' }, false],
		[{ message: 42 }, false],
		[['message'], false],
		['<html><body>404</body></html>', false],
		['', false],
		[undefined, false],
		[null, false],
	])('%j: %s', (body, isApi) => {
		expect(apiErrorBody(body) !== undefined).toBe(isApi);
	});

	test.each([
		['<!DOCTYPE html><html>…', 'an HTML page'],
		['  <html>', 'an HTML page'],
		['Bad Gateway', 'a text'],
		['{"data": {"asset_id": 2,', 'a text'],
		['{"result": 1}', 'JSON of another shape'],
		[{ result: 1 }, 'JSON of another shape'],
		[null, 'JSON of another shape'],
		['', 'an empty body'],
		[undefined, 'an empty body'],
		[Buffer.from('<html>'), 'an HTML page'],
	])('%j is %s', (body, kind) => {
		expect(bodyKind(body)).toBe(kind);
	});

	test("only gateways' statuses are retried whatever the body", () => {
		expect([429, 500, 501, 502, 503, 504, 505].filter(isGatewayStatus)).toEqual([
			429, 502, 503, 504,
		]);
	});
});

describe('which answers are retried', () => {
	const policy = {
		maxRetries: 3,
		baseDelayMs: 100,
		maxDelayMs: 1000,
		timeoutMs: 1000,
		concurrencyOption: 'Fixed Concurrency',
	};
	const wait = (statusCode: number, fromApi: boolean) =>
		retryWait(
			policy,
			0,
			failedAnswer({ statusCode, body: bodyOf(fromApi), headers: { 'retry-after': '0.01' } }),
		);
	test.each([
		// The API's answers, as before.
		[500, true, true],
		[501, true, true],
		[503, true, true],
		[429, true, true],
		[404, true, false],
		[422, true, false],
		// Another server's: only a gateway's status is worth waiting for.
		[501, false, false],
		[500, false, false],
		[404, false, false],
		[502, false, true],
		[503, false, true],
		[504, false, true],
		[429, false, true],
	])('%i, from the API %s: retried %s', (statusCode, fromApi, retried) => {
		expect(wait(statusCode, fromApi) !== undefined).toBe(retried);
	});
});

describe('how the rate counts an answer', () => {
	const bodies: Array<[string, unknown]> = [
		["the API's success", { data: { id: 1 } }],
		["the API's error", { message: 'Refused.' }],
		["another server's page", '<html><body>Bad Gateway</body></html>'],
	];
	test.each(bodies)(
		'by its status alone, whoever answered (%s): 429 held back, 5xx failed, any other taken',
		(_, body) => {
			const statuses = [200, 201, 204, 301, 400, 401, 403, 404, 409, 422, 429];
			statuses.push(500, 501, 502, 503, 504, 505);
			for (const statusCode of statuses) {
				const expected =
					statusCode === 429 ? 'throttled' : statusCode >= 500 ? 'failed' : 'answered';
				for (const unansweredCode of [undefined, 'ECONNRESET'])
					expect([
						statusCode,
						rateOutcome(classifyAnswer({ statusCode, body }, unansweredCode)),
					]).toEqual([statusCode, expected]);
			}
		},
	);

	test('no answer at all is unanswered', () => {
		const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
		expect(rateOutcome(transportAttemptResult.classifyNoAnswer(reset))).toBe('unanswered');
	});
});

describe("a failed request's fate", () => {
	test.each([
		[{ statusCode: 422, fromApi: true }, 'rejected'],
		[{ statusCode: 404, fromApi: true }, 'rejected'],
		[{ statusCode: 401, fromApi: true }, 'rejected'],
		[{ statusCode: 429, fromApi: true }, 'rejected'],
		[{ statusCode: 409, fromApi: true, apiMessage: 'This subscription is free.' }, 'rejected'],
		[
			{
				statusCode: 409,
				fromApi: true,
				apiMessage: 'A request with this key is still being processed.',
			},
			'mayHaveBeenApplied',
		],
		[{ statusCode: 500, fromApi: true }, 'mayHaveBeenApplied'],
		[{ statusCode: 503, fromApi: true }, 'mayHaveBeenApplied'],
		// Not the API: never reached it, unless a gateway may have passed it on.
		[{ statusCode: 404, fromApi: false }, 'notSent'],
		[{ statusCode: 501, fromApi: false }, 'notSent'],
		[{ statusCode: 200, fromApi: false }, 'notSent'],
		[{ statusCode: 502, fromApi: false }, 'mayHaveBeenApplied'],
		[{ statusCode: 504, fromApi: false }, 'mayHaveBeenApplied'],
		[{ statusCode: 429, fromApi: false }, 'notSent'],
		// An earlier attempt got no answer: only a refusal of the API itself rules it out.
		[{ statusCode: 429, fromApi: true, earlierUnanswered: true }, 'mayHaveBeenApplied'],
		[{ statusCode: 404, fromApi: false, earlierUnanswered: true }, 'mayHaveBeenApplied'],
		[{ statusCode: 422, fromApi: true, earlierUnanswered: true }, 'rejected'],
	])('%j: %s', (answer, fate) => {
		const { statusCode, fromApi, apiMessage, earlierUnanswered } = {
			apiMessage: undefined,
			earlierUnanswered: false,
			...answer,
		};
		const result = failedAnswer(
			{ statusCode, body: bodyOf(fromApi, apiMessage) },
			earlierUnanswered ? 'ECONNRESET' : undefined,
		);
		expect(fateOf(result)).toBe(fate);
	});
});

describe("a 422's per-field reasons", () => {
	test('nested objects and lists become dotted paths, several problems one text', () => {
		expect(
			fieldReasons({
				message: 'The given data was invalid.',
				errors: {
					name: ['The name field is required.', 'It must be text.'],
					'field_values.403': ['must be a number.'],
					field_values: { '5': ['must be a date.'], '7': { value: 'is too long.' } },
					lines: [{ cost: ['must be at least 0.'] }],
				},
			}),
		).toEqual({
			name: 'The name field is required. It must be text.',
			'field_values.403': 'must be a number.',
			'field_values.5': 'must be a date.',
			'field_values.7.value': 'is too long.',
			'lines.0.cost': 'must be at least 0.',
		});
	});

	test('none without an errors object', () => {
		expect(fieldReasons({ message: 'Invalid.' })).toEqual({});
		expect(fieldReasons({ message: 'Invalid.', errors: ['a'] })).toEqual({});
		expect(fieldReasons('<html>')).toEqual({});
	});

	test("the item's error prints them readably and keeps them, redacted, in its details", () => {
		const token = TOKENS.fullAccess;
		const node: INode = {
			id: 'node-1',
			name: 'Inventory',
			type: 'n8n-nodes-inventory.inventory',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		};
		const request: InventoryRequest = {
			method: 'POST',
			path: '/api/v1/assets/1001/acquisitions',
			body: {},
			idempotencyKey: randomUUID(),
			itemIndex: 0,
			itemTag: '[item 0]',
			permission: 'assets:lifecycle',
			record: { kind: 'asset', id: 1001 },
		};
		const failure = itemError(node, token, {
			request,
			retries: 0,
			result: failedAnswer({
				statusCode: 422,
				body: {
					message: 'The given data was invalid.',
					errors: { field_values: { '5': [`not ${token}`] } },
				},
			}),
			baseUrl: '',
			concurrencyOption: 'Max Automatic Concurrency',
		});
		expect(failure.error.description).toBe('Fields with problems: field_values.5: not [redacted]');
		expect(failure.details).toEqual({
			status: 422,
			apiMessage: 'The given data was invalid.',
			reasons: { 'field_values.5': 'not [redacted]' },
			fate: 'rejected',
			idempotencyKey: request.idempotencyKey,
		});
	});
});
