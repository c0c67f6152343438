/**
 * What the node reads from a failure: the network codes' table (transport/answers/networkFailure.ts),
 * a 409's reading (transport/answers/attemptResult.ts), and the item's error each network failure
 * ends in (transport/wording/itemError.ts).
 */
import { randomUUID } from 'node:crypto';
import type { INode } from 'n8n-workflow';

import type { InventoryRequest } from '../../nodes/Inventory/transport/request';
import { TOKENS } from '../fixtures';
import {
	transportAttemptResult,
	transportErrors,
	transportNetworkFailure,
} from '../node/package-modules';

const { classifyNetworkFailure } = transportNetworkFailure;
const { classifyAnswer, classifyNoAnswer, readConflict } = transportAttemptResult;
const { itemError } = transportErrors;

/** An error as axios and Node hand it over: a message, a code, perhaps a cause. */
function failure(message: string, code?: string, cause?: unknown): Error {
	return Object.assign(new Error(message), code === undefined ? {} : { code }, { cause });
}

describe('the network codes: retried or not, sent or not, in words', () => {
	// One code of each kind the node decides differently on, not a copy of the table.
	test.each([
		['a connection that never opened', 'ECONNREFUSED', true, false],
		['no connection within the timeout', 'UND_ERR_CONNECT_TIMEOUT', true, false],
		['a host name that does not exist', 'ENOTFOUND', false, false],
		['a connection reset after sending', 'ECONNRESET', true, true],
		['no answer within the timeout', 'ETIMEDOUT', true, true],
	])('%s (%s): retried %s, fate unknown %s, said in words', (_, code, retryable, fateUnknown) => {
		const read = classifyNetworkFailure(failure(`connect ${code} 127.0.0.1:1`, code));
		expect(read).toMatchObject({ code, retryable, fateUnknown });
		expect(read.what).toMatch(/^(the|no) /);
		expect(read.originalMessage).toBeUndefined();
	});

	test('a certificate that does not verify: not retried, nothing was sent', () => {
		const code = 'DEPTH_ZERO_SELF_SIGNED_CERT';
		expect(classifyNetworkFailure(failure('self-signed certificate', code))).toEqual({
			code,
			retryable: false,
			fateUnknown: false,
			what: 'its certificate could not be verified (DEPTH_ZERO_SELF_SIGNED_CERT)',
		});
	});

	test("the code of a cause counts when the error itself has none (undici's 'fetch failed')", () => {
		const error = failure(
			'fetch failed',
			undefined,
			failure('connect ECONNREFUSED', 'ECONNREFUSED'),
		);
		expect(classifyNetworkFailure(error)).toMatchObject({
			code: 'ECONNREFUSED',
			retryable: true,
			fateUnknown: false,
		});
	});

	test.each([
		['socket hang up', 'ECONNRESET'],
		['Network Error', 'ECONNRESET'],
		['timeout of 30000ms exceeded', 'ETIMEDOUT'],
	])('an error without a code, "%s", reads as %s', (message, code) => {
		expect(classifyNetworkFailure(failure(message))).toMatchObject({
			code,
			retryable: true,
			fateUnknown: true,
		});
	});

	test('an unknown code is not retried, may have reached the server, and keeps its message', () => {
		expect(classifyNetworkFailure(failure('write EPROTO wrong version number', 'EPROTO'))).toEqual({
			code: 'EPROTO',
			retryable: false,
			fateUnknown: true,
			originalMessage: 'write EPROTO wrong version number',
		});
		expect(classifyNetworkFailure(failure('something else broke'))).toEqual({
			code: 'UNKNOWN',
			retryable: false,
			fateUnknown: true,
			originalMessage: 'something else broke',
		});
	});

	test('a name of the prototype ("constructor") is no known code', () => {
		expect(classifyNetworkFailure(failure('odd', 'constructor'))).toMatchObject({
			code: 'constructor',
			retryable: false,
		});
	});
});

