// The named groups each date shape's pattern (dateShapes.ts DATE_SHAPES, TIME) writes: what a
// shape's reading (dateShapes.ts) and its Luxon format (luxonFormats.ts) are both built from.

/** 2026/11/20, 2026.11.20, 2026-1-5 */
export interface YearFirstGroups {
	year: string;
	separator: string;
	month: string;
	day: string;
}

/** 20/11/2026, 11/20/2026, 20.11.2026, 4-5-2026: day and month in either order. */
export interface DayNumbersGroups {
	first: string;
	separator: string;
	second: string;
	year: string;
}

/** A weekday before a date with a month name ("Fri, ", "Friday ", "Fri. "), when one is written. */
export interface WeekdayGroups {
	weekday?: string;
	weekdayPoint?: string;
	weekdayComma?: string;
}

/** Nov 20, 2026, November 20 2026, Fri, Nov 20, 2026, Nov-20-2026 */
export interface MonthFirstGroups extends WeekdayGroups {
	month: string;
	monthPoint: string;
	beforeDay: string;
	day: string;
	ordinal?: string;
	dayComma: string;
	beforeYear: string;
	year: string;
}

/** 20 Nov 2026, 20-Nov-2026, 20 November 2026, Fri 20 Nov 2026 */
export interface DayFirstGroups extends WeekdayGroups {
	day: string;
	ordinal?: string;
	separator: string;
	month: string;
	monthPoint: string;
	monthComma: string;
	year: string;
}

/** A time of day after the date: 14:30, 14:30:05, 14:30:05.250, 2:30 PM, 2:30:05 pm, 2 PM. */
export interface TimeGroups {
	separator: string;
	hour: string;
	minute?: string;
	second?: string;
	fraction?: string;
	space?: string;
	meridiem?: string;
}
