import type { INodeProperties } from 'n8n-workflow';

export const MAX_CONCURRENCY = 50;

export const options: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Concurrency',
			name: 'concurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY, numberPrecision: 0 },
			default: 1,
			description:
				'How many items are sent at the same time (1 to 50). Output order and item linking stay the same; a rate limit answer pauses every request of the run.',
		},
		{
			displayName: 'Idempotency Key',
			name: 'idempotencyKey',
			type: 'string',
			default: '',
			placeholder: 'e.g. {{ $json.submissionId }}',
			description:
				'Leave empty to derive a key from the workflow, execution, node and item, so retries replay instead of duplicating. Set it to a business identifier (e.g. an intake form submission ID) to make the action happen once per that identifier, across executions. A UUID is sent as is; any other text is turned into a UUID together with the operation and record.',
		},
		{
			displayName: 'Max Retries',
			name: 'maxRetries',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 10, numberPrecision: 0 },
			default: 5,
			description:
				'How often a request is retried, with the same Idempotency-Key, after a rate limit (429), a server error (5xx) or a network failure. Other errors are never retried.',
		},
		{
			displayName: 'Max Retry Wait (Ms)',
			name: 'maxRetryWait',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 0 },
			default: 30000,
			description:
				'The longest single wait between retries, in milliseconds. A rate limit that asks for a longer wait fails the item instead.',
		},
		{
			displayName: 'Retry Delay (Ms)',
			name: 'retryDelay',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 0 },
			default: 1000,
			description:
				'The first wait before a retry, in milliseconds; it doubles on each further retry, with jitter',
		},
		{
			displayName: 'Timeout (Ms)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 30000,
			description:
				'How long one attempt may take, in milliseconds, before it is abandoned and retried with the same key',
		},
	],
};
