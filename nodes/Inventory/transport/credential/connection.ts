import type { ICredentialsDecrypted, IExecuteFunctions } from 'n8n-workflow';
import { CREDENTIAL_BLANKING_VALUE, NodeOperationError } from 'n8n-workflow';

import { bareApiToken } from '../../../../credentials/InventoryApi.credentials';
import { isGatewayStatus } from '../answers/attemptResult';
import { CREDENTIAL_TYPE, sendWithCredential, type ApiCall } from '../send/sender';

/** The credential of a node run, read once. */
export interface InventoryConnection {
	baseUrl: string;
	token: string;
	/** The credential's "Ignore SSL Issues (Insecure)". */
	ignoreSslIssues: boolean;
	credential: ICredentialsDecrypted;
}

/**
 * The Base URL as users paste it, reduced to the service's address: spaces and trailing slashes
 * dropped, and a trailing `/api/v1` (how many APIs print their address) taken as the base, since the
 * node appends `/api/v1/...` itself.
 */
export function normalizeBaseUrl(raw: unknown): string {
	return String(raw ?? '')
		.trim()
		.replace(/\/+$/, '')
		.replace(/\/api\/v1$/i, '')
		.replace(/\/+$/, '');
}

/** Whether a normalized Base URL is an http(s) address with a host. */
export function isHttpAddress(baseUrl: string): boolean {
	return /^https?:\/\/[^/]/i.test(baseUrl);
}

const ADDRESS_EXAMPLE = 'e.g. https://inventory.example.com';

/**
 * What is wrong with a normalized Base URL that starts with http(s)://, with its fix; undefined when
 * it is an address the node can append `/api/v1/...` to. User info would make n8n's HTTP client send
 * Basic authentication instead of the token (and a dry run would show the password); a query or a
 * fragment would end up before the path (`/?tenant=acme/api/v1/...`) or swallow it (`#x/api/v1/...`).
 * The texts never show the user info.
 */
