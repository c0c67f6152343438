import { MONTH_NAMES, numberOfName, WEEKDAY_NAMES } from './dateNames';
import type { DateOrder } from './dateReading';
import {
	dayFirstLayout,
	dayNumbersLayout,
	monthFirstLayout,
	timeLayout,
	yearFirstLayout,
} from './luxonFormats';
import type {
	DayFirstGroups,
	DayNumbersGroups,
	MonthFirstGroups,
	TimeGroups,
	WeekdayGroups,
	YearFirstGroups,
} from './shapeGroups';

// ---- Date text as sheets write it, beyond ISO 8601 ------------------------------------------------

export interface DateFields {
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

/**
 * Each shape matches the date part (in any letter case, white space read as one space); a time of
 * day may follow (TIME). `read` gives the date's fields from the pattern's named groups
 * (shapeGroups.ts).
 */
export const DATE_SHAPES: ReadonlyArray<{
	pattern: RegExp;
	read: (groups: Record<string, string>) => DateFields | undefined;
}> = [
	{
		pattern: /^(?<year>\d{4})(?<separator>[-/.])(?<month>\d{1,2})\k<separator>(?<day>\d{1,2})$/,
		read: (groups) => {
			const written = groups as unknown as YearFirstGroups;
			return {
				year: Number(written.year),
				month: Number(written.month),
				day: Number(written.day),
				layout: () => yearFirstLayout(written),
			};
		},
	},
	{
		pattern:
			/^(?<first>\d{1,2})(?<separator>[-/.])(?<second>\d{1,2})\k<separator>(?<year>\d{4}|\d{2})$/,
		read: (groups) => {
			const written = groups as unknown as DayNumbersGroups;
			return {
				year: Number(written.year),
				twoDigitYear: written.year.length === 2,
				numbers: { first: Number(written.first), second: Number(written.second) },
				layout: (order) => dayNumbersLayout(written, order),
			};
		},
	},
	{
		pattern:
			/^(?:(?<weekday>[a-z]+)(?<weekdayPoint>\.?)(?<weekdayComma>,?) )?(?<month>[a-z]+)(?<monthPoint>\.?)(?<beforeDay>[ -])(?<day>\d{1,2})(?<ordinal>st|nd|rd|th)?(?<dayComma>,?)(?<beforeYear>[ -])(?<year>\d{4}|\d{2})$/i,
		read: (groups) => {
			const written = groups as unknown as MonthFirstGroups;
			return withMonthName(written, () => monthFirstLayout(written));
		},
	},
	{
		pattern:
			/^(?:(?<weekday>[a-z]+)(?<weekdayPoint>\.?)(?<weekdayComma>,?) )?(?<day>\d{1,2})(?<ordinal>st|nd|rd|th)?(?<separator>[ \-/])(?<month>[a-z]+)(?<monthPoint>\.?)(?<monthComma>,?)\k<separator>(?<year>\d{4}|\d{2})$/i,
		read: (groups) => {
			const written = groups as unknown as DayFirstGroups;
			return withMonthName(written, () => dayFirstLayout(written));
		},
	},
];

/**
 * A time of day after the date, separated by a space, ", " or "T" (hours 1 to 12 with AM or PM, 0
 * to 23 without).
 */
export const TIME =
	/(?<separator>, | |T)(?<hour>\d{1,2})(?::(?<minute>\d{2})(?::(?<second>\d{2})(?:\.(?<fraction>\d{1,9}))?)?)?(?:(?<space> ?)(?<meridiem>[ap]m))?$/i;

/** The fields of a date with a month name; undefined when a name is not one of the tables'. */
function withMonthName(
	written: WeekdayGroups & { month: string; day: string; year: string },
	layout: () => string | undefined,
): DateFields | undefined {
	const month = numberOfName(MONTH_NAMES, written.month);
	const weekday = numberOfName(WEEKDAY_NAMES, written.weekday);
	if (month === undefined || (written.weekday !== undefined && weekday === undefined))
		return undefined;
	return {
		year: Number(written.year),
		twoDigitYear: written.year.length === 2,
		month,
		day: Number(written.day),
		weekday,
		layout,
	};
}

export interface TimeFields {
	hour: number;
	minute: number;
	second: number;
	millisecond: number;
	/** The Luxon format of the time, with the separator before it. */
	format: string;
}

export const MIDNIGHT: TimeFields = { hour: 0, minute: 0, second: 0, millisecond: 0, format: '' };

export function readTime(written: TimeGroups): TimeFields | undefined {
	const { minute, second, fraction, meridiem } = written;
	if (minute === undefined && meridiem === undefined) return undefined;
	let hour = Number(written.hour);
	if (meridiem !== undefined) {
		if (hour < 1 || hour > 12) return undefined;
		hour = (hour % 12) + (meridiem.toLowerCase() === 'pm' ? 12 : 0);
	} else if (hour > 23) return undefined;
	if (Number(minute ?? 0) > 59 || Number(second ?? 0) > 59) return undefined;
	return {
		hour,
		minute: Number(minute ?? 0),
		second: Number(second ?? 0),
		// As Luxon reads a fraction: to the millisecond, cut off.
		millisecond: fraction === undefined ? 0 : Math.floor(Number(`0.${fraction}`) * 1000),
		format: timeLayout(written),
	};
}
