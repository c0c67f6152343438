import { runOptions } from '../actions/options.description';
import type { RetryPolicy } from '../transport';
import type { Field } from './fields';
import type { ItemInput } from './itemInput';

/** The run's concurrency and retry policy, from the options of the first item; an option not set takes its default. */
export function readRunOptions(input: ItemInput): { concurrency: number; policy: RetryPolicy } {
	const options = input.collection('options');
	const read = (field: Field) =>
		(input.value(field, options[field.parameter]) ?? field.property.default) as number;
	return {
		concurrency: read(runOptions.concurrency),
		policy: {
			maxRetries: read(runOptions.maxRetries),
			baseDelayMs: read(runOptions.retryDelay),
			maxDelayMs: read(runOptions.maxRetryWait),
			timeoutMs: read(runOptions.timeout),
		},
	};
}
