import { DateTime, Info } from 'luxon';

import { MONTH_NAMES, numberOfName, WEEKDAY_NAMES } from './dateNames';
import type { DateOrder } from './dateReading';
import type {
	DayFirstGroups,
	DayNumbersGroups,
	MonthFirstGroups,
	TimeGroups,
	WeekdayGroups,
	YearFirstGroups,
} from './shapeGroups';

// The Luxon format that reads date text as the node read it, for a fix a message offers
// (`DateTime.fromFormat($json.date, 'd.M.yy')`): built from the pieces the text was written with.

const ENGLISH = { locale: 'en-US' };

/** Luxon reads an English name of three letters (`MMM`) or written in full (`MMMM`), nothing else (not "Sept"). */
function nameToken(word: string, fullName: string, tokens: [short: string, full: string]) {
	if (word.length === 3) return tokens[0];
	return word.toLowerCase() === fullName.toLowerCase() ? tokens[1] : undefined;
}

const monthToken = (month: string) =>
	nameToken(month, Info.months('long', ENGLISH)[(numberOfName(MONTH_NAMES, month) as number) - 1], [
		'MMM',
		'MMMM',
	]);

/** The weekday and what is written after it up to the date; nothing when none is written. */
function weekdayPiece({ weekday, weekdayPoint, weekdayComma }: WeekdayGroups) {
	if (weekday === undefined) return '';
	const number = numberOfName(WEEKDAY_NAMES, weekday) as number;
	const token = nameToken(weekday, Info.weekdays('long', ENGLISH)[number - 1], ['EEE', 'EEEE']);
	return token === undefined ? undefined : `${token}${weekdayPoint}${weekdayComma} `;
}

const yearToken = (year: string) => (year.length === 2 ? 'yy' : 'yyyy');

/** The format of its pieces; none when a piece has no Luxon token or the day has an ordinal (20th). */
const joined = (ordinal: string | undefined, pieces: Array<string | undefined>) =>
	ordinal !== undefined || pieces.includes(undefined) ? undefined : pieces.join('');

/** 2026/11/20: `yyyy/M/d`. */
export const yearFirstLayout = ({ separator: s }: YearFirstGroups) => `yyyy${s}M${s}d`;

/** 20/11/2026 read day first: `d/M/yyyy`; month first: `M/d/yyyy`. */
export const dayNumbersLayout = ({ separator: s, year }: DayNumbersGroups, order: DateOrder) =>
	order === 'dayFirst' ? `d${s}M${s}${yearToken(year)}` : `M${s}d${s}${yearToken(year)}`;

/** Fri, Nov 20, 2026: `EEE, MMM d, yyyy`. */
export const monthFirstLayout = (groups: MonthFirstGroups) =>
	joined(groups.ordinal, [
		weekdayPiece(groups),
		monthToken(groups.month),
		`${groups.monthPoint}${groups.beforeDay}d${groups.dayComma}${groups.beforeYear}${yearToken(groups.year)}`,
	]);

/** Fri 20 Nov 2026: `EEE d MMM yyyy`. */
export const dayFirstLayout = (groups: DayFirstGroups) =>
	joined(groups.ordinal, [
		weekdayPiece(groups),
		`d${groups.separator}`,
		monthToken(groups.month),
		`${groups.monthPoint}${groups.monthComma}${groups.separator}${yearToken(groups.year)}`,
	]);

/** The format of a time of day, with the separator before it: ` h:mm a`, `'T'HH:mm:ss.u`. */
export function timeLayout({ separator, minute, second, fraction, space, meridiem }: TimeGroups) {
	return (
		(separator === 'T' ? "'T'" : separator) +
		(meridiem === undefined ? 'H' : 'h') +
		(minute === undefined ? '' : ':mm') +
		(second === undefined ? '' : ':ss') +
		(fraction === undefined ? '' : '.u') +
		(meridiem === undefined ? '' : `${space}a`)
	);
}

/** The format, when Luxon reads `text` with it as the node did; otherwise there is none to offer. */
export function checkedFormat(
	text: string,
	format: string | undefined,
	expected: DateTime,
	zone: string,
): string | undefined {
	if (format === undefined) return undefined;
	const read = DateTime.fromFormat(text, format, { zone });
	return read.isValid && read.toMillis() === expected.toMillis() ? format : undefined;
}
