import { DateTime } from 'luxon';

import { NUMBER_TEXT } from './numbers';

/** Options → Date Order: how a date whose day and month could be either (04/05/2026) is read. */
export type DateOrder = 'dayFirst' | 'monthFirst';

/**
 * A date or time as a value gives it (`format`: the Luxon format that reads its text, when asked
 * for), and why it is not read when it is not.
 */
export type DateReading =
	| { ok: true; value: DateTime; format?: string }
	| { ok: false; refusal: DateRefusal };

/** How to read: the workflow's time zone, Options → Date Order (asked only when needed). */
export interface DateContext {
	zone: string;
	dateOrder: () => DateOrder | undefined;
	/** Whether a reading of date text says the Luxon format that reads it. */
	withFormat?: boolean;
}

/**
 * Why a value is not read as a date. `text` is the date text as read (trimmed, each run of white
 * space one space); `format` the Luxon format that reads that text, where one does.
 */
export type DateRefusal =
	| { reason: 'invalid' }
	/** 04/05/2026 without a date order: 4 May (day first) or April 5 (month first). */
	| {
			reason: 'twoReadings';
			text: string;
			dayFirst: DateTime;
			monthFirst: DateTime;
			formats: Partial<Record<DateOrder, string>>;
	  }
	/** 11/20/2026 with Date Order "Day First": there is no month 20, but it reads month first. */
	| { reason: 'againstOrder'; text: string; order: DateOrder; other: DateTime; format?: string }
	/** 20-Nov-26: the century is not written. */
	| { reason: 'twoDigitYear'; text: string; format?: string; gives?: DateTime }
	/** Monday, November 20, 2026: that day is a Friday. */
	| { reason: 'weekday'; date: DateTime }
	/** A number in none of DATE_NUMBERS' ranges; `digits` when it is a date written as digits (20260331). */
	| { reason: 'number'; digits?: DateTime }
	/** A Luxon DateTime that is invalid, with Luxon's reason. */
	| { reason: 'invalidDateTime'; why: string };

// ---- What the node reads, one table per kind of rule -------------------------------------------

/** English month names and their abbreviations, read in any letter case, with or without a point. */
export const MONTH_NAMES: Readonly<Record<string, number>> = {
	jan: 1,
	january: 1,
	feb: 2,
	february: 2,
	mar: 3,
	march: 3,
	apr: 4,
	april: 4,
	may: 5,
	jun: 6,
	june: 6,
	jul: 7,
	july: 7,
	aug: 8,
	august: 8,
	sep: 9,
	sept: 9,
	september: 9,
	oct: 10,
	october: 10,
	nov: 11,
	november: 11,
	dec: 12,
	december: 12,
};

/** English weekday names before a date (Friday, November 20, 2026); the date must fall on that day. */
export const WEEKDAY_NAMES: Readonly<Record<string, number>> = {
	mon: 1,
	monday: 1,
	tue: 2,
	tues: 2,
	tuesday: 2,
	wed: 3,
	wednesday: 3,
	thu: 4,
	thur: 4,
	thurs: 4,
	thursday: 4,
	fri: 5,
	friday: 5,
	sat: 6,
	saturday: 6,
	sun: 7,
	sunday: 7,
};

/**
 * Numbers in a date field (or numeric text), by range: none overlaps another, so each number has
 * one reading. A spreadsheet's serial day number (Excel's and Google Sheets' 1900 date system:
 * 46346 is 2026-11-20, its fraction the time of day) and Unix times in seconds and milliseconds.
 * Other numbers are refused.
 */
export const DATE_NUMBERS: ReadonlyArray<{
	reading: 'serialDay' | 'unixSeconds' | 'unixMilliseconds';
	from: number;
	below: number;
}> = [
	// 1927-05-18 to 2173-10-13
	{ reading: 'serialDay', from: 10_000, below: 100_000 },
	// 1973-03-03 to 2286-11-20
	{ reading: 'unixSeconds', from: 100_000_000, below: 10_000_000_000 },
	{ reading: 'unixMilliseconds', from: 100_000_000_000, below: 10_000_000_000_000 },
];

