import type { INodeProperties } from 'n8n-workflow';

import { field, INTEGER_IN_FORM_RANGE, ONE_OF_FORM_OPTIONS, type Field } from '../values/field';
import type { ItemInput } from '../values/itemInput';
import type { ConcurrencySetting } from '../scheduling/controller';
import { RETRIED_AFTER, type RetryPolicy } from '../transport';

// Every option is a plain `INodeProperties` literal with its check beside it (values/field.ts), as
// every parameter of the node is, so that n8n's lint reads it. A number option always holds a value
// (its default when added), so none shows a placeholder.

// Options → Date Order: how a date whose day and month could be either (04/05/2026) is read. The
// Options collection lists it; the run's setup reads it (runSetup.ts) and hands it to ItemInput.

/** Read once per run, from the first item, when a date first needs it (runSetup.ts). */
export const dateOrderOption = field({
	property: {
		displayName: 'Date Order',
		name: 'dateOrder',
		type: 'options',
		default: 'dayFirst',
		options: [
			{
				name: 'Day First',
				value: 'dayFirst',
				description: '04/05/2026 is 4 May 2026, as in most of Europe',
			},
			{
				name: 'Month First',
				value: 'monthFirst',
				description: '04/05/2026 is April 5, 2026, as in the US',
			},
		],
		description:
			'How to read dates whose day and month could be either, like 04/05/2026: every row is read this way',
		hint: 'Dates with one reading need no order: 20/11/2026, 11/20/2026, 2026-11-20, Nov 20, 2026. With an order set, a date that reads only the other way (11/20/2026 with Day First) is refused.',
	},
	check: ONE_OF_FORM_OPTIONS,
});

/** How the node sends, not what: read once per run, from the first item. */
export const runOptions = {
	/**
	 * The concurrency is found automatically unless this option is added. Its label says "Fixed" and the
	 * other's "Automatic", so that a reader of the Options list tells the two apart.
	 */
	concurrency: field({
		property: {
			displayName: 'Fixed Concurrency',
			name: 'concurrency',
			type: 'number',
			default: 1,
			typeOptions: { minValue: 1, maxValue: 50, numberPrecision: 0 },
			description:
				'Send exactly this many items at the same time (1 to 50). Adding this option turns the automatic concurrency off, so Max Automatic Concurrency no longer applies.',
			hint: 'Items of one asset or subscription are sent one after another, in input order; output order and item linking stay the same. A rate limit answer (429) pauses every execution sending to this server in this n8n process.',
		},
		check: INTEGER_IN_FORM_RANGE,
	}),
	maxConcurrency: field({
		property: {
			displayName: 'Max Automatic Concurrency',
			name: 'maxConcurrency',
			type: 'number',
			default: 50,
			typeOptions: { minValue: 1, maxValue: 50, numberPrecision: 0 },
			description:
				'The cap of the automatic concurrency: the most requests the node has in flight at once while it finds the rate the server accepts on its own (1 to 50). Ignored when Fixed Concurrency is added.',
			hint: 'Without the Fixed Concurrency option the node speeds up while the API answers and slows down on a rate limit (429). Items of one asset or subscription are sent one after another, in input order; output order and item linking stay the same.',
		},
		check: INTEGER_IN_FORM_RANGE,
	}),
	maxRetries: field({
		property: {
			displayName: 'Max Retries',
			name: 'maxRetries',
			type: 'number',
			default: 5,
			typeOptions: { minValue: 0, maxValue: 10, numberPrecision: 0 },
			description: `How often a request is retried, with the same Idempotency-Key, after ${RETRIED_AFTER}. Other answers are never retried.`,
		},
		check: INTEGER_IN_FORM_RANGE,
	}),
	retryDelay: field({
		property: {
			displayName: 'Retry Delay (Ms)',
			name: 'retryDelay',
			type: 'number',
			default: 500,
			typeOptions: { minValue: 0, maxValue: 600_000, numberPrecision: 0 },
			description:
				'The longest first wait before a retry, in milliseconds. Each wait is a random time up to its limit, and the limit doubles on each further retry.',
		},
		check: INTEGER_IN_FORM_RANGE,
	}),
	maxRetryWait: field({
		property: {
			displayName: 'Max Retry Wait (Ms)',
			name: 'maxRetryWait',
			type: 'number',
			default: 30000,
			typeOptions: { minValue: 0, maxValue: 3_600_000, numberPrecision: 0 },
			description:
				'The longest single wait between retries, in milliseconds. A rate limit that asks for a longer wait fails the item instead.',
		},
		check: INTEGER_IN_FORM_RANGE,
	}),
	timeout: field({
		property: {
			displayName: 'Timeout (Ms)',
			name: 'timeout',
			type: 'number',
			default: 30000,
			typeOptions: { minValue: 1, maxValue: 3_600_000, numberPrecision: 0 },
			description:
				'How long one attempt may take, in milliseconds, before it is abandoned and retried with the same key',
		},
		check: INTEGER_IN_FORM_RANGE,
	}),
};

/**
 * Checks every item and outputs the requests instead of sending them. Only the switch's own `true`
 * turns it on, as n8n reads a boolean: no text an expression gives ("yes") is taken for it.
 */
export const dryRunOption: INodeProperties = {
	displayName: 'Dry Run',
	name: 'dryRun',
	type: 'boolean',
	default: false,
	description:
		'Whether to run every check on every item and output the request each would send (method, path, body, Idempotency-Key) without sending anything',
	hint: 'Nothing is sent, not even to test the credential. Items that fail a check go to the error output (or stop the node) with their reasons. The keys shown belong to this execution: a real run sends keys of its own, unless they come from the row data (Repeat Protection keyed by columns or an expression).',
};

/** The Options collection: its entries listed by display name, as n8n's style asks. */
export const options: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		dateOrderOption.property,
		dryRunOption,
		runOptions.concurrency.property,
		runOptions.maxConcurrency.property,
		runOptions.maxRetries.property,
		runOptions.maxRetryWait.property,
		runOptions.retryDelay.property,
		runOptions.timeout.property,
	],
};

/** The run's options, read once from the first item; an option not set (or left empty) takes its default. */
export function readRunOptions(input: ItemInput): {
	concurrency: ConcurrencySetting;
	policy: RetryPolicy;
	dryRun: boolean;
} {
	const numberOf = (field: Field) => (input.option(field) ?? field.property.default) as number;
	const added = input.collection('options');
	// The concurrency is found automatically unless Fixed Concurrency is added (even left empty).
	const automatic = added[runOptions.concurrency.parameter] === undefined;
	return {
		concurrency: automatic
			? { mode: 'automatic', maxInFlight: numberOf(runOptions.maxConcurrency) }
			: { mode: 'fixed', concurrency: numberOf(runOptions.concurrency) },
		policy: {
			maxRetries: numberOf(runOptions.maxRetries),
			baseDelayMs: numberOf(runOptions.retryDelay),
			maxDelayMs: numberOf(runOptions.maxRetryWait),
			timeoutMs: numberOf(runOptions.timeout),
			concurrencyOption: (automatic ? runOptions.maxConcurrency : runOptions.concurrency).label,
		},
		dryRun: added[dryRunOption.name] === true,
	};
}
