import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

/**
 * The API has no read endpoint, so the test sends a to-do creation that can never succeed: record 0
 * and an empty body (no `name`, which the API requires). A rejected token answers 401; any other
 * answer (403, 404, 422) means the token was accepted. A rejected request records nothing, and the
 * fixed Idempotency-Key with the same request would only ever replay that same rejection.
 */
export const CREDENTIAL_TEST_IDEMPOTENCY_KEY = '00000000-0000-4000-8000-000000000000';

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
				'The address of your Inventory service, without the /api/v1 part. For the bundled sandbox use http://127.0.0.1:8080.',
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

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.apiToken}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/api/v1/assets/0/todos',
			method: 'POST',
			headers: {
				Accept: 'application/json',
				'Content-Type': 'application/json',
				'Idempotency-Key': CREDENTIAL_TEST_IDEMPOTENCY_KEY,
			},
			body: {},
			json: true,
			skipSslCertificateValidation: '={{$credentials.ignoreSslIssues}}',
			ignoreHttpStatusErrors: { ignore: true, except: [401] },
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'The Inventory API rejected this API token (401): it is missing, expired, revoked or not a customer API token. Nothing was created.',
				},
			},
		],
	};
}