/** Day 0 of the 1900 date system: serial day n is n days later (from 1 March 1900, serial 61, on). */
const SERIAL_DAY_ZERO = DateTime.fromObject({ year: 1899, month: 12, day: 30 }, { zone: 'UTC' });

/**
 * Date text beyond ISO 8601, as sheets write it. Each shape matches the date part (in any letter
 * case, white space read as one space); a time of day may follow (TIME). Groups: see `fields`.
 */
const DATE_SHAPES: ReadonlyArray<{
	example: string;
	pattern: RegExp;
	fields: (match: RegExpExecArray) => DateFields | undefined;
}> = [
	{
		example: '2026/11/20, 2026.11.20, 2026-1-5',
		pattern: /^(\d{4})([-/.])(\d{1,2})\2(\d{1,2})$/,
		fields: ([, year, s, month, day]) => ({
			year: Number(year),
			month: Number(month),
			day: Number(day),
			layout: () => `yyyy${s}M${s}d`,
		}),
	},
	{
		example: '20/11/2026, 11/20/2026, 20.11.2026, 4-5-2026 (day and month in either order)',
		pattern: /^(\d{1,2})([-/.])(\d{1,2})\2(\d{4}|\d{2})$/,
		fields: ([, first, s, second, year]) => ({
			year: Number(year),
			twoDigitYear: year.length === 2,
			numbers: { first: Number(first), second: Number(second) },
			layout: (order) =>
				order === 'dayFirst' ? `d${s}M${s}${yearToken(year)}` : `M${s}d${s}${yearToken(year)}`,
		}),
	},
	{
		example: 'Nov 20, 2026, November 20 2026, Fri, Nov 20, 2026, Nov-20-2026',
		pattern:
			/^(?:([a-z]+)(\.?)(,?) )?([a-z]+)(\.?)([ -])(\d{1,2})(st|nd|rd|th)?(,?)([ -])(\d{4}|\d{2})$/i,
		fields: ([, weekday, wdPoint, wdComma, month, point, s1, day, ordinal, comma, s2, year]) =>
			named({ weekday, month, day, year }, () =>
				layoutOf(ordinal, [
					weekdayToken(weekday, `${wdPoint}${wdComma} `),
					monthToken(month),
					`${point}${s1}d${comma}${s2}${yearToken(year)}`,
				]),
			),
	},
	{
		example: '20 Nov 2026, 20-Nov-2026, 20 November 2026, Fri 20 Nov 2026',
		pattern:
			/^(?:([a-z]+)(\.?)(,?) )?(\d{1,2})(st|nd|rd|th)?([ \-/])([a-z]+)(\.?)(,?)\6(\d{4}|\d{2})$/i,
		fields: ([, weekday, wdPoint, wdComma, day, ordinal, s, month, point, comma, year]) =>
			named({ weekday, month, day, year }, () =>
				layoutOf(ordinal, [
					weekdayToken(weekday, `${wdPoint}${wdComma} `),
					`d${s}`,
					monthToken(month),
					`${point}${comma}${s}${yearToken(year)}`,
				]),
			),
	},
];

/**
 * A time of day after the date, separated by a space, ", " or "T": 14:30, 14:30:05, 14:30:05.250,
 * 2:30 PM, 2:30:05 pm, 2 PM (hours 1 to 12 with AM or PM, 0 to 23 without).
 */
