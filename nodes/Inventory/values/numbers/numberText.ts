/**
 * Numbers written as text, as sheets and people write them. Text in JavaScript's plain form
 * (`1249`, `1079.99`, `1.500`: digits, at most one point) is read as JavaScript and n8n read it, as
 * before; other text by SHEET_NUMBER's rules. Which of two readings a field takes is the check's
 * business (values/checks.ts).
 */

/** Plain number text: optional minus, digits, optional point and decimals. */
export const NUMBER_TEXT = /^-?\d+(\.\d+)?$/;

/**
 * Currency signs an amount may carry, before or after it, with or without a space (`$10.00`,
 * `10,00 €`, `-£5`): dropped, as the API has no currency field (an amount is in the record's
 * currency). Only amounts take them.
 */
export const CURRENCY_SIGNS: readonly string[] = ['$', '€', '£'];

/**
 * An ISO 4217 currency code before or after an amount (`USD 1,249.00`, `1.249,00 EUR`): three capital
 * letters beside a number have one meaning, and are dropped as a sign is.
 */
export const CURRENCY_CODE = '[A-Z]{3}';

/**
 * How sheets write numbers: groups of three digits separated by one of `thousands`, and the last
 * separator a decimal one (`1,249.00`, `1.079,99`, `1 249,50` with a space or a non-breaking space,
 * `1'249.50`). A lone comma is a decimal comma (`12,5`) unless three digits follow it after at most
 * three digits (`1,249`): then it may be either, and the field decides.
 */
export const SHEET_NUMBER = {
	thousands: [',', '.', ' ', '\u00A0', '\u202F', '\u2009', "'", '\u2019'],
	decimal: [',', '.'],
	/** The first group: 1 to 3 digits, not starting with 0; every other group has 3. */
	firstGroup: /^[1-9]\d{0,2}$/,
} as const;

/** How a number text was read: what to remove or replace to get JavaScript's plain form. */
export interface NumberSpelling {
	currency?: string;
	thousands?: string;
	decimal?: string;
}

export type NumberText =
	/** `plain`: the text in JavaScript's plain form (`1.249`), without its currency sign, when it is one. */
	| { ok: true; value: number; plain?: string; spelling: NumberSpelling }
	/** `1,249`: 1249 with a thousands comma, or 1.249 with a decimal comma. */
	| { ok: false; twoReadings: { thousands: number; decimal: number }; spelling: NumberSpelling }
	| { ok: false; twoReadings?: undefined };

const NOT_A_NUMBER: NumberText = { ok: false };

const signs = CURRENCY_SIGNS.map((sign) => sign.replace(/[$]/g, '\\$&')).join('');
const CURRENCY = `[${signs}]|${CURRENCY_CODE}`;
const CURRENCY_BEFORE = new RegExp(`^(-?)\\s*(${CURRENCY})\\s*(-?\\d.*)$`);
const CURRENCY_AFTER = new RegExp(`^(.*\\d)\\s*(${CURRENCY})$`);

/** The text without its currency sign or code, and that; the text unchanged when it has none. */
function withoutCurrency(text: string): { rest: string; currency?: string } {
	const before = CURRENCY_BEFORE.exec(text);
	if (before) {
		const [, minus, currency, rest] = before;
		if (minus && rest.startsWith('-')) return { rest: text };
		return { rest: `${minus}${rest}`, currency };
	}
	const after = CURRENCY_AFTER.exec(text);
	if (after) return { rest: after[1], currency: after[2] };
	return { rest: text };
}

/** Reads number text; `currency`: whether a currency sign or code may be given (amounts). */
export function readNumberText(text: string, { currency }: { currency: boolean }): NumberText {
	const trimmed = text.trim();
	const given = currency ? withoutCurrency(trimmed) : { rest: trimmed };
	const spelling: NumberSpelling = given.currency ? { currency: given.currency } : {};
	const minus = given.rest.startsWith('-') ? '-' : '';
	const body = given.rest.slice(minus.length);
	if (body.startsWith('-')) return NOT_A_NUMBER;
	if (NUMBER_TEXT.test(body))
		return { ok: true, value: Number(minus + body), plain: minus + body, spelling };

	const groups = body.split(/\D/);
	const separators = body.match(/\D/g) ?? [];
	if (
		separators.length === 0 ||
		groups.some((group) => group === '') ||
		separators.some(
			(separator) => !(SHEET_NUMBER.thousands as readonly string[]).includes(separator),
		)
	)
		return NOT_A_NUMBER;
	const kinds = [...new Set(separators)];
	const read = (digits: string, thousands?: string, decimal?: string): NumberText => ({
		ok: true,
		value: Number(minus + digits),
		spelling: { ...spelling, thousands, decimal },
	});
	const grouped = (count: number) =>
		SHEET_NUMBER.firstGroup.test(groups[0]) &&
		groups.slice(1, count).every((group) => group.length === 3);

	if (kinds.length === 1 && separators.length === 1 && kinds[0] === ',') {
		// A lone comma (a lone point is plain text, above).
		const [whole, fraction] = groups;
		const decimal = read(`${whole}.${fraction}`, undefined, ',');
		if (fraction.length !== 3 || !grouped(2)) return decimal;
		return {
			ok: false,
			twoReadings: {
				thousands: Number(minus + whole + fraction),
				decimal: Number(`${minus}${whole}.${fraction}`),
			},
			spelling,
		};
	}
	if (kinds.length === 1)
		return grouped(groups.length) ? read(groups.join(''), kinds[0]) : NOT_A_NUMBER;
	const decimal = separators[separators.length - 1];
	const thousands = kinds.find((kind) => kind !== decimal) as string;
	if (
		kinds.length !== 2 ||
		!(SHEET_NUMBER.decimal as readonly string[]).includes(decimal) ||
		separators.slice(0, -1).some((separator) => separator !== thousands) ||
		!grouped(groups.length - 1)
	)
		return NOT_A_NUMBER;
	const whole = groups.slice(0, -1).join('');
	return read(`${whole}.${groups[groups.length - 1]}`, thousands, decimal);
}
