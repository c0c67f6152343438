import type { INodePropertyOptions } from 'n8n-workflow';

import { formatDate, formatTimestamp, parseDateInput, type DateRefusal } from './dates';

export const MAX_AMOUNT = 999_999_999.99;

/** What a field's value must be; the field's form property is declared beside it (helpers/fields.ts). */
export type Check =
	| { kind: 'text'; maxLength: number }
	| { kind: 'amount' }
	| { kind: 'integer'; min: number; max: number }
	/** Any finite number (a custom field value given as Number). */
	| { kind: 'number' }
	| { kind: 'boolean' }
	/** One of the options, given by value or by name (see OPTION_SPELLING); sent as the option's value. */
	| { kind: 'options'; options: readonly INodePropertyOptions[] }
	/** A list (a custom field value given as Array): a list from an expression, or JSON text like [4061, 4062]. */
	| { kind: 'list' }
	/** A calendar day, sent as `YYYY-MM-DD`. */
	| { kind: 'date' }
	/** An instant not in the future, sent as `YYYY-MM-DDThh:mm:ss±hh:mm`. */
	| { kind: 'timestamp' }
	/** A numeric record ID of the organization (asset, subscription, user, event type, custom field). */
	| { kind: 'recordId' };

export const RECORD_ID: Check = { kind: 'recordId' };

export type RequestValue = string | number | boolean | RequestValue[];

/** Ends the item with this problem of the field being checked, e.g. `must be a number, got "x"`. */
export type Fail = (problem: string) => never;

// ---- What the node reads beyond n8n's own parsing, one table per kind of rule ---------------------
//
// n8n's nodes read parameters with n8n-workflow's `tryToParse*` / `validateFieldType`: numbers with
// `Number()`, booleans as "true"/"false" in any case and 1/0, dates with Luxon (ISO 8601, SQL, HTTP,
// RFC 2822, then `Date.parse`). The node reads the same values, with these differences: what a
// spreadsheet or a form writes is taken too, and what could be read two ways is refused with the
// expression that reads it one way.

/** Numbers given as text: optional minus, digits, optional decimals (no sign, thousands separator or exponent). */
export const NUMBER_TEXT = /^-?\d+(\.\d+)?$/;

/**
 * Floating-point noise: a computed number is read to this many significant digits, what a double
 * holds exactly, so `0.1 + 0.2` (0.30000000000000004) is 0.3 and `12.5 * 1.1` (13.750000000000002)
 * is 13.75, while a real third decimal (899.99 * 1.2 = 1079.988) stays a third decimal.
 */
export const SIGNIFICANT_DIGITS = 15;

/** Booleans as sheets and forms write them, in any letter case, with spaces around (n8n reads true/false and 1/0). */
export const BOOLEAN_WORDS: Readonly<Record<string, boolean>> = {
	true: true,
	false: false,
	yes: true,
	no: false,
	'1': true,
	'0': false,
};

/**
 * Choices: an option is given by its API value ("per_license", "Quarterly") or its name in the form
 * ("Per License"), in any letter case, with words separated by spaces, underscores or hyphens.
 */
export const OPTION_SPELLING = {
	separators: /[\s_-]+/g,
	spell: (text: string) => text.trim().toLowerCase().replace(OPTION_SPELLING.separators, ' '),
};

/** How to fix a refused value in the expression that gives it, by what was refused. */
export const FIX_IT = {
	thirdDecimal:
		'round it in the expression, e.g. {{ Math.round(x * 100) / 100 }} or {{ x.round(2) }}',
	dayOrMonthFirst: (format: string) =>
		`the day and month can be read either way: convert it in the expression, e.g. {{ DateTime.fromFormat($json.date, '${format}') }}`,
	otherDateFormat: (format: string) =>
		`convert it in the expression, e.g. {{ DateTime.fromFormat($json.date, '${format}') }}`,
	unixTime: 'convert a Unix time in the expression, e.g. {{ DateTime.fromSeconds($json.date) }}',
	list: 'give a list, e.g. [4061, 4062], or {{ [4061, 4062] }} in an expression',
} as const;

