import { DateTime } from 'luxon';

import {
	DATE_SHAPES,
	MIDNIGHT,
	readTime,
	TIME,
	type DateFields,
	type TimeFields,
} from './dateShapes';
import type { TimeGroups } from './shapeGroups';
import {
	NOT_A_DATE,
	refused,
	type DateContext,
	type DateOrder,
	type DateReading,
} from './dateReading';
import { checkedFormat } from './luxonFormats';

// Date text as sheets write it (DATE_SHAPES, with a time of day or not), read into its day.

/** Luxon's reading of a two-digit year (60 and below are 20xx, above 19xx). */
const fullYear = (year: number) => (year > 60 ? 1900 + year : 2000 + year);

/** The instant of a day and time in the zone; undefined when there is no such day. */
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
export function readSheetDate(text: string, context: DateContext): DateReading | undefined {
	let datePart = text;
	let time = MIDNIGHT;
	const timeMatch = TIME.exec(text);
	if (timeMatch) {
		const read = readTime(timeMatch.groups as unknown as TimeGroups);
		if (read) {
			time = read;
			datePart = text.slice(0, timeMatch.index);
		}
	}
	for (const shape of DATE_SHAPES) {
		const groups = shape.pattern.exec(datePart)?.groups;
		const fields = groups && shape.read(groups);
		if (fields) return readFields(new WrittenDate(text, fields, time, context));
	}
	return undefined;
}

/** Date text as written, read into its fields, and where it is read. */
class WrittenDate {
	readonly year: number;

	constructor(
		readonly text: string,
		readonly fields: DateFields,
		readonly time: TimeFields,
		readonly context: DateContext,
	) {
		this.year = fields.twoDigitYear ? fullYear(fields.year) : fields.year;
	}

	/** The day of this month and day number, at the time written. */
	at(month: number, day: number): DateTime | undefined {
		return at(this.year, month, day, this.time, this.context.zone);
	}

	/** The Luxon format that reads the text, read in this order, as `value`. */
	format(order: DateOrder, value: DateTime): string | undefined {
		const layout = this.fields.layout(order);
		return checkedFormat(
			this.text,
			layout === undefined ? undefined : layout + this.time.format,
			value,
			this.context.zone,
		);
	}
}

/** The day written, in the order it is read; or why it is not read. */
type DayRead = { order: DateOrder; value: DateTime } | DateReading;

function readFields(date: WrittenDate): DateReading {
	const { fields } = date;
	const day: DayRead = fields.numbers
		? readDayNumbers(date, fields.numbers)
		: dayWithMonthName(date, fields.month as number, fields.day as number);
	if ('ok' in day) return day;
	const { order, value } = day;
	if (fields.weekday !== undefined && fields.weekday !== value.weekday)
		return refused({ reason: 'weekday', date: value });
	if (fields.twoDigitYear) {
		const format = date.format(order, value);
		return refused({
			reason: 'twoDigitYear',
			format,
			gives: format === undefined ? undefined : value,
		});
	}
	return {
		ok: true,
		value,
		format: date.context.withFormat ? date.format(order, value) : undefined,
	};
}

/** A day with its month named (Nov 20, 2026): one reading. */
function dayWithMonthName(date: WrittenDate, month: number, day: number): DayRead {
	const value = date.at(month, day);
	return value ? { order: 'monthFirst', value } : NOT_A_DATE;
}

/**
 * Day and month as numbers (04/05/2026): read both ways; one that has a single reading, or the same
 * day either way (05/05/2026), needs no order. Options → Date Order is asked only when the two
 * numbers differ; without it, two readings are refused with both.
 */
function readDayNumbers(
	date: WrittenDate,
	{ first, second }: { first: number; second: number },
): DayRead {
	const readings: Record<DateOrder, DateTime | undefined> = {
		dayFirst: date.at(second, first),
		monthFirst: date.at(first, second),
	};
	const { dayFirst, monthFirst } = readings;
	if (!dayFirst && !monthFirst) return NOT_A_DATE;
	const chosen = first === second ? undefined : date.context.dateOrder();
	if (dayFirst && monthFirst && first !== second && chosen === undefined)
		return refused({
			reason: 'twoReadings',
			dayFirst,
			monthFirst,
			formats: {
				dayFirst: date.format('dayFirst', dayFirst),
				monthFirst: date.format('monthFirst', monthFirst),
			},
		});
	const order = chosen ?? (dayFirst ? 'dayFirst' : 'monthFirst');
	const value = readings[order];
	return value ? { order, value } : againstDateOrder(date, order, readings);
}

/** Date Order says one order; this value reads only in the other. */
function againstDateOrder(
	date: WrittenDate,
	order: DateOrder,
	{ dayFirst, monthFirst }: Record<DateOrder, DateTime | undefined>,
): DateReading {
	const other = (dayFirst ?? monthFirst) as DateTime;
	const otherOrder = dayFirst ? 'dayFirst' : 'monthFirst';
	return refused({
		reason: 'againstOrder',
		order,
		other,
		format: date.format(otherOrder, other),
	});
}
