import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { baseUrlProblem, isHttpAddress, normalizeBaseUrl } from './baseUrl';
import { ADDRESS_CHECK_IDEMPOTENCY_KEY, ADDRESS_CHECK_PATH, addressCheckCall } from './connection';
import { apiTokenProblem } from './token';
import { bareApiToken } from '../../../../credentials/InventoryApi.credentials';
import { apiErrorBody, bodyKind, boundedText } from '../answers/answerBody';
import { isGatewayStatus } from '../answers/attemptResult';
import { Deadline } from '../send/deadline';
import { classifyNetworkFailure, isCertificateFailure } from '../answers/networkFailure';
import { redact } from '../send/redact';
import { isRedirectStatus, locationOf, redirectAdvice, redirectTarget } from '../answers/redirect';
import { sendForTest, type TestAnswer } from '../send/sender';

/**
 * The API has no read endpoint, so the test sends a to-do creation that can never succeed: record 0
 * and an empty body (no `name`, which the API requires). A rejected request records nothing, and the
 * fixed Idempotency-Key with the same request would only ever replay that same rejection.
 */
export const CREDENTIAL_TEST_IDEMPOTENCY_KEY = ADDRESS_CHECK_IDEMPOTENCY_KEY;
export const CREDENTIAL_TEST_PATH = ADDRESS_CHECK_PATH;

/** The whole test (both requests, connect, headers and body) ends within this time. */
const TIMEOUT_MS = 30_000;

/** The test's time ran out (`TIMEOUT_MS`): what it waited for is dropped, its socket closed where the test holds it. */
class TestTimedOut extends Error {
	constructor() {
		super('The credential test ran out of time');
		this.name = 'TestTimedOut';
	}
}

const MAX_REASON = 200;

/** The API's reason, the token redacted, on one line, at most 200 characters, ending as a sentence does. */
function asSentence(reason: string, token: string): string {
	const line = redact(reason, token).replace(/\s+/g, ' ').trim();
	const text = line.length > MAX_REASON ? `${line.slice(0, MAX_REASON)}…` : line;
	return /[.!?…]$/.test(text) ? text : `${text}.`;
}

const ENTER_ADDRESS =
	'Enter the address of your Inventory service, e.g. https://inventory.example.com (a trailing /api/v1 is fine).';

/** An answer that shows the Base URL does not lead to the Inventory API. */
function notTheApi(
	baseUrl: string,
	{ statusCode, body }: TestAnswer,
	withToken: boolean,
	token: string,
): string {
	const message = apiErrorBody(body)?.message;
	const what =
		message !== undefined && !withToken
			? `it answered ${statusCode} (${JSON.stringify(boundedText(message, token, 100))}) to a request without a token, where the Inventory API answers 401`
			: `the server answered ${statusCode} with ${bodyKind(body)}`;
	return `The Base URL ${baseUrl} does not lead to the Inventory API: ${what}. ${ENTER_ADDRESS}`;
}

/** A 3xx: the test follows no redirect, so its target got nothing, the token least of all. */
function redirected(baseUrl: string, answer: TestAnswer, token: string): string {
	const target = redirectTarget(
		locationOf(answer.headers),
		`${baseUrl}${ADDRESS_CHECK_PATH}`,
		ADDRESS_CHECK_PATH,
		token,
	);
	return `The Base URL ${baseUrl} answered ${answer.statusCode}, a redirect to ${target ?? 'an address it did not name'}, which neither the test nor the node follows: the token was sent nowhere else. ${redirectAdvice(target)}`;
}

/**
 * The credential test (the node's `testedBy`). Two requests, neither of which can change anything:
 * 1. without a token: the Inventory API answers every request without a token with 401 and its JSON
 *    message, which tells it from any other server (a web page, another service, n8n itself answer
 *    otherwise);
 * 2. with the token: 401 means the token is rejected; any other answer of the API (403 for a token
 *    without the to-do permission, 404 for record 0, 422) means it is accepted.
 * No redirect is followed, and the whole test ends within 30 s. A Base URL or a token the node would
 * refuse is refused before anything is sent.
 */
