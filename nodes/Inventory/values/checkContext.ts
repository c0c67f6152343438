import type { DateOrder } from './dates/dateReading';

// What a check is handed beside the value: the checks of every kind (checks.ts and the checks of
// numbers, choices and dates it calls) take these, so they are declared apart from all of them.

/** Ends the item with this problem of the field being checked, e.g. `must be a number, got "x"`. */
export type Fail = (problem: string) => never;

/** What checking a value needs beyond the value: asked only when a value needs it. */
export interface CheckContext {
	/** The workflow's time zone: dates and times without an offset are taken in it. */
	timeZone: string;
	/** Options → Date Order, for a date whose day and month could be either; undefined when not set. */
	dateOrder: () => DateOrder | undefined;
	/**
	 * The expression that gives the value (`$json.date`, without `{{ }}`), or the fixed value as a
	 * JavaScript literal, for the fixes a message offers; undefined when unknown (OFFERED_FIXES.placeholder).
	 */
	source: () => string | undefined;
	/** Evaluates an expression for the item (`{{ $json.date }}`): what a failed conversion was given. */
	evaluate?: (expression: string) => unknown;
}
