import type { INodeProperties } from 'n8n-workflow';

import { collection, integerField, textField, variant, type Field } from '../helpers/fields';
import type { ItemInput } from '../helpers/itemInput';
import type { RetryPolicy, Sending } from '../transport';

const UP_TO_VERSION_2 = { show: { '@version': [{ _cnd: { lte: 2 } }] } };
const FROM_VERSION_3 = { show: { '@version': [{ _cnd: { gte: 3 } }] } };

/** Version 1 and 2: a fixed concurrency, 1 when not set. */
const fixedConcurrency = integerField({
	displayName: 'Concurrency',
	name: 'concurrency',
	min: 1,
	max: 50,
	default: 1,
	placeholder: 'e.g. 10',
	description: 'How many items are sent at the same time (1 to 50)',
	hint: 'Items of one asset or subscription are sent one after another, in input order; output order and item linking stay the same. A rate limit answer pauses every request of the run.',
	displayOptions: UP_TO_VERSION_2,
});

/** How the node sends, not what: read once per run, from the first item. */
export const runOptions = {
	concurrency: fixedConcurrency,
	/** From version 3 the concurrency is found automatically unless this option is added. */
	fixedConcurrency: variant(fixedConcurrency, {
		description:
			'Send exactly this many items at the same time (1 to 50) instead of finding the rate the server accepts',
		displayOptions: FROM_VERSION_3,
	}),
	maxConcurrency: integerField({
		displayName: 'Max Concurrency',
		name: 'maxConcurrency',
		min: 1,
		max: 50,
		default: 50,
		placeholder: 'e.g. 20',
		description:
			'The most requests the node has in flight at once while it finds the rate the server accepts on its own (1 to 50)',
		hint: 'Without a Concurrency option the node speeds up while the API answers and slows down on a rate limit (429). Items of one asset or subscription are sent one after another, in input order; output order and item linking stay the same.',
		displayOptions: FROM_VERSION_3,
	}),
	maxRetries: integerField({
		displayName: 'Max Retries',
		name: 'maxRetries',
		min: 0,
		max: 10,
		default: 5,
		placeholder: 'e.g. 5',
		description:
			'How often a request is retried, with the same Idempotency-Key, after a rate limit (429), a server failure (5xx) or a network failure. Other answers are never retried.',
	}),
	retryDelay: integerField({
		displayName: 'Retry Delay (Ms)',
		name: 'retryDelay',
		min: 0,
		max: 600_000,
		default: 1000,
		placeholder: 'e.g. 1000',
		description:
			'The first wait before a retry, in milliseconds; it doubles on each further retry, with jitter',
	}),
	maxRetryWait: integerField({
		displayName: 'Max Retry Wait (Ms)',
		name: 'maxRetryWait',
		min: 0,
		max: 3_600_000,
		default: 30000,
		placeholder: 'e.g. 30000',
		description:
			'The longest single wait between retries, in milliseconds. A rate limit that asks for a longer wait fails the item instead.',
	}),
	timeout: integerField({
		displayName: 'Timeout (Ms)',
		name: 'timeout',
		min: 1,
		max: 3_600_000,
		default: 30000,
		placeholder: 'e.g. 30000',
		description:
			'How long one attempt may take, in milliseconds, before it is abandoned and retried with the same key',
	}),
};

/** Read per item: the business identity of the item's action. */
export const idempotencyKeyOption = textField({
	displayName: 'Idempotency Key',
	name: 'idempotencyKey',
	// Any length: what is sent is a UUID derived from it.
	maxLength: Number.POSITIVE_INFINITY,
	placeholder: 'e.g. {{ $json.submissionId }}',
	description: 'Leave empty to derive the key from the workflow, execution, node and item',
	hint: 'Retries replay instead of duplicating. Set a business identifier (e.g. an intake form submission ID) to make the action happen once per that identifier, across executions. A UUID is sent as is; any other text is turned into a UUID with the operation and record.',
	// From version 4 the form's Repeat Protection takes its place (and hashes a UUID too).
	displayOptions: { show: { '@version': [{ _cnd: { lte: 3 } }] } },
});

/** Read once per run, from the first item (outcomeItems.isDryRun). */
export const dryRunOption: INodeProperties = {
	displayName: 'Dry Run',
	name: 'dryRun',
	type: 'boolean',
	default: false,
	description:
		'Whether to run every check on every item and output the request each would send (method, path, body, Idempotency-Key) without sending anything',
	hint: 'Nothing is sent, not even to test the credential. Items that fail a check go to the error output (or stop the node) with their reasons. The keys shown belong to this execution: a real run sends keys of its own, unless they come from the row data (Repeat Protection, the Idempotency Key option).',
};

export const options = collection('options', 'Options', 'Add Option', [
	...Object.values(runOptions),
	idempotencyKeyOption,
	dryRunOption,
]);

/** The run's sending mode and retry policy, from the options of the first item; an option not set takes its default. */
export function readRunOptions(input: ItemInput): { sending: Sending; policy: RetryPolicy } {
	const options = input.collection('options');
	const read = (field: Field) =>
		(input.value(field, options[field.parameter]) ?? field.property.default) as number;
	const automatic =
		input.nodeVersion >= 3 && options[runOptions.concurrency.parameter] === undefined;
	return {
		sending: automatic
			? { mode: 'automatic', maxInFlight: read(runOptions.maxConcurrency) }
			: { mode: 'fixed', concurrency: read(runOptions.concurrency) },
		policy: {
			maxRetries: read(runOptions.maxRetries),
			baseDelayMs: read(runOptions.retryDelay),
			maxDelayMs: read(runOptions.maxRetryWait),
			timeoutMs: read(runOptions.timeout),
			concurrencyOption: (automatic ? runOptions.maxConcurrency : runOptions.concurrency).label,
		},
	};
}