export async function testInventoryCredential(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const token = bareApiToken(data.apiToken);
	const normalized = normalizeBaseUrl(data.baseUrl);
	if (!isHttpAddress(normalized)) {
		return {
			status: 'Error',
			message:
				'The Base URL must start with http:// or https://, e.g. https://inventory.example.com',
		};
	}
	const urlProblem = baseUrlProblem(normalized);
	if (urlProblem !== undefined) return { status: 'Error', message: `The Base URL ${urlProblem}` };
	const tokenProblem = apiTokenProblem(token);
	if (tokenProblem !== undefined) return { status: 'Error', message: tokenProblem };
	const baseUrl = redact(normalized, token);
	const unavailable = ({ statusCode }: TestAnswer): INodeCredentialTestResult | undefined =>
		isGatewayStatus(statusCode)
			? {
					status: 'Error',
					message: `The server at ${baseUrl} could not answer the test now (${statusCode}). Try again in a moment.`,
				}
			: undefined;
	const deadline = new Deadline(TIMEOUT_MS, () => new TestTimedOut());
	/** The test's request, with the token as pasted or without one, within the test's deadline. */
	const ask = async (withToken: boolean) =>
		await sendForTest(
			this,
			addressCheckCall(normalized, {
				timeoutMs: TIMEOUT_MS,
				ignoreSslIssues: data.ignoreSslIssues === true,
				authorization: withToken ? { apiToken: data.apiToken } : undefined,
			}),
			deadline,
		);
	try {
		const anonymous = await ask(false);
		if (isRedirectStatus(anonymous.statusCode))
			return { status: 'Error', message: redirected(baseUrl, anonymous, token) };
		if (anonymous.statusCode !== 401 || !apiErrorBody(anonymous.body))
			return (
				unavailable(anonymous) ?? {
					status: 'Error',
					message: notTheApi(baseUrl, anonymous, false, token),
				}
			);

		const answer = await ask(true);
		if (isRedirectStatus(answer.statusCode))
			return { status: 'Error', message: redirected(baseUrl, answer, token) };
		if (answer.statusCode === 401) {
			const reason = apiErrorBody(answer.body)?.message.trim();
			// The API's own reason (expired, revoked, not a customer API token) where it gives one.
			return {
				status: 'Error',
				message: `The Inventory API rejected this API token (401): ${reason ? asSentence(reason, token) : 'it is missing, expired, revoked or not a customer API token.'} Nothing was created.`,
			};
		}
		const failed =
			unavailable(answer) ??
			(apiErrorBody(answer.body)
				? undefined
				: { status: 'Error' as const, message: notTheApi(baseUrl, answer, true, token) });
		return (
			failed ?? {
				status: 'OK',
				message: `The Inventory API at ${baseUrl} accepted the token. Nothing was created.`,
			}
		);
	} catch (error) {
		if (error instanceof TestTimedOut)
			return {
				status: 'Error',
				message: `The server at ${baseUrl} did not answer the test in full within ${TIMEOUT_MS / 1000} s. Check the Base URL and the network between n8n and the service, then test again. Nothing was created.`,
			};
		const failure = classifyNetworkFailure(error);
		const what = failure.what ?? boundedText(failure.originalMessage ?? failure.code, token, 200);
		const advice = isCertificateFailure(failure.code)
			? ' Give n8n the certificate authority with NODE_EXTRA_CA_CERTS, or turn on "Ignore SSL Issues (Insecure)".'
			: '';
		return {
			status: 'Error',
			message: redact(`Could not reach ${baseUrl}: ${what} (${failure.code}).${advice}`, token),
		};
	} finally {
		deadline.end();
	}
}