export function baseUrlProblem(baseUrl: string): string | undefined {
	let url: URL;
	try {
		url = new URL(baseUrl);
	} catch {
		return `is no valid address (a space or another character a host name cannot hold, or a port above 65535): nothing was sent. Enter the address of your Inventory service, ${ADDRESS_EXAMPLE}`;
	}
	if (url.username !== '' || url.password !== '')
		return `holds a user name or password before the host (user:password@): nothing was sent, since the API takes only the API Token. Remove that part, e.g. ${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
	if (url.search !== '' || baseUrl.includes('?'))
		return `holds a query (?...): nothing was sent, since the node appends /api/v1/... to the address and the query would end up in front of it. Remove the query, e.g. ${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
	if (url.hash !== '' || baseUrl.includes('#'))
		return `holds a fragment (#...): nothing was sent, since the node appends /api/v1/... to the address and the fragment would swallow it. Remove it, e.g. ${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
	return undefined;
}

/** Code points shown as nothing: soft hyphen, joiners and marks, variation selectors, fillers, the byte order mark. */
const INVISIBLE: ReadonlyArray<readonly [number, number]> = [
	[0x00ad, 0x00ad],
	[0x034f, 0x034f],
	[0x061c, 0x061c],
	[0x115f, 0x1160],
	[0x17b4, 0x17b5],
	[0x180b, 0x180f],
	[0x200b, 0x200f],
	[0x202a, 0x202e],
	[0x2060, 0x206f],
	[0x3164, 0x3164],
	[0xfe00, 0xfe0f],
	[0xfeff, 0xfeff],
	[0xffa0, 0xffa0],
];

/**
 * What is wrong with the API token as the node would send it, in words that show no piece of it:
 * a character an Authorization header cannot carry as pasted (a line break, a control or an invisible
 * character, a space inside it, a letter outside ASCII). n8n's HTTP client would send such a token
 * changed, or not at all, and the text redaction looks for would not be the text sent. Also n8n's own
 * placeholder for a saved password, which n8n hands a test in place of the token when it has not read
 * the saved value.
 */
export function apiTokenProblem(token: string): string | undefined {
	if (token.includes(CREDENTIAL_BLANKING_VALUE))
		return "The API Token is n8n's placeholder for a saved secret, not the token itself: nothing was sent. Save the credential, close it and open it again, then test it again (or enter the token again).";
	const at = [...token].findIndex((character) => !/^[\x21-\x7e]$/.test(character));
	if (at === -1) return undefined;
	const character = [...token][at];
	const code = character.codePointAt(0) ?? 0;
	let what: string;
	if (/[\n\r\u2028\u2029\u0085]/.test(character)) what = 'a line break';
	else if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) what = 'a control character';
	else if (INVISIBLE.some(([from, to]) => code >= from && code <= to))
		what = 'an invisible character';
	else if (/\s/.test(character)) what = 'a space';
	else what = 'a character outside ASCII';
	return `The API Token holds ${what} inside it (at character ${at + 1} of ${[...token].length}): nothing was sent with it. Open the "Inventory API" credential and paste the token again as your administrator gave it, on one line.`;
}

/** The node's credential, read once per run; its Base URL must be an http(s) address. */
export async function openConnection(context: IExecuteFunctions): Promise<InventoryConnection> {
	const credentials = await context.getCredentials<{
		baseUrl?: string;
		apiToken?: string;
		ignoreSslIssues?: boolean;
	}>(CREDENTIAL_TYPE);
	const nodeCredential = context.getNode().credentials?.[CREDENTIAL_TYPE];
	const baseUrl = normalizeBaseUrl(credentials.baseUrl);
	if (!isHttpAddress(baseUrl)) {
		throw new NodeOperationError(
			context.getNode(),
			'The Base URL of the Inventory API credential must start with http:// or https://',
			{
				description:
					'Open the credential and enter the address of your Inventory service, e.g. https://inventory.example.com',
			},
		);
	}
	const token = bareApiToken(credentials.apiToken);
	const urlProblem = baseUrlProblem(baseUrl);
	if (urlProblem !== undefined) {
		throw new NodeOperationError(
			context.getNode(),
			`The Base URL of the Inventory API credential ${urlProblem}`,
			{ description: 'Open the credential and correct its Base URL.' },
		);
	}
	const tokenProblem = apiTokenProblem(token);
	if (tokenProblem !== undefined) {
		throw new NodeOperationError(context.getNode(), tokenProblem, {
			description:
				'The API Token field of the "Inventory API" credential must hold the token alone (a "Bearer " before it is taken off).',
		});
	}
	return {
		baseUrl,
		token,
		ignoreSslIssues: credentials.ignoreSslIssues === true,
		credential: {
			id: nodeCredential?.id ?? '',
			name: nodeCredential?.name ?? '',
			type: CREDENTIAL_TYPE,
			data: credentials,
		},
	};
}

/** The path of the request that checks an address (also the credential test's): a to-do that cannot be created. */
export const ADDRESS_CHECK_PATH = '/api/v1/assets/0/todos';
/** The fixed key of that request: it is always refused, so the key never records anything. */
export const ADDRESS_CHECK_IDEMPOTENCY_KEY = '00000000-0000-4000-8000-000000000000';

/**
 * The request that checks an address, which changes nothing: the node sends it without a token when
 * an answer could come from another service, the credential test with and without one.
 */
export function addressCheckCall(
	baseUrl: string,
	how: Pick<ApiCall, 'timeoutMs' | 'ignoreSslIssues' | 'authorization'>,
): ApiCall {
	return {
		method: 'POST',
		url: `${baseUrl}${ADDRESS_CHECK_PATH}`,
		idempotencyKey: ADDRESS_CHECK_IDEMPOTENCY_KEY,
		body: {},
		...how,
	};
}

/**
 * Whether the Base URL leads to the Inventory API, by how it answered a request without a token (the
 * API answers every such request with 401); `statusCode`: what it answered when it is not the API.
 */
type AddressCheck = { isApi: true } | { isApi: false; statusCode: number };

const addressChecks = new WeakMap<InventoryConnection, Promise<AddressCheck>>();

/**
 * Whether the Base URL leads to the Inventory API, asked once per run, only when an answer could come
 * from another service too (a JSON 404 with a message: n8n's own address answers so). One request
 * without a token, which changes nothing: the API answers it 401; another server does not. A rate
 * limit, a gateway's answer or no answer at all leave the doubt to the API.
 */
export async function checkApiAddress(
	context: IExecuteFunctions,
	connection: InventoryConnection,
	timeoutMs: number,
	cancelSignal: AbortSignal | undefined,
): Promise<AddressCheck> {
	let check = addressChecks.get(connection);
	if (!check) {
		const anonymous: ICredentialsDecrypted = {
			...connection.credential,
			data: { ...connection.credential.data, apiToken: '' },
		};
		check = sendWithCredential(
			context,
			addressCheckCall(connection.baseUrl, {
				timeoutMs,
				ignoreSslIssues: connection.ignoreSslIssues,
			}),
			anonymous,
			cancelSignal,
		).then(
			({ statusCode }): AddressCheck =>
				statusCode === 401 || isGatewayStatus(statusCode)
					? { isApi: true }
					: { isApi: false, statusCode },
			(): AddressCheck => ({ isApi: true }),
		);
		addressChecks.set(connection, check);
	}
	return await check;
}
