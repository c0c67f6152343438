import type {
	ICredentialDataDecryptedObject,
	Icon,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

/**
 * The API token as pasted, reduced to the token: spaces around it and a "Bearer " before it (in any
 * letter case, as copied from an Authorization header) dropped.
 */
export function bareApiToken(raw: unknown): string {
	return String(raw ?? '')
		.trim()
		.replace(/^bearer\s+/i, '');
}

/** The header that authenticates a request with the token as pasted. */
export function authorizationHeader(apiToken: unknown): { Authorization: string } {
	return { Authorization: `Bearer ${bareApiToken(apiToken)}` };
}

/** Tested by the Inventory node (`testedBy`): its test tells the API from another server at the Base URL. */
export class InventoryApi implements ICredentialType {
	name = 'inventoryApi';

	displayName = 'Inventory API';

	icon: Icon = {
		light: 'file:../nodes/Inventory/inventory.svg',
		dark: 'file:../nodes/Inventory/inventory.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-inventory/n8n-nodes-inventory/blob/main/docs/credentials.md';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://inventory.example.com',
			description:
				'The address of your Inventory service, e.g. https://inventory.example.com (a trailing /api/v1 is taken off). For the bundled sandbox use http://127.0.0.1:8080.',
			hint: "Your organization's Inventory address, starting with https://, e.g. https://inventory.example.com; an API address ending in /api/v1 is fine too. The bundled sandbox: http://127.0.0.1:8080",
		},
		{
			displayName: 'API Token',
			name: 'apiToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'A customer API token of your organization. It needs the permissions of the operations you use: assets:todos, subscriptions:update, assets:lifecycle.',
			hint: 'A customer API token of your organization, from your Inventory administrator, with the permissions of the operations you use (assets:todos, subscriptions:update, assets:lifecycle). Paste the token; a "Bearer " before it is taken off. The sandbox prints its demo tokens, e.g. inv_demo_full_access',
		},
		{
			displayName: 'Ignore SSL Issues (Insecure)',
			name: 'ignoreSslIssues',
			type: 'boolean',
			default: false,
			description:
				'Whether to connect even if SSL certificate validation is not possible, e.g. with a self-signed certificate. Safer: make n8n trust your certificate authority with the NODE_EXTRA_CA_CERTS environment variable.',
		},
	];

	/** Every request with this credential (the node's, and n8n's HTTP Request node's) carries the bare token. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		requestOptions.headers = {
			...requestOptions.headers,
			...authorizationHeader(credentials.apiToken),
		};
		return requestOptions;
	}
}
