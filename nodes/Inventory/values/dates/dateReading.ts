import type { DateTime } from 'luxon';

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
 * Why a value is not read as a date. `format` is the Luxon format that reads the date text as read
 * (readDate.ts asReadText), where one does.
 */
export type DateRefusal =
	| { reason: 'invalid' }
	/** 04/05/2026 without a date order: 4 May (day first) or April 5 (month first). */
	| {
			reason: 'twoReadings';
			dayFirst: DateTime;
			monthFirst: DateTime;
			formats: Partial<Record<DateOrder, string>>;
	  }
	/** 11/20/2026 with Date Order "Day First": there is no month 20, but it reads month first. */
	| { reason: 'againstOrder'; order: DateOrder; other: DateTime; format?: string }
	/** 20-Nov-26: the century is not written. */
	| { reason: 'twoDigitYear'; format?: string; gives?: DateTime }
	/** Monday, November 20, 2026: that day is a Friday. */
	| { reason: 'weekday'; date: DateTime }
	/** A number in none of DATE_NUMBERS' ranges; `digits` when it is a date written as digits (20260331). */
	| { reason: 'number'; digits?: DateTime }
	/** A Luxon DateTime that is invalid, with Luxon's reason. */
	| { reason: 'invalidDateTime'; why: string };

/** A value that is no date the node reads. */
export const NOT_A_DATE: DateReading = { ok: false, refusal: { reason: 'invalid' } };

export const refused = (refusal: DateRefusal): DateReading => ({ ok: false, refusal });
