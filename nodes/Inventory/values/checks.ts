import type { INodePropertyOptions } from 'n8n-workflow';
import type { DateTime } from 'luxon';

import {
	DATE_NUMBERS,
	formatDate,
	formatTimestamp,
	readDate,
	type DateOrder,
	type DateRefusal,
} from './dates';
import { readNumberText, type NumberSpelling } from './numbers';

const MAX_AMOUNT = 999_999_999.99;

/**
 * Amounts and counts of the request are text fields (`type: 'string'`), not n8n number inputs: n8n's
 * number input reads what is typed its own way (`12,50` became 1250, booked a hundred times over),
 * while a text field hands the node the text as typed, so a typed amount is read by the node's own
 * rules, as a sheet's value is (`12,50`, `1.079,99`, `$10.00`), or refused with the reason.
 */
export const AMOUNT: Check = { kind: 'amount' };

/** What a field's value must be; the field's form property is declared beside it (values/field.ts). */
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

/** What reading a value needs beyond the value: asked only when a value needs it. */
export interface Reading {
	/** The workflow's time zone: dates and times without an offset are taken in it. */
	timeZone: string;
	/** Options → Date Order, for a date whose day and month could be either; undefined when not set. */
	dateOrder: () => DateOrder | undefined;
	/**
	 * The expression that gives the value (`$json.date`, without `{{ }}`), or the fixed value as a
	 * JavaScript literal, for the fixes a message offers; undefined when unknown (FIX_IT.placeholder).
	 */
	source: () => string | undefined;
	/** Evaluates an expression for the item (`{{ $json.date }}`): what a failed conversion was given. */
	evaluate?: (expression: string) => unknown;
}

// ---- What the node reads beyond n8n's own parsing, one table per kind of rule ---------------------
//
// n8n's nodes read parameters with n8n-workflow's `tryToParse*` / `validateFieldType`: numbers with
// `Number()`, booleans as "true"/"false" in any case and 1/0, dates with Luxon (ISO 8601, SQL, HTTP,
// RFC 2822, then `Date.parse`). The node reads the same values, with these differences: what a
// spreadsheet or a form writes is taken too (numbers: values/numbers.ts, dates: values/dates.ts),
// and what could be read two ways is refused with the readings and the expression that reads it.

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

/**
 * How to fix a refused value: each expression is built on the expression that gives the value
 * (Reading.source), so that it reads the very value refused; the message says what it gives.
 */
export const FIX_IT = {
	/** What stands for the value when its expression is unknown. */
	placeholder: { date: '$json.date', number: '$json.amount', list: '$json.ids' },
	round: (number: string) => `{{ Math.round(${number} * 100) / 100 }}`,
	/** Text as JavaScript's Number() reads it, without what a sheet adds (values/numbers.ts). */
	number: (text: string, { currency, thousands, decimal }: NumberSpelling) =>
		`Number(${text}${currency ? `.replace(${literal(currency)}, '')` : ''}${
			thousands ? `.replaceAll(${literal(thousands)}, '')` : ''
		}${decimal === ',' ? ".replace(',', '.')" : ''})`,
	fromFormat: (text: string, format: string) =>
		`{{ DateTime.fromFormat(${text}, ${literal(format)}) }}`,
	/** Date text with other white space than single spaces, as the Luxon format reads it. */
	oneSpace: (text: string) => `${text}.trim().replace(/\\s+/g, ' ')`,
	digits: (source: string) => `{{ DateTime.fromFormat(String(${source}), 'yyyyMMdd') }}`,
	dateOrder:
		"set Options → Date Order to your sheet's order (Day First or Month First: every row is then read that way)",
	list: 'give a list, e.g. [4061, 4062], or {{ [4061, 4062] }} in an expression',
	listOf: (text: string, separator: string) =>
		`{{ ${text}.split(${literal(separator)}).map(Number) }}`,
} as const;

