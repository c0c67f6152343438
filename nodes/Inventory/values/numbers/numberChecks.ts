import type { CheckContext, Fail } from '../checkContext';
import { asOperand, OFFERED_FIXES } from '../fixExpressions';
import { readNumberText } from './numberText';
import { describeValue, grouped } from '../shownText';

/** The largest amount the API takes (a price, a cost, a payment). */
export const MAX_AMOUNT = 999_999_999.99;

/**
 * Floating-point noise: a computed number is read to this many significant digits, what a double
 * holds exactly, so `0.1 + 0.2` (0.30000000000000004) is 0.3 and `12.5 * 1.1` (13.750000000000002)
 * is 13.75, while a real third decimal (899.99 * 1.2 = 1079.988) stays a third decimal.
 */
export const SIGNIFICANT_DIGITS = 15;

/** A number read from a value, how a message shows the value, and the expression that gives the number. */
interface NumberRead {
	value: number;
	shown: string;
	/** The JavaScript expression giving this number from the value's expression (built when asked). */
	readonly expression: string;
	/** Plain text like `1.249`, which a sheet may mean as 1249 (the point separating thousands). */
	pointThousands?: { value: number; expression: string };
}

/** Plain text `1.249`: at most three digits, a point, three digits (also with a currency sign). */
const POINT_THOUSANDS = /^-?[1-9]\d{0,2}\.\d{3}$/;

/** What the value shows in a message: the number, or the text when it is written otherwise. */
const shownNumber = (value: unknown, number: number) =>
	typeof value === 'string' && value.trim() !== String(number)
		? describeValue(value)
		: String(number);

/**
 * The number a field's value gives, from a number or from text (numberText.ts). `field` decides
 * what has two readings: an amount (at most two decimals) and a count (whole) read `1,249` as 1249,
 * a number refuses it.
 */
export function readFieldNumber(
	value: unknown,
	field: 'amount' | 'integer' | 'number',
	context: CheckContext,
	fail: Fail,
): NumberRead {
	const source = () => asOperand(context.source() ?? OFFERED_FIXES.placeholder.number);
	if (typeof value === 'number' && Number.isFinite(value))
		return {
			value,
			shown: String(value),
			get expression() {
				return source();
			},
		};
	if (typeof value !== 'string') return fail(`must be a number, got ${describeValue(value)}`);
	const text = readNumberText(value, { currency: field === 'amount' });
	if (text.ok) {
		const read: NumberRead = {
			value: text.value,
			shown: shownNumber(value, text.value),
			get expression() {
				return OFFERED_FIXES.number(source(), text.spelling);
			},
		};
		if (text.plain !== undefined && POINT_THOUSANDS.test(text.plain))
			read.pointThousands = {
				value: Number(text.plain.replace('.', '')),
				get expression() {
					return OFFERED_FIXES.number(source(), { ...text.spelling, thousands: '.' });
				},
			};
		return read;
	}
	if (text.twoReadings) {
		const { thousands, decimal } = text.twoReadings;
		// Three decimals are not an amount, nor a count: the comma separates thousands.
		if (field !== 'number')
			return {
				value: thousands,
				shown: describeValue(value),
				get expression() {
					return OFFERED_FIXES.number(source(), { ...text.spelling, thousands: ',' });
				},
			};
		return fail(
			`can be read two ways, got ${describeValue(value)}: ${thousands} (a comma separating thousands) or ${decimal} (a decimal comma). ` +
				`Write it without the comma or with a decimal point, or convert it in the expression: ` +
				`{{ ${OFFERED_FIXES.number(source(), { ...text.spelling, thousands: ',' })} }} gives ${thousands}, ` +
				`{{ ${OFFERED_FIXES.number(source(), { ...text.spelling, decimal: ',' })} }} gives ${decimal}`,
		);
	}
	return fail(`must be a number, got ${describeValue(value)}`);
}

/** The fix for `1.249` meant as 1249, when the value is such text. */
const pointThousandsFix = ({ pointThousands }: NumberRead) =>
	pointThousands
		? `; if the point separates thousands, {{ ${pointThousands.expression} }} gives ${pointThousands.value}`
		: '';

/** The number without floating-point noise (see SIGNIFICANT_DIGITS). */
function withoutNoise(value: number): number {
	return Number(value.toPrecision(SIGNIFICANT_DIGITS));
}

/** Whether the number is a whole number of cents (the double nearest to one: 1499.99, 12.5, 3). */
const isCents = (value: number) => Math.round(value * 100) / 100 === value;

/** `1.250` in an amount or a count: the number as written, or the point separating thousands. */
function twoReadingsWithPoint(read: NumberRead, asWritten: number): string {
	const thousands = read.pointThousands?.value;
	return `can be read two ways, got ${read.shown}: ${asWritten} or ${thousands} (a point separating thousands). Write it as ${asWritten} or ${thousands}, or convert it in the expression: {{ ${read.expression} }} gives ${asWritten}, {{ ${read.pointThousands?.expression} }} gives ${thousands}`;
}

export function checkAmount(value: unknown, context: CheckContext, fail: Fail): number {
	const read = readFieldNumber(value, 'amount', context, fail);
	const given = read.value;
	// Most amounts are cents already; only the others are read without their noise.
	const amount = isCents(given) ? given : withoutNoise(given);
	if (amount < 0 || amount > MAX_AMOUNT)
		fail(`must be between 0 and ${grouped(MAX_AMOUNT)}, got ${read.shown}`);
	if (!isCents(amount))
		fail(
			`must have at most two decimal places, got ${read.shown}: round it in the expression, e.g. ${OFFERED_FIXES.round(read.expression)} (gives ${Math.round(given * 100) / 100})${pointThousandsFix(read)}`,
		);
	// `1.250`: 1.25, or 1250 as a sheet that separates thousands with a point writes it (typed into
	// Cost by hand too). An amount of cents has no third decimal to tell which.
	if (read.pointThousands) fail(twoReadingsWithPoint(read, amount));
	return amount;
}

export function checkInteger(
	value: unknown,
	min: number,
	max: number,
	context: CheckContext,
	fail: Fail,
): number {
	const read = readFieldNumber(value, 'integer', context, fail);
	const given = read.value;
	const count = Number.isInteger(given) ? given : withoutNoise(given);
	if (!Number.isInteger(count))
		fail(`must be a whole number, got ${read.shown}${pointThousandsFix(read).replace(/^;/, ':')}`);
	// `12.000`: 12, or 12000 as a sheet that separates thousands with a point writes it.
	if (read.pointThousands) fail(twoReadingsWithPoint(read, count));
	if (count < min || count > max)
		fail(`must be between ${grouped(min)} and ${grouped(max)}, got ${count}`);
	return count;
}