// ---- The checks ------------------------------------------------------------------------------------

/** Nothing given: undefined, null, or text that is empty or only white space. */
export function isEmptyValue(value: unknown): boolean {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}

/**
 * Characters a message would show as nothing or as a plain space: controls, the byte order mark
 * Excel's "CSV UTF-8" starts with, zero-width and non-breaking spaces, soft hyphens, line separators.
 */
const INVISIBLE_RANGES: ReadonlyArray<readonly [number, number]> = [
	[0x0000, 0x001f],
	[0x007f, 0x00a0],
	[0x00ad, 0x00ad],
	[0x061c, 0x061c],
	[0x115f, 0x1160],
	[0x180e, 0x180e],
	[0x2000, 0x200f],
	[0x2028, 0x202f],
	[0x205f, 0x206f],
	[0x3000, 0x3000],
	[0x3164, 0x3164],
	[0xfeff, 0xfeff],
	[0xfff9, 0xfffb],
];

const isInvisible = (code: number) =>
	INVISIBLE_RANGES.some(([first, last]) => code >= first && code <= last);

/** Text as a message shows it: every invisible character escaped (`\uFEFF`), so none reads as nothing. */
export function showText(text: string): string {
	let shown = '';
	for (const char of text) {
		const code = char.codePointAt(0) as number;
		shown += isInvisible(code) ? `\\u${code.toString(16).toUpperCase().padStart(4, '0')}` : char;
	}
	return shown;
}

export function describeValue(value: unknown): string {
	if (typeof value === 'string') {
		const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
		return `"${showText(shown)}"${value.length > 40 ? ` (${value.length} characters)` : ''}`;
	}
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return 'an object';
	return String(value);
}

const grouped = (count: number) => count.toLocaleString('en-US');

function toNumber(value: unknown, fail: Fail): number {
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	if (typeof value === 'string' && NUMBER_TEXT.test(value.trim())) return Number(value.trim());
	return fail(`must be a number, got ${describeValue(value)}`);
}

/** The number without floating-point noise (see SIGNIFICANT_DIGITS). */
function withoutNoise(value: number): number {
	return Number(value.toPrecision(SIGNIFICANT_DIGITS));
}

/** Whether the number is a whole number of cents (the double nearest to one: 1499.99, 12.5, 3). */
const isCents = (value: number) => Math.round(value * 100) / 100 === value;

function checkText(value: unknown, maxLength: number, fail: Fail): string {
	if (typeof value !== 'string' && typeof value !== 'number')
		fail(`must be text, got ${describeValue(value)}`);
	const text = String(value);
	const length = [...text].length;
	if (length > maxLength)
		fail(`must be at most ${grouped(maxLength)} characters, got ${grouped(length)}`);
	return text;
}

function checkAmount(value: unknown, fail: Fail): number {
	const given = toNumber(value, fail);
	// Most amounts are cents already; only the others are read without their noise.
	const amount = isCents(given) ? given : withoutNoise(given);
	if (amount < 0 || amount > MAX_AMOUNT) fail(`must be between 0 and 999,999,999.99, got ${given}`);
	if (!isCents(amount))
		fail(`must have at most two decimal places, got ${given}: ${FIX_IT.thirdDecimal}`);
	return amount;
}

function checkInteger(value: unknown, min: number, max: number, fail: Fail): number {
	const given = toNumber(value, fail);
	const count = Number.isInteger(given) ? given : withoutNoise(given);
	if (!Number.isInteger(count)) fail(`must be a whole number, got ${given}`);
	if (count < min || count > max)
		fail(`must be between ${grouped(min)} and ${grouped(max)}, got ${count}`);
	return count;
}

function checkBoolean(value: unknown, fail: Fail): boolean {
	if (typeof value === 'boolean') return value;
	if (typeof value === 'number' || typeof value === 'string') {
		const word = BOOLEAN_WORDS[String(value).trim().toLowerCase()];
		if (word !== undefined) return word;
	}
	return fail(`must be true or false (or yes/no, 1/0), got ${describeValue(value)}`);
}