/** A JavaScript string literal of the text, in single quotes, invisible characters escaped (showText). */
function literal(text: string): string {
	return `'${showText(text.replace(/[\\']/g, '\\$&'))}'`;
}

/** An expression as an operand: a path such as `$json.date` or `$json["Due date"]` as it is, others in parentheses. */
const SIMPLE_OPERAND =
	/^(?:\$[\w$]*(?:\.[\w$]+|\[(?:\d+|'[^']*'|"[^"]*")\]|\((?:'[^']*'|"[^"]*")?\))*|"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?)$/;
const operand = (expression: string) =>
	SIMPLE_OPERAND.test(expression) ? expression : `(${expression})`;

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

/**
 * The range a check allows, in the words a field's description states it ("up to 255 characters",
 * "0 to 999,999,999.99"); undefined for a check without one. `field()` holds each description to it.
 */
export function rangeWords(check: Check): string | undefined {
	if (check.kind === 'text') return `up to ${grouped(check.maxLength)} characters`;
	if (check.kind === 'amount') return `0 to ${grouped(MAX_AMOUNT)}`;
	if (check.kind === 'integer') return `${grouped(check.min)} to ${grouped(check.max)}`;
	return undefined;
}

/** A number read from a value, how a message shows the value, and the expression that gives the number. */
interface NumberRead {
	value: number;
	shown: string;
	/** The JavaScript expression giving this number from the value's expression (built when asked). */
	readonly expression: string;
	/** Plain text like `1.249`, which a sheet may mean as 1249 (the point separating thousands). */
	pointThousands?: { value: number; expression: string };
}

/** Plain text `1.249`: at most three digits, a point, three digits (also with a currency sign). */
const POINT_THOUSANDS = /^-?[1-9]\d{0,2}\.\d{3}$/;

/** What the value shows in a message: the number, or the text when it is written otherwise. */
const shownNumber = (value: unknown, number: number) =>
	typeof value === 'string' && value.trim() !== String(number)
		? describeValue(value)
		: String(number);

/**
 * A number from a number or from text (values/numbers.ts). `field` decides what has two readings:
 * an amount (at most two decimals) and a count (whole) read `1,249` as 1249, a number refuses it.
 */
function readNumber(
	value: unknown,
	field: 'amount' | 'integer' | 'number',
	reading: Reading,
	fail: Fail,
): NumberRead {
	const source = () => operand(reading.source() ?? FIX_IT.placeholder.number);
	if (typeof value === 'number' && Number.isFinite(value))
		return {
			value,
			shown: String(value),
			get expression() {
				return source();
			},
		};
	if (typeof value !== 'string') return fail(`must be a number, got ${describeValue(value)}`);
	const text = readNumberText(value, { currency: field === 'amount' });
	if (text.ok) {
		const read: NumberRead = {
			value: text.value,
			shown: shownNumber(value, text.value),
			get expression() {
				return FIX_IT.number(source(), text.spelling);
			},
		};
		if (text.plain !== undefined && POINT_THOUSANDS.test(text.plain))
			read.pointThousands = {
				value: Number(text.plain.replace('.', '')),
				get expression() {
					return FIX_IT.number(source(), { ...text.spelling, thousands: '.' });
				},
			};
		return read;
	}
	if (text.twoReadings) {
		const { thousands, decimal } = text.twoReadings;
		// Three decimals are not an amount, nor a count: the comma separates thousands.
		if (field !== 'number')
			return {
				value: thousands,
				shown: describeValue(value),
				get expression() {
					return FIX_IT.number(source(), { ...text.spelling, thousands: ',' });
				},
			};
		return fail(
			`can be read two ways, got ${describeValue(value)}: ${thousands} (a comma separating thousands) or ${decimal} (a decimal comma). ` +
				`Write it without the comma or with a decimal point, or convert it in the expression: ` +
				`{{ ${FIX_IT.number(source(), { ...text.spelling, thousands: ',' })} }} gives ${thousands}, ` +
				`{{ ${FIX_IT.number(source(), { ...text.spelling, decimal: ',' })} }} gives ${decimal}`,
		);
	}
	return fail(`must be a number, got ${describeValue(value)}`);
}

/** The fix for `1.249` meant as 1249, when the value is such text. */
const pointThousandsFix = ({ pointThousands }: NumberRead) =>
	pointThousands
		? `; if the point separates thousands, {{ ${pointThousands.expression} }} gives ${pointThousands.value}`
		: '';

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

/** `1.250` in an amount or a count: the number as written, or the point separating thousands. */
function twoReadingsWithPoint(read: NumberRead, asWritten: number): string {
	const thousands = read.pointThousands?.value;
	return `can be read two ways, got ${read.shown}: ${asWritten} or ${thousands} (a point separating thousands). Write it as ${asWritten} or ${thousands}, or convert it in the expression: {{ ${read.expression} }} gives ${asWritten}, {{ ${read.pointThousands?.expression} }} gives ${thousands}`;
}

function checkAmount(value: unknown, reading: Reading, fail: Fail): number {
	const read = readNumber(value, 'amount', reading, fail);
	const given = read.value;
	// Most amounts are cents already; only the others are read without their noise.
	const amount = isCents(given) ? given : withoutNoise(given);
	if (amount < 0 || amount > MAX_AMOUNT)
		fail(`must be between 0 and ${grouped(MAX_AMOUNT)}, got ${read.shown}`);
	if (!isCents(amount))
		fail(
			`must have at most two decimal places, got ${read.shown}: round it in the expression, e.g. ${FIX_IT.round(read.expression)} (gives ${Math.round(given * 100) / 100})${pointThousandsFix(read)}`,
		);
	// `1.250`: 1.25, or 1250 as a sheet that separates thousands with a point writes it (typed into
	// Cost by hand too). An amount of cents has no third decimal to tell which.
	if (read.pointThousands) fail(twoReadingsWithPoint(read, amount));
	return amount;
}

function checkInteger(
	value: unknown,
	min: number,
	max: number,
	reading: Reading,
	fail: Fail,
): number {
	const read = readNumber(value, 'integer', reading, fail);
	const given = read.value;
	const count = Number.isInteger(given) ? given : withoutNoise(given);
	if (!Number.isInteger(count))
		fail(`must be a whole number, got ${read.shown}${pointThousandsFix(read).replace(/^;/, ':')}`);
	// `12.000`: 12, or 12000 as a sheet that separates thousands with a point writes it.
	if (read.pointThousands) fail(twoReadingsWithPoint(read, count));
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

/** Numbers separated by one separator (`4061; 4062`, `4061, 4062`): the separator. */
const LIST_TEXT = /^\s*\d+(?:\s*([;,|])\s*\d+)+\s*$/;

function checkList(value: unknown, reading: Reading, fail: Fail): RequestValue[] {
	let list: unknown = value;
	if (typeof value === 'string') {
		try {
			list = JSON.parse(value) as unknown;
		} catch {
			list = undefined;
		}
	}
	if (Array.isArray(list)) return list as RequestValue[];
	const separated = typeof value === 'string' ? LIST_TEXT.exec(value) : null;
	if (separated) {
		const source = operand(reading.source() ?? FIX_IT.placeholder.list);
		const ids = value as string;
		return fail(
			`must be a list, got ${describeValue(value)}: give a list, e.g. [${ids.split(separated[1]).map(Number).join(', ')}], or convert it in the expression: ${FIX_IT.listOf(source, separated[1])}`,
		);
	}
	return fail(`must be a list, got ${describeValue(value)}: ${FIX_IT.list}`);
}

/** The text n8n gives for an invalid Luxon DateTime in a collection (its `toString()`). */
const INVALID_DATETIME_TEXT = 'Invalid DateTime';

const DATE_EXPECTED =
	"must be a date such as 2026-11-20, 20.11.2026, 11/20/2026 or Nov 20, 2026, with an optional time such as 14:30 or 2:30 PM (in the workflow's time zone unless it has an offset)";

/** How a number in a date field is read (DATE_NUMBERS), for a message. */
const DATE_NUMBERS_EXPLAINED = (() => {
	const range = (reading: string) => {
		const found = DATE_NUMBERS.find(
			(entry) => entry.reading === reading,
		) as (typeof DATE_NUMBERS)[number];
		return `${grouped(found.from)} to ${grouped(found.below - 1)}`;
	};
	return `a number is read as a spreadsheet's serial day number (${range('serialDay')}; 46346 is 2026-11-20), a Unix time in seconds (${range('unixSeconds')}) or in milliseconds (${range('unixMilliseconds')})`;
})();

/** A date as a message shows it: the day, and the time when it is not midnight. */
function shownDate(value: DateTime): string {
	if (value.hour === 0 && value.minute === 0 && value.second === 0 && value.millisecond === 0)
		return formatDate(value);
	return value.toFormat(value.second === 0 ? 'yyyy-MM-dd HH:mm' : 'yyyy-MM-dd HH:mm:ss');
}

const ORDER_WORDS: Record<DateOrder, { words: string; option: string }> = {
	dayFirst: { words: 'day first', option: 'Day First' },
	monthFirst: { words: 'month first', option: 'Month First' },
};

/** `DateTime.fromFormat(input, 'format')`, its options or not: the input and the format. */
const FROM_FORMAT_CALL =
	/^DateTime\.fromFormat\(\s*([\s\S]+?)\s*,\s*(['"`])([^'"`]*)\2\s*(?:,\s*\{[^{}]*\}\s*)?\)$/;

/** The value's expression as Luxon's format must be given it: trimmed, one space between words. */
function dateText(value: unknown, text: string, source: string): string {
	return typeof value === 'string' && value !== text ? FIX_IT.oneSpace(source) : source;
}

function dateProblem(refusal: DateRefusal, value: unknown, reading: Reading): string {
	const got = `got ${describeValue(value)}`;
	const source = () => operand(reading.source() ?? FIX_IT.placeholder.date);
	const fromFormat = (text: string, format: string | undefined) =>
		format === undefined ? undefined : FIX_IT.fromFormat(dateText(value, text, source()), format);
	switch (refusal.reason) {
		case 'invalid':
			return `${DATE_EXPECTED}, ${got}`;
		case 'number':
			return `${DATE_EXPECTED}, ${got}: ${DATE_NUMBERS_EXPLAINED}${
				refusal.digits
					? `; as a date written in digits (year, month, day) it is ${formatDate(refusal.digits)}: ${FIX_IT.digits(source())}`
					: ''
			}`;
		case 'twoReadings': {
			const convert = fromFormat(refusal.text, refusal.formats.dayFirst);
			return (
				`can be read two ways, ${got}: ${shownDate(refusal.dayFirst)} (day first) or ${shownDate(refusal.monthFirst)} (month first). ` +
				`${FIX_IT.dateOrder.replace(/^s/, 'S')}${convert ? `, or convert it in the expression, e.g. ${convert} (day first)` : ''}`
			);
		}
		case 'againstOrder': {
			const { order, other } = refusal;
			const otherOrder = order === 'dayFirst' ? 'monthFirst' : 'dayFirst';
			const convert = fromFormat(refusal.text, refusal.format);
			return (
				`cannot be read ${ORDER_WORDS[order].words} as Options → Date Order says, ${got}: read ${ORDER_WORDS[otherOrder].words} it is ${shownDate(other)}. ` +
				`Check this row's date, or set Date Order to ${ORDER_WORDS[otherOrder].option} if the sheet writes the ${otherOrder === 'dayFirst' ? 'day' : 'month'} first` +
				(convert ? `; to read this value ${ORDER_WORDS[otherOrder].words}: ${convert}` : '')
			);
		}
		case 'twoDigitYear': {
			const convert = fromFormat(refusal.text, refusal.format);
			return `has a two-digit year, ${got}: write the year with four digits${
				convert && refusal.gives
					? `, or convert it in the expression, e.g. ${convert} (gives ${shownDate(refusal.gives)})`
					: ''
			}`;
		}
		case 'weekday':
			return `names another weekday than its date's, ${got}: ${formatDate(refusal.date)} is a ${refusal.date.setLocale('en-US').toFormat('EEEE')}`;
		case 'invalidDateTime':
			return `got an invalid DateTime from its expression (Luxon: ${refusal.why})${invalidDateTimeFix(reading)}`;
	}
}

/**
 * For `DateTime.fromFormat(input, format)` that gave an invalid DateTime: what its input is, and
 * how the node reads it (as it is, or with the format that reads it).
 */
function invalidDateTimeFix(reading: Reading): string {
	const generic =
		': check the format against the value; the node reads date text such as 11/20/2026, 20.11.2026 and Nov 20, 2026 as it is, without a conversion';
	const call = FROM_FORMAT_CALL.exec(reading.source() ?? '');
	if (!call || !reading.evaluate) return generic;
	const argument = call[1];
	let input: unknown;
	try {
		input = reading.evaluate(`{{ ${argument} }}`);
	} catch {
		return generic;
	}
	const read = readDate(input, {
		zone: reading.timeZone,
		dateOrder: reading.dateOrder,
		withFormat: true,
	});
	const given = `: it was given ${describeValue(input)}`;
	if (read.ok) {
		const format = read.format
			? `, or use the format that reads it: ${FIX_IT.fromFormat(dateText(input, String(input).trim().replace(/\s+/g, ' '), operand(argument)), read.format)}`
			: '';
		return `${given}, which the node reads as it is (${shownDate(read.value)}): give {{ ${argument} }}${format}`;
	}
	if (read.refusal.reason === 'invalid' || read.refusal.reason === 'invalidDateTime')
		return `${given}, ${generic.slice(2)}`;
	const problem = dateProblem(read.refusal, input, { ...reading, source: () => argument });
	return `${given}, which ${problem.replace(`, got ${describeValue(input)}`, '')}`;
}

function checkDate(
	value: unknown,
	kind: 'date' | 'timestamp',
	reading: Reading,
	fail: Fail,
): string {
	let given = value;
	// n8n hands an invalid DateTime in a collection over as its text: its expression says why.
	const source = value === INVALID_DATETIME_TEXT ? reading.source() : undefined;
	if (source !== undefined && reading.evaluate) {
		try {
			const evaluated = reading.evaluate(`{{ ${source} }}`);
			if (typeof evaluated === 'object' && evaluated !== null) given = evaluated;
		} catch {
			given = value;
		}
	}
	const read = readDate(given, { zone: reading.timeZone, dateOrder: reading.dateOrder });
	if (!read.ok) return fail(dateProblem(read.refusal, given, reading));
	if (kind === 'date') return formatDate(read.value);
	if (read.value.toMillis() > Date.now())
		fail(`must not be in the future, got ${formatTimestamp(read.value)}`);
	return formatTimestamp(read.value);
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
	reading: Reading,
	fail: Fail,
): RequestValue {
	switch (check.kind) {
		case 'text':
			return checkText(value, check.maxLength, fail);
		case 'amount':
			return checkAmount(value, reading, fail);
		case 'integer':
			return checkInteger(value, check.min, check.max, reading, fail);
		case 'number':
			return readNumber(value, 'number', reading, fail).value;
		case 'boolean':
			return checkBoolean(value, fail);
		case 'options':
			return checkOption(value, check.options, fail);
		case 'list':
			return checkList(value, reading, fail);
		case 'date':
		case 'timestamp':
			return checkDate(value, check.kind, reading, fail);
		case 'recordId':
			return checkRecordId(value, fail);
	}
}
