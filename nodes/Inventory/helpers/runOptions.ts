import { runOptions } from '../actions/options.description';
import type { RetryPolicy } from '../transport';
import type { Field } from './fields';
import type { ItemInput } from './itemInput';

/** How many requests go out at once: a fixed number, or found automatically up to a maximum. */
export type Sending =
	| { mode: 'fixed'; concurrency: number }
	| { mode: 'automatic'; maxInFlight: number };

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
		},
	};
}
