import type { ICredentialsDecrypted, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

export const CREDENTIAL_TYPE = 'inventoryApi';

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
	return {
		baseUrl,
		token: String(credentials.apiToken ?? ''),
		ignoreSslIssues: credentials.ignoreSslIssues === true,
		credential: {
			id: nodeCredential?.id ?? '',
			name: nodeCredential?.name ?? '',
			type: CREDENTIAL_TYPE,
			data: credentials,
		},
	};
}