/** The option's name, and its value where it is spelled otherwise: "Per License (per_license)". */
function optionLabel({ name, value }: INodePropertyOptions): string {
	return OPTION_SPELLING.spell(name) === OPTION_SPELLING.spell(String(value))
		? name
		: `${name} (${String(value)})`;
}

function checkOption(value: unknown, options: readonly INodePropertyOptions[], fail: Fail): string {
	if (typeof value === 'string') {
		const exact = options.find((option) => option.value === value);
		if (exact) return value;
		const spelled = OPTION_SPELLING.spell(value);
		const found = options.find(
			(option) =>
				OPTION_SPELLING.spell(option.name) === spelled ||
				OPTION_SPELLING.spell(String(option.value)) === spelled,
		);
		if (found) return String(found.value);
	}
	return fail(
		`must be one of ${options.map(optionLabel).join(', ')} (in any letter case), got ${describeValue(value)}`,
	);
}

function checkList(value: unknown, fail: Fail): RequestValue[] {
	let list: unknown = value;
	if (typeof value === 'string') {
		try {
			list = JSON.parse(value) as unknown;
		} catch {
			list = undefined;
		}
	}
	if (!Array.isArray(list))
		return fail(`must be a list, got ${describeValue(value)}: ${FIX_IT.list}`);
	return list as RequestValue[];
}

function dateProblem(refusal: DateRefusal, value: unknown): string {
	const expected =
		"must be a date such as 2026-03-31, 2026-03-31 14:00 or 2026-03-31T14:00:00+02:00 (ISO 8601; without an offset it is taken in the workflow's time zone)";
	const got = `got ${describeValue(value)}`;
	switch (refusal.reason) {
		case 'dayOrMonthFirst':
			return `${expected}, ${got}: ${FIX_IT.dayOrMonthFirst(refusal.format)}`;
		case 'otherFormat':
			return `${expected}, ${got}: ${FIX_IT.otherDateFormat(refusal.format)}`;
		case 'number':
			return `${expected}, ${got}: ${FIX_IT.unixTime}`;
		case 'invalid':
			return `${expected}, ${got}`;
	}
}

function checkDate(
	value: unknown,
	kind: 'date' | 'timestamp',
	timeZone: string,
	fail: Fail,
): string {
	const parsed = parseDateInput(value, timeZone);
	if (!parsed.ok) return fail(dateProblem(parsed, value));
	if (kind === 'date') return formatDate(parsed.value);
	if (parsed.value.toMillis() > Date.now())
		fail(`must not be in the future, got ${formatTimestamp(parsed.value)}`);
	return formatTimestamp(parsed.value);
}

function checkRecordId(value: unknown, fail: Fail): number {
	let id: number | undefined;
	if (typeof value === 'number') id = value;
	else if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) id = Number(value);
	if (id === undefined || !Number.isSafeInteger(id) || id < 1) {
		return fail(`must be a numeric ID (a whole number of 1 or more), got ${describeValue(value)}`);
	}
	return id;
}

/**
 * Checks a given (non-empty) value; returns what goes into the request: numbers as numbers, choices
 * as the API spells them, dates in the API's shape, in the workflow's time zone.
 */
export function checkValue(
	check: Check,
	value: unknown,
	timeZone: string,
	fail: Fail,
): RequestValue {
	switch (check.kind) {
		case 'text':
			return checkText(value, check.maxLength, fail);
		case 'amount':
			return checkAmount(value, fail);
		case 'integer':
			return checkInteger(value, check.min, check.max, fail);
		case 'number':
			return toNumber(value, fail);
		case 'boolean':
			return checkBoolean(value, fail);
		case 'options':
			return checkOption(value, check.options, fail);
		case 'list':
			return checkList(value, fail);
		case 'date':
		case 'timestamp':
			return checkDate(value, check.kind, timeZone, fail);
		case 'recordId':
			return checkRecordId(value, fail);
	}
}