describe("the item's error says what is known of the request's fate", () => {
	const node: INode = {
		id: 'node-1',
		name: 'Inventory',
		type: 'n8n-nodes-inventory.inventory',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const token = TOKENS.fullAccess;
	const key = randomUUID();
	const request: InventoryRequest = {
		method: 'POST',
		path: '/api/v1/assets/1001/todos',
		body: { name: 'Label' },
		idempotencyKey: key,
		itemIndex: 2,
		itemTag: '[item 2]',
		permission: 'assets:todos',
		record: { kind: 'asset', id: 1001 },
	};
	const baseUrl = 'https://inventory.example.com';

	function wording(error: Error, retries: number) {
		const { error: caught } = itemError(node, token, {
			request,
			retries,
			result: classifyNoAnswer(error),
			baseUrl,
			concurrencyOption: 'Fixed Concurrency',
		});
		return { message: caught.message, description: caught.description, itemIndex: 2 };
	}

	const checkNetwork = (code: string) =>
		`Network failure ${code}. Check the Base URL of the credential (${baseUrl}) and the network between n8n and the service.`;
	const nothingSent = `Nothing was sent to the Inventory API; a retry sends the same Idempotency-Key (${key}).`;
	const mayBeApplied = `The request may have reached the API and been applied. The same Idempotency-Key (${key}) replays it, so Retry On Fail or Retry execution is safe: it never creates a second record.`;

	test('refused after the retries: could not reach it, nothing was sent', () => {
		expect(wording(failure('connect ECONNREFUSED', 'ECONNREFUSED'), 3)).toEqual({
			message:
				'Could not reach the Inventory API after 3 retries: the connection was refused [item 2]',
			description: `${checkNetwork('ECONNREFUSED')} ${nothingSent}`,
			itemIndex: 2,
		});
	});

	test('a host name that does not exist: failed at once, nothing was sent', () => {
		expect(wording(failure('getaddrinfo ENOTFOUND', 'ENOTFOUND'), 0)).toEqual({
			message: 'The request to the Inventory API failed: the host name does not exist [item 2]',
			description: `${checkNetwork('ENOTFOUND')} ${nothingSent}`,
			itemIndex: 2,
		});
	});

	test('reset after sending: no answer, it may have been applied, the key replays it', () => {
		expect(wording(failure('read ECONNRESET', 'ECONNRESET'), 1)).toEqual({
			message: 'No answer from the Inventory API after 1 retry: the connection was reset [item 2]',
			description: `${checkNetwork('ECONNRESET')} ${mayBeApplied}`,
			itemIndex: 2,
		});
	});

	test('a timeout after sending: no answer, it may have been applied', () => {
		expect(wording(failure('timeout of 30000ms exceeded', 'ECONNABORTED'), 5)).toEqual({
			message:
				'No answer from the Inventory API after 5 retries: no answer came within the timeout [item 2]',
			description: `${checkNetwork('ECONNABORTED')} ${mayBeApplied}`,
			itemIndex: 2,
		});
	});

	test('a certificate n8n does not trust: the way to trust it, nothing was sent', () => {
		const { message, description } = wording(
			failure('unable to verify the first certificate', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'),
			0,
		);
		expect(message).toBe(
			'The request to the Inventory API failed: its certificate could not be verified (UNABLE_TO_VERIFY_LEAF_SIGNATURE) [item 2]',
		);
		expect(description).toBe(
			`The server at ${baseUrl} uses a certificate n8n does not trust (self-signed or from a private certificate authority). Give n8n the authority's certificate with the environment variable NODE_EXTRA_CA_CERTS, or turn on "Ignore SSL Issues (Insecure)" in the credential. ${nothingSent}`,
		);
	});

	test('an unknown code keeps the original message, with the token redacted', () => {
		const error = failure(`proxy refused Bearer ${token} for\n  this host`, 'ERR_PROXY_SOMETHING');
		expect(wording(error, 0)).toEqual({
			message:
				'The request to the Inventory API failed: proxy refused Bearer [redacted] for this host [item 2]',
			description: `${checkNetwork('ERR_PROXY_SOMETHING')} ${mayBeApplied}`,
			itemIndex: 2,
		});
	});

	test('no sentence claims that nothing was created', () => {
		for (const code of ['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'ERR_NEW']) {
			expect(JSON.stringify(wording(failure(code, code), 0))).not.toContain('created.');
		}
	});
});

describe('a 409 is read in one place', () => {
	test.each([
		// [API message, after an unanswered attempt, reading]
		['This Idempotency-Key was already used for a different request.', false, 'keyReused'],
		['This Idempotency-Key was already used for a different request.', true, 'keyReused'],
		[
			'A request with this Idempotency-Key is still being processed; retry later.',
			false,
			'keyInFlight',
		],
		[
			'A request with this Idempotency-Key is still being processed; retry later.',
			true,
			'earlierAttemptInFlight',
		],
		[undefined, true, 'earlierAttemptInFlight'],
		['Something unexpected', true, 'earlierAttemptInFlight'],
		['The subscription is free and has no billing.', true, 'recordState'],
		['The subscription is final; restore it first.', true, 'recordState'],
		['event_date is older than the newest change.', true, 'eventDate'],
		[
			'The event_date precedes a newer state change of this asset (2024-03-01T09:00:00.000000Z); refresh the record.',
			false,
			'eventDate',
		],
		['The event date is earlier than the last change.', false, 'eventDate'],
		['The plan limit of licenses is reached.', true, 'recordState'],
		['The subscription is free and has no billing.', false, 'recordState'],
		[undefined, false, 'recordState'],
	])('%j after an unanswered attempt: %s → %s', (message, afterUnanswered, reading) => {
		expect(readConflict(message, afterUnanswered)).toBe(reading);
	});

	/** Whether the API's answer (its message, or none) reads as an earlier attempt still in flight. */
	const isInFlightConflict = (
		statusCode: number,
		apiMessage: string | undefined,
		afterUnansweredAttempt: boolean,
	) =>
		classifyAnswer(
			{ statusCode, body: { message: apiMessage ?? '' } },
			afterUnansweredAttempt ? 'ECONNRESET' : undefined,
		).kind === 'earlierAttemptInFlight';

	test('only a 409 is an attempt in flight', () => {
		expect(isInFlightConflict(409, undefined, true)).toBe(true);
		expect(isInFlightConflict(409, undefined, false)).toBe(false);
		expect(isInFlightConflict(409, 'The subscription is free.', true)).toBe(false);
		expect(isInFlightConflict(503, undefined, true)).toBe(false);
	});
});
