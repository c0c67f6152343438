import { DateTime } from 'luxon';

import { NOT_A_DATE, refused, type DateContext, type DateReading } from './dateReading';
import { NUMBER_TEXT } from '../numbers/numberText';
import { readSheetDate } from './sheetDates';

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

/** Only text that starts with a year, month and day is tried as ISO 8601 and SQL first. */
const YEAR_FIRST = /^\d{4}-\d{2}-\d{2}/;

/** Date text as it is read: trimmed, each run of white space one space (OFFERED_FIXES.oneSpace in an expression). */
export const asReadText = (value: string): string => value.trim().replace(/\s+/g, ' ');

/** Date text: ISO 8601 and SQL as Luxon reads them, a number as text, then as sheets write it (sheetDates.ts). */
function readText(value: string, context: DateContext): DateReading {
	const { zone } = context;
	const text = asReadText(value);
	if (YEAR_FIRST.test(text)) {
		// ISO 8601 (with or without an offset) and the same with a space instead of T, as Luxon reads them.
		for (const read of [DateTime.fromISO, DateTime.fromSQL]) {
			const parsed = read(text, { zone });
			if (parsed.isValid) return { ok: true, value: parsed };
		}
	}
	if (NUMBER_TEXT.test(text)) return dateOfNumber(Number(text), zone);
	return readSheetDate(text, context) ?? NOT_A_DATE;
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

/** The date a number in a date field gives: a serial day number or a Unix time (DATE_NUMBERS). */
function dateOfNumber(number: number, zone: string): DateReading {
	if (!Number.isFinite(number)) return NOT_A_DATE;
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
 * DATE_SHAPES in dateShapes.ts), a number (DATE_NUMBERS), a Luxon DateTime or a JS Date from an expression. Without
 * an offset a value is taken in the workflow's time zone; the date order is asked only for a date
 * whose day and month could be either. The result is in the workflow's time zone.
 */
export function readDate(value: unknown, context: DateContext): DateReading {
	const { zone } = context;
	let read = NOT_A_DATE;
	if (typeof value === 'string') read = readText(value, context);
	else if (typeof value === 'number') read = dateOfNumber(value, zone);
	else if (value instanceof Date) {
		const parsed = DateTime.fromJSDate(value, { zone });
		if (parsed.isValid) read = { ok: true, value: parsed };
	} else if (typeof value === 'object' && value !== null && isDateTimeLike(value)) {
		const iso = value.toISO();
		if (typeof iso === 'string') read = { ok: true, value: DateTime.fromISO(iso, { zone }) };
		else if (value.isValid === false)
			read = refused({
				reason: 'invalidDateTime',
				why: [value.invalidReason, value.invalidExplanation].filter(Boolean).join(': '),
			});
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
