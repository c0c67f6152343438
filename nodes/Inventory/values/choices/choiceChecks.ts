import type { INodePropertyOptions } from 'n8n-workflow';

import type { Fail } from '../checkContext';
import { describeValue } from '../shownText';
import { optionWords } from './spelling';

/** Booleans as sheets and forms write them, in any letter case, with spaces around (n8n reads true/false and 1/0). */
export const BOOLEAN_WORDS: Readonly<Record<string, boolean>> = {
	true: true,
	false: false,
	yes: true,
	no: false,
	'1': true,
	'0': false,
};

export function checkBoolean(value: unknown, fail: Fail): boolean {
	if (typeof value === 'boolean') return value;
	if (typeof value === 'number' || typeof value === 'string') {
		const word = BOOLEAN_WORDS[String(value).trim().toLowerCase()];
		if (word !== undefined) return word;
	}
	return fail(`must be true or false (or yes/no, 1/0), got ${describeValue(value)}`);
}

/** The option's name, and its value where it is spelled otherwise: "Per License (per_license)". */
function optionLabel({ name, value }: INodePropertyOptions): string {
	return optionWords(name) === optionWords(String(value)) ? name : `${name} (${String(value)})`;
}

/** One of the options, given by value or by name (optionWords); the option's value. */
export function checkOption(
	value: unknown,
	options: readonly INodePropertyOptions[],
	fail: Fail,
): string {
	if (typeof value === 'string') {
		const exact = options.find((option) => option.value === value);
		if (exact) return value;
		const words = optionWords(value);
		const found = options.find(
			(option) => optionWords(option.name) === words || optionWords(String(option.value)) === words,
		);
		if (found) return String(found.value);
	}
	return fail(
		`must be one of ${options.map(optionLabel).join(', ')} (in any letter case), got ${describeValue(value)}`,
	);
}
