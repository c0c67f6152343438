import type { ICredentialsDecrypted, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { bareApiToken } from '../../../../credentials/InventoryApi.credentials';
import { isGatewayStatus } from '../answers/attemptResult';
import { CREDENTIAL_TYPE, sendWithCredential, type ApiCall } from '../send/sender';
import { baseUrlProblem, isHttpAddress, normalizeBaseUrl } from './baseUrl';
import { apiTokenProblem } from './token';

/**
 * Whether the Base URL leads to the Inventory API, by how it answered a request without a token (the
 * API answers every such request with 401); `statusCode`: what it answered when it is not the API.
 */
type AddressCheck = { isApi: true } | { isApi: false; statusCode: number };

/** The credential of a node run, read once, and what the run found out about its Base URL. */
export class InventoryConnection {
	/** The address check, once an answer made it needed: every later doubt of the run waits for the same one. */
	private addressCheck: Promise<AddressCheck> | undefined;

	constructor(
		readonly baseUrl: string,
		readonly token: string,
		/** The credential's "Ignore SSL Issues (Insecure)". */
		readonly ignoreSslIssues: boolean,
		readonly credential: ICredentialsDecrypted,
	) {}

	/**
	 * Whether the Base URL leads to the Inventory API, asked once per run, only when an answer could
	 * come from another service too (a JSON 404 with a message: n8n's own address answers so). One
	 * request without a token, which changes nothing: the API answers it 401; another server does not.
	 * A rate limit, a gateway's answer or no answer at all leave the doubt to the API.
	 */
	async checkApiAddress(
		context: IExecuteFunctions,
		timeoutMs: number,
		cancelSignal: AbortSignal | undefined,
	): Promise<AddressCheck> {
		this.addressCheck ??= this.askWithoutToken(context, timeoutMs, cancelSignal);
		return await this.addressCheck;
	}

	private async askWithoutToken(
		context: IExecuteFunctions,
		timeoutMs: number,
		cancelSignal: AbortSignal | undefined,
	): Promise<AddressCheck> {
		const anonymous: ICredentialsDecrypted = {
			...this.credential,
			data: { ...this.credential.data, apiToken: '' },
		};
		return await sendWithCredential(
			context,
			addressCheckCall(this.baseUrl, { timeoutMs, ignoreSslIssues: this.ignoreSslIssues }),
			anonymous,
			cancelSignal,
		).then(
			({ statusCode }): AddressCheck =>
				statusCode === 401 || isGatewayStatus(statusCode)
					? { isApi: true }
					: { isApi: false, statusCode },
			(): AddressCheck => ({ isApi: true }),
		);
	}
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
	return new InventoryConnection(baseUrl, token, credentials.ignoreSslIssues === true, {
		id: nodeCredential?.id ?? '',
		name: nodeCredential?.name ?? '',
		type: CREDENTIAL_TYPE,
		data: credentials,
	});
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
