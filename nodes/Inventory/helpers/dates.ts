import { DateTime } from 'luxon';

/** Why a value is not read as a date; `format` is the Luxon format that would read it. */
export type DateRefusal =
	| { ok: false; reason: 'dayOrMonthFirst' | 'otherFormat'; format: string }
	| { ok: false; reason: 'number' | 'invalid' };

export type DateParseResult = { ok: true; value: DateTime } | DateRefusal;

/**
 * Date text the node reads, year first, in this order (each as Luxon reads it, as n8n's own
 * `tryToParseDateTime` does): ISO 8601 (`2026-11-20`, `2026-11-20T10:00`, with or without an offset)
 * and the same with a space instead of `T` (`2026-11-20 10:00`, as sheets and databases write it).
 * Without an offset the value is taken in the workflow's time zone.
 */
const DATE_READERS: ReadonlyArray<(text: string, zone: string) => DateTime> = [
	(text, zone) => DateTime.fromISO(text, { zone }),
	(text, zone) => DateTime.fromSQL(text, { zone }),
];

/** Only text that starts with a year, month and day is read; other dates are refused (below). */
const YEAR_FIRST = /^\d{4}-\d{2}-\d{2}/;

/**
 * Date text refused with the Luxon format that reads it (n8n's `Date.parse` fallback would take
 * 04/05/2026 as April 5, month first, which a European sheet means as 4 May).
 * `separator` is the one the value uses, `time` its time of day when it has one.
 */
const REFUSED_DATES: ReadonlyArray<{
	pattern: RegExp;
	reason: 'dayOrMonthFirst' | 'otherFormat';
	format: (separator: string, time: string) => string;
}> = [
	{
		pattern: /^\d{1,2}([/.-])\d{1,2}\1\d{4}(?:[ T](\d{1,2}:\d{2}(?::\d{2})?))?$/,
		reason: 'dayOrMonthFirst',
		format: (s, time) => `dd${s}MM${s}yyyy${timeFormat(time)}`,
	},
	{
		pattern: /^\d{4}([/.])\d{1,2}\1\d{1,2}(?:[ T](\d{1,2}:\d{2}(?::\d{2})?))?$/,
		reason: 'otherFormat',
		format: (s, time) => `yyyy${s}MM${s}dd${timeFormat(time)}`,
	},
];

function timeFormat(time: string | undefined): string {
	if (!time) return '';
	return time.split(':').length === 3 ? ' HH:mm:ss' : ' HH:mm';
}

function isDateTimeLike(value: object): value is { toISO(): string | null } {
	return typeof (value as { toISO?: unknown }).toISO === 'function';
}

function readText(text: string, timeZone: string): DateParseResult {
	if (YEAR_FIRST.test(text)) {
		for (const read of DATE_READERS) {
			const parsed = read(text, timeZone);
			if (parsed.isValid) return { ok: true, value: parsed };
		}
		return { ok: false, reason: 'invalid' };
	}
	for (const { pattern, reason, format } of REFUSED_DATES) {
		const match = pattern.exec(text);
		if (match) return { ok: false, reason, format: format(match[1], match[2]) };
	}
	return { ok: false, reason: 'invalid' };
}

/**
 * Reads what a dateTime parameter can hold: the picker's local "YYYY-MM-DDThh:mm:ss" (taken in the
 * workflow's time zone), date text as DATE_READERS reads it, a Luxon DateTime or a JS Date from an
 * expression. The result is in the workflow's time zone.
 */
export function parseDateInput(value: unknown, timeZone: string): DateParseResult {
	let parsed: DateTime | undefined;
	if (typeof value === 'string') {
		const read = readText(value.trim(), timeZone);
		if (!read.ok) return read;
		parsed = read.value;
	} else if (typeof value === 'number') {
		return { ok: false, reason: 'number' };
	} else if (value instanceof Date) {
		parsed = DateTime.fromJSDate(value, { zone: timeZone });
	} else if (typeof value === 'object' && value !== null && isDateTimeLike(value)) {
		const iso = value.toISO();
		if (typeof iso === 'string') parsed = DateTime.fromISO(iso, { zone: timeZone });
	}
	if (!parsed?.isValid) return { ok: false, reason: 'invalid' };
	return { ok: true, value: parsed.setZone(timeZone) };
}

/** `YYYY-MM-DD`, the calendar date in the workflow's time zone. */
export function formatDate(value: DateTime): string {
	return value.toFormat('yyyy-MM-dd');
}

/** `YYYY-MM-DDThh:mm:ss±hh:mm`: seconds and an explicit offset, never `Z`, no fraction. */
export function formatTimestamp(value: DateTime): string {
	return value.set({ millisecond: 0 }).toFormat("yyyy-MM-dd'T'HH:mm:ssZZ");
}
