import type { DateTime } from 'luxon';

import type { CheckContext } from '../checkContext';
import type { DateOrder, DateRefusal } from './dateReading';
import { asReadText, DATE_NUMBERS, formatDate, readDate } from './readDate';
import { asOperand, OFFERED_FIXES } from '../fixExpressions';
import { describeValue, grouped } from '../shownText';

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
	/^DateTime\.fromFormat\(\s*(?<input>[\s\S]+?)\s*,\s*(?<quote>['"`])(?<format>[^'"`]*)\k<quote>\s*(?:,\s*\{[^{}]*\}\s*)?\)$/;

/** The value's expression as Luxon's format must be given it: as the node reads date text (asReadText). */
function dateText(value: unknown, source: string): string {
	return typeof value === 'string' && value !== asReadText(value)
		? OFFERED_FIXES.oneSpace(source)
		: source;
}

/** Why a date field's value was refused, and the fix: the problem a failed date check ends with. */
export function dateProblem(refusal: DateRefusal, value: unknown, context: CheckContext): string {
	const got = `got ${describeValue(value)}`;
	const source = () => asOperand(context.source() ?? OFFERED_FIXES.placeholder.date);
	const fromFormat = (format: string | undefined) =>
		format === undefined ? undefined : OFFERED_FIXES.fromFormat(dateText(value, source()), format);
	switch (refusal.reason) {
		case 'invalid':
			return `${DATE_EXPECTED}, ${got}`;
		case 'number':
			return `${DATE_EXPECTED}, ${got}: ${DATE_NUMBERS_EXPLAINED}${
				refusal.digits
					? `; as a date written in digits (year, month, day) it is ${formatDate(refusal.digits)}: ${OFFERED_FIXES.digits(source())}`
					: ''
			}`;
		case 'twoReadings': {
			const convert = fromFormat(refusal.formats.dayFirst);
			return (
				`can be read two ways, ${got}: ${shownDate(refusal.dayFirst)} (day first) or ${shownDate(refusal.monthFirst)} (month first). ` +
				`${OFFERED_FIXES.dateOrder.replace(/^s/, 'S')}${convert ? `, or convert it in the expression, e.g. ${convert} (day first)` : ''}`
			);
		}
		case 'againstOrder': {
			const { order, other } = refusal;
			const otherOrder = order === 'dayFirst' ? 'monthFirst' : 'dayFirst';
			const convert = fromFormat(refusal.format);
			return (
				`cannot be read ${ORDER_WORDS[order].words} as Options → Date Order says, ${got}: read ${ORDER_WORDS[otherOrder].words} it is ${shownDate(other)}. ` +
				`Check this row's date, or set Date Order to ${ORDER_WORDS[otherOrder].option} if the sheet writes the ${otherOrder === 'dayFirst' ? 'day' : 'month'} first` +
				(convert ? `; to read this value ${ORDER_WORDS[otherOrder].words}: ${convert}` : '')
			);
		}
		case 'twoDigitYear': {
			const convert = fromFormat(refusal.format);
			return `has a two-digit year, ${got}: write the year with four digits${
				convert && refusal.gives
					? `, or convert it in the expression, e.g. ${convert} (gives ${shownDate(refusal.gives)})`
					: ''
			}`;
		}
		case 'weekday':
			return `names another weekday than its date's, ${got}: ${formatDate(refusal.date)} is a ${refusal.date.setLocale('en-US').toFormat('EEEE')}`;
		case 'invalidDateTime':
			return `got an invalid DateTime from its expression (Luxon: ${refusal.why})${invalidDateTimeFix(context)}`;
	}
}

/**
 * For `DateTime.fromFormat(input, format)` that gave an invalid DateTime: what its input is, and
 * how the node reads it (as it is, or with the format that reads it). Evaluates the input again.
 */
function invalidDateTimeFix(context: CheckContext): string {
	const generic =
		': check the format against the value; the node reads date text such as 11/20/2026, 20.11.2026 and Nov 20, 2026 as it is, without a conversion';
	const input = FROM_FORMAT_CALL.exec(context.source() ?? '')?.groups?.input;
	if (input === undefined || !context.evaluate) return generic;
	let given: unknown;
	try {
		given = context.evaluate(`{{ ${input} }}`);
	} catch {
		return generic;
	}
	const read = readDate(given, {
		zone: context.timeZone,
		dateOrder: context.dateOrder,
		withFormat: true,
	});
	const wasGiven = `: it was given ${describeValue(given)}`;
	if (read.ok) {
		const format = read.format
			? `, or use the format that reads it: ${OFFERED_FIXES.fromFormat(dateText(given, asOperand(input)), read.format)}`
			: '';
		return `${wasGiven}, which the node reads as it is (${shownDate(read.value)}): give {{ ${input} }}${format}`;
	}
	if (read.refusal.reason === 'invalid' || read.refusal.reason === 'invalidDateTime')
		return `${wasGiven}, ${generic.slice(2)}`;
	const problem = dateProblem(read.refusal, given, { ...context, source: () => input });
	return `${wasGiven}, which ${problem.replace(`, got ${describeValue(given)}`, '')}`;
}