const TIME = /(, | |T)(\d{1,2})(?::(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(?:( ?)([ap]m))?$/i;

// ---- Reading ------------------------------------------------------------------------------------

interface DateFields {
	year: number;
	twoDigitYear?: boolean;
	/** Day and month as numbers in the order written, when either may come first. */
	numbers?: { first: number; second: number };
	month?: number;
	day?: number;
	weekday?: number;
	/** The Luxon format of the date part (read in this order, for `numbers`); none if Luxon cannot read it. */
	layout: (order: DateOrder) => string | undefined;
}

interface TimeFields {
	hour: number;
	minute: number;
	second: number;
	millisecond: number;
	/** The Luxon format of the time, with the separator before it. */
	format: string;
}

const lookup = (table: Readonly<Record<string, number>>, word: string | undefined) =>
	word === undefined ? undefined : table[word.toLowerCase()];

/** Luxon reads English names of three letters or written in full, nothing else (not "Sept"). */
function nameToken(
	table: Readonly<Record<string, number>>,
	word: string,
	fullName: (number: number) => string,
	tokens: readonly [string, string],
): string | undefined {
	const full = fullName(lookup(table, word) as number);
	if (word.length === 3) return tokens[0];
	return word.toLowerCase() === full.toLowerCase() ? tokens[1] : undefined;
}

const monthToken = (month: string) =>
	nameToken(MONTH_NAMES, month, (number) => englishName(DateTime.utc(2026, number, 1), 'MMMM'), [
		'MMM',
		'MMMM',
	]);

/** The weekday and what follows it up to the date; nothing when none is written. */
function weekdayToken(weekday: string | undefined, after: string): string | undefined {
	if (weekday === undefined) return '';
	// 2026-11-16 is a Monday.
	const token = nameToken(
		WEEKDAY_NAMES,
		weekday,
		(number) => englishName(DateTime.utc(2026, 11, 15 + number), 'EEEE'),
		['EEE', 'EEEE'],
	);
	return token === undefined ? undefined : `${token}${after}`;
}

const englishName = (date: DateTime, token: string) => date.setLocale('en-US').toFormat(token);

const yearToken = (year: string) => (year.length === 2 ? 'yy' : 'yyyy');

/** A layout made of its pieces; none when a piece has no Luxon token or the day has an ordinal (20th). */
const layoutOf = (ordinal: string | undefined, pieces: Array<string | undefined>) =>
	ordinal !== undefined || pieces.includes(undefined) ? undefined : pieces.join('');

/** The fields of a date with a month name; undefined when a name is not one of the tables'. */
function named(
	words: { weekday?: string; month: string; day: string; year: string },
	format: () => string | undefined,
): DateFields | undefined {
	const month = lookup(MONTH_NAMES, words.month);
	const weekday = lookup(WEEKDAY_NAMES, words.weekday);
	if (month === undefined || (words.weekday !== undefined && weekday === undefined))
		return undefined;
	return {
		year: Number(words.year),
		twoDigitYear: words.year.length === 2,
		month,
		day: Number(words.day),
		weekday,
		layout: format,
	};
}

function readTime(match: RegExpExecArray): TimeFields | undefined {
	const [, separator, h, mm, ss, fraction, space, meridiem] = match;
	if (mm === undefined && meridiem === undefined) return undefined;
	let hour = Number(h);
	const minute = Number(mm ?? 0);
	const second = Number(ss ?? 0);
	if (meridiem !== undefined) {
		if (hour < 1 || hour > 12) return undefined;
		hour = (hour % 12) + (meridiem.toLowerCase() === 'pm' ? 12 : 0);
	} else if (hour > 23) return undefined;
	if (minute > 59 || second > 59) return undefined;
	const hourToken = meridiem === undefined ? 'H' : 'h';
	const format =
		(separator === 'T' ? "'T'" : separator) +
		hourToken +
		(mm === undefined ? '' : ':mm') +
		(ss === undefined ? '' : ':ss') +
		(fraction === undefined ? '' : '.u') +
		(meridiem === undefined ? '' : `${space}a`);
	return {
		hour,
		minute,
		second,
		// As Luxon reads a fraction: to the millisecond, cut off.
		millisecond: fraction === undefined ? 0 : Math.floor(Number(`0.${fraction}`) * 1000),
		format,
	};
}

const INVALID: DateReading = { ok: false, refusal: { reason: 'invalid' } };
const refused = (refusal: DateRefusal): DateReading => ({ ok: false, refusal });

const midnight: TimeFields = { hour: 0, minute: 0, second: 0, millisecond: 0, format: '' };

/** The Luxon format reads `text` as the node does; otherwise there is none to offer. */
function checkedFormat(
	text: string,
	format: string | undefined,
	expected: DateTime,
	zone: string,
): string | undefined {
	if (format === undefined) return undefined;
	const read = DateTime.fromFormat(text, format, { zone });
	return read.isValid && read.toMillis() === expected.toMillis() ? format : undefined;
}

/** Luxon's reading of a two-digit year (60 and below are 20xx, above 19xx). */
const fullYear = (year: number) => (year > 60 ? 1900 + year : 2000 + year);

function at(
	year: number,
	month: number,
	day: number,
	time: TimeFields,
	zone: string,
): DateTime | undefined {
	if (month < 1 || month > 12) return undefined;
	const { hour, minute, second, millisecond } = time;
	const value = DateTime.fromObject(
		{ year, month, day, hour, minute, second, millisecond },
		{ zone },
	);
	return value.isValid ? value : undefined;
}

/** Date text of DATE_SHAPES (with a time of day or not), in the workflow's time zone. */
function readSheetDate(text: string, context: DateContext): DateReading | undefined {
	let datePart = text;
	let time = midnight;
	const timeMatch = TIME.exec(text);
	if (timeMatch) {
		const read = readTime(timeMatch);
		if (read) {
			time = read;
			datePart = text.slice(0, timeMatch.index);
		}
	}
	for (const shape of DATE_SHAPES) {
		const match = shape.pattern.exec(datePart);
		const fields = match && shape.fields(match);
		if (fields) return readFields(text, fields, time, context);
	}
	return undefined;
}

function readFields(
	text: string,
	fields: DateFields,
	time: TimeFields,
	{ zone, dateOrder, withFormat }: DateContext,
): DateReading {
	const year = fields.twoDigitYear ? fullYear(fields.year) : fields.year;
	const format = (order: DateOrder, value: DateTime) => {
		const layout = fields.layout(order);
		return checkedFormat(
			text,
			layout === undefined ? undefined : layout + time.format,
			value,
			zone,
		);
	};
	let order: DateOrder = 'monthFirst';
	let value: DateTime | undefined;
	if (fields.numbers) {
		const { first, second } = fields.numbers;
		const readings: Record<DateOrder, DateTime | undefined> = {
			dayFirst: at(year, second, first, time, zone),
			monthFirst: at(year, first, second, time, zone),
		};
		const { dayFirst, monthFirst } = readings;
		if (!dayFirst && !monthFirst) return INVALID;
		// Either order, or only one; the same day either way (05/05/2026) needs no order.
		const chosen = first === second ? undefined : dateOrder();
		if (dayFirst && monthFirst && first !== second && chosen === undefined) {
			const formats = {
				dayFirst: format('dayFirst', dayFirst),
				monthFirst: format('monthFirst', monthFirst),
			};
			return refused({ reason: 'twoReadings', text, dayFirst, monthFirst, formats });
		}
		order = chosen ?? (dayFirst ? 'dayFirst' : 'monthFirst');
		value = readings[order];
		if (!value) {
			// Date Order says one order; this value reads only in the other.
			const other = (dayFirst ?? monthFirst) as DateTime;
			const otherOrder = dayFirst ? 'dayFirst' : 'monthFirst';
			return refused({
				reason: 'againstOrder',
				text,
				order,
				other,
				format: format(otherOrder, other),
			});
		}
	} else {
		value = at(year, fields.month as number, fields.day as number, time, zone);
	}
	if (!value) return INVALID;
	if (fields.weekday !== undefined && fields.weekday !== value.weekday)
		return refused({ reason: 'weekday', date: value });
	if (fields.twoDigitYear) {
		const withFormat = format(order, value);
		return refused({
			reason: 'twoDigitYear',
			text,
			format: withFormat,
			gives: withFormat === undefined ? undefined : value,
		});
	}
	return { ok: true, value, format: withFormat ? format(order, value) : undefined };
}

/** Only text that starts with a year, month and day is tried as ISO 8601 and SQL first. */
const YEAR_FIRST = /^\d{4}-\d{2}-\d{2}/;

function readText(value: string, context: DateContext): DateReading {
	const { zone } = context;
	const text = value.trim().replace(/\s+/g, ' ');
	if (YEAR_FIRST.test(text)) {
		// ISO 8601 (with or without an offset) and the same with a space instead of T, as Luxon reads them.
		for (const read of [DateTime.fromISO, DateTime.fromSQL]) {
			const parsed = read(text, { zone });
			if (parsed.isValid) return { ok: true, value: parsed };
		}
	}
	if (NUMBER_TEXT.test(text)) return readNumber(Number(text), zone);
	return readSheetDate(text, context) ?? INVALID;
}

/** A serial day (fraction: the time of day, to the second) on the workflow's wall clock. */
function fromSerialDay(serial: number, zone: string): DateTime {
	const days = Math.floor(serial);
	const seconds = Math.round((serial - days) * 86_400);
	const day = SERIAL_DAY_ZERO.plus({ days: days + Math.floor(seconds / 86_400) });
	const inDay = seconds % 86_400;
	return DateTime.fromObject(
		{
			year: day.year,
			month: day.month,
			day: day.day,
			hour: Math.floor(inDay / 3600),
			minute: Math.floor((inDay % 3600) / 60),
			second: inDay % 60,
		},
		{ zone },
	);
}

/** A number in a date field, read by DATE_NUMBERS. */
function readNumber(number: number, zone: string): DateReading {
	if (!Number.isFinite(number)) return INVALID;
	const range = DATE_NUMBERS.find(({ from, below }) => number >= from && number < below);
	switch (range?.reading) {
		case 'serialDay':
			return { ok: true, value: fromSerialDay(number, zone) };
		case 'unixSeconds':
			return { ok: true, value: DateTime.fromMillis(Math.round(number * 1000), { zone }) };
		case 'unixMilliseconds':
			return { ok: true, value: DateTime.fromMillis(Math.round(number), { zone }) };
	}
	const digits = Number.isInteger(number)
		? DateTime.fromFormat(String(number), 'yyyyMMdd', { zone })
		: undefined;
	return refused({ reason: 'number', digits: digits?.isValid ? digits : undefined });
}

function isDateTimeLike(value: object): value is {
	toISO(): string | null;
	isValid?: boolean;
	invalidReason?: string | null;
	invalidExplanation?: string | null;
} {
	return typeof (value as { toISO?: unknown }).toISO === 'function';
}

/**
 * Reads what a date parameter can hold: date text (ISO 8601 and SQL as Luxon reads them, then
 * DATE_SHAPES), a number (DATE_NUMBERS), a Luxon DateTime or a JS Date from an expression. Without
 * an offset a value is taken in the workflow's time zone; the date order is asked only for a date
 * whose day and month could be either. The result is in the workflow's time zone.
 */
export function readDate(value: unknown, context: DateContext): DateReading {
	const { zone } = context;
	let read = INVALID;
	if (typeof value === 'string') read = readText(value, context);
	else if (typeof value === 'number') read = readNumber(value, zone);
	else if (value instanceof Date) {
		const parsed = DateTime.fromJSDate(value, { zone });
		if (parsed.isValid) read = { ok: true, value: parsed };
	} else if (typeof value === 'object' && value !== null && isDateTimeLike(value)) {
		const iso = value.toISO();
		if (typeof iso === 'string') read = { ok: true, value: DateTime.fromISO(iso, { zone }) };
		else if (value.isValid === false)
			read = {
				ok: false,
				refusal: {
					reason: 'invalidDateTime',
					why: [value.invalidReason, value.invalidExplanation].filter(Boolean).join(': '),
				},
			};
	}
	return read.ok ? { ...read, value: read.value.setZone(zone) } : read;
}

/** `YYYY-MM-DD`, the calendar date in the workflow's time zone. */
export function formatDate(value: DateTime): string {
	return value.toFormat('yyyy-MM-dd');
}

/** `YYYY-MM-DDThh:mm:ss±hh:mm`: seconds and an explicit offset, never `Z`, no fraction. */
export function formatTimestamp(value: DateTime): string {
	return value.set({ millisecond: 0 }).toFormat("yyyy-MM-dd'T'HH:mm:ssZZ");
}
