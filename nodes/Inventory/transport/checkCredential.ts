import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import {
	ADDRESS_CHECK_IDEMPOTENCY_KEY,
	ADDRESS_CHECK_PATH,
	ADDRESS_CHECK_REQUEST,
	isHttpAddress,
	normalizeBaseUrl,
	redact,
} from './connection';
import { authorizationHeader, bareApiToken } from '../../../credentials/InventoryApi.credentials';
import { apiErrorBody, bodyKind } from './answerBody';
import { isGatewayStatus } from './attemptResult';
import { classifyNetworkFailure, isCertificateFailure } from './networkFailure';

/**
 * The API has no read endpoint, so the test sends a to-do creation that can never succeed: record 0
 * and an empty body (no `name`, which the API requires). A rejected request records nothing, and the
 * fixed Idempotency-Key with the same request would only ever replay that same rejection.
 */
export const CREDENTIAL_TEST_IDEMPOTENCY_KEY = ADDRESS_CHECK_IDEMPOTENCY_KEY;
export const CREDENTIAL_TEST_PATH = ADDRESS_CHECK_PATH;

const TIMEOUT_MS = 30_000;

/** How the Base URL answered one of the test's requests. */
interface TestAnswer {
	statusCode: number;
	body: unknown;
}

/** The test request, with the token or without one; the only HTTP a credential test function has is `helpers.request`. */
async function send(
	context: ICredentialTestFunctions,
	baseUrl: string,
	data: ICredentialDataDecryptedObject,
	withToken: boolean,
): Promise<TestAnswer> {
	const response = (await context.helpers.request({
		method: ADDRESS_CHECK_REQUEST.method,
		uri: `${baseUrl}${ADDRESS_CHECK_REQUEST.path}`,
		headers: {
			...ADDRESS_CHECK_REQUEST.headers,
			...(withToken ? authorizationHeader(data.apiToken) : {}),
		},
		body: {},
		json: true,
		simple: false,
		resolveWithFullResponse: true,
		timeout: TIMEOUT_MS,
		rejectUnauthorized: data.ignoreSslIssues !== true,
	})) as { statusCode: number; body: unknown };
	return { statusCode: response.statusCode, body: response.body };
}

const MAX_REASON = 200;

/** The API's reason, on one line, at most 200 characters, ending as a sentence does. */
function asSentence(reason: string): string {
	const line = reason.replace(/\s+/g, ' ').trim();
	const text = line.length > MAX_REASON ? `${line.slice(0, MAX_REASON)}…` : line;
	return /[.!?…]$/.test(text) ? text : `${text}.`;
}

const ENTER_ADDRESS =
	'Enter the address of your Inventory service, e.g. https://inventory.example.com (a trailing /api/v1 is fine).';

/** An answer that shows the Base URL does not lead to the Inventory API. */
function notTheApi(baseUrl: string, { statusCode, body }: TestAnswer, withToken: boolean): string {
	const message = apiErrorBody(body)?.message;
	const what =
		message !== undefined && !withToken
			? `it answered ${statusCode} (${JSON.stringify(message.slice(0, 100))}) to a request without a token, where the Inventory API answers 401`
			: `the server answered ${statusCode} with ${bodyKind(body)}`;
	return `The Base URL ${baseUrl} does not lead to the Inventory API: ${what}. ${ENTER_ADDRESS}`;
}

/**
 * The credential test (the node's `testedBy`). Two requests, neither of which can change anything:
 * 1. without a token: the Inventory API answers every request without a token with 401 and its JSON
 *    message, which tells it from any other server (a web page, another service, n8n itself answer
 *    otherwise);
 * 2. with the token: 401 means the token is rejected; any other answer of the API (403 for a token
 *    without the to-do permission, 404 for record 0, 422) means it is accepted.
 */
export async function testInventoryCredential(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const token = bareApiToken(data.apiToken);
	const baseUrl = redact(normalizeBaseUrl(data.baseUrl), token);
	if (!isHttpAddress(baseUrl)) {
		return {
			status: 'Error',
			message:
				'The Base URL must start with http:// or https://, e.g. https://inventory.example.com',
		};
	}
	const unavailable = ({ statusCode }: TestAnswer): INodeCredentialTestResult | undefined =>
		isGatewayStatus(statusCode)
			? {
					status: 'Error',
					message: `The server at ${baseUrl} could not answer the test now (${statusCode}). Try again in a moment.`,
				}
			: undefined;
	try {
		const anonymous = await send(this, baseUrl, data, false);
		if (anonymous.statusCode !== 401 || !apiErrorBody(anonymous.body))
			return (
				unavailable(anonymous) ?? { status: 'Error', message: notTheApi(baseUrl, anonymous, false) }
			);

		const answer = await send(this, baseUrl, data, true);
		if (answer.statusCode === 401) {
			const reason = apiErrorBody(answer.body)?.message.trim();
			// The API's own reason (expired, revoked, not a customer API token) where it gives one.
			return {
				status: 'Error',
				message: `The Inventory API rejected this API token (401): ${reason ? redact(asSentence(reason), token) : 'it is missing, expired, revoked or not a customer API token.'} Nothing was created.`,
			};
		}
		const failed =
			unavailable(answer) ??
			(apiErrorBody(answer.body)
				? undefined
				: { status: 'Error', message: notTheApi(baseUrl, answer, true) });
		return (
			failed ?? {
				status: 'OK',
				message: `The Inventory API at ${baseUrl} accepted the token. Nothing was created.`,
			}
		);
	} catch (error) {
		const failure = classifyNetworkFailure(error);
		const what = failure.what ?? failure.originalMessage ?? failure.code;
		const advice = isCertificateFailure(failure.code)
			? ' Give n8n the certificate authority with NODE_EXTRA_CA_CERTS, or turn on "Ignore SSL Issues (Insecure)".'
			: '';
		return {
			status: 'Error',
			message: redact(`Could not reach ${baseUrl}: ${what} (${failure.code}).${advice}`, token),
		};
	}
}
