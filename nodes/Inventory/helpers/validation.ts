import { formatDate, formatTimestamp, parseDateInput } from './dates';

export const MAX_AMOUNT = 999_999_999.99;

/** What a field's value must be; the form property of the field is built from the same check. */
export type Check =
	| { kind: 'text'; maxLength: number }
	| { kind: 'amount' }
	| { kind: 'integer'; min: number; max: number }
	| { kind: 'boolean' }
	| { kind: 'options'; values: readonly string[] }
	/** A calendar day, sent as `YYYY-MM-DD`. */
	| { kind: 'date' }
	/** An instant not in the future, sent as `YYYY-MM-DDThh:mm:ss±hh:mm`. */
	| { kind: 'timestamp' }
	/** A numeric record ID of the organization (asset, subscription, user, event type, custom field). */
	| { kind: 'recordId' };

export const RECORD_ID: Check = { kind: 'recordId' };

export type RequestValue = string | number | boolean;

/** Ends the item with this problem of the field being checked, e.g. `must be a number, got "x"`. */
export type Fail = (problem: string) => never;

/** Nothing given: undefined, null, or text that is empty or only white space. */
export function isEmptyValue(value: unknown): boolean {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}

function describeValue(value: unknown): string {
	if (typeof value === 'string') {
		const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
		return `"${shown}"${value.length > 40 ? ` (${value.length} characters)` : ''}`;
	}
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return 'an object';
	return String(value);
}

const grouped = (count: number) => count.toLocaleString('en-US');

const NUMBER_TEXT = /^-?\d+(\.\d+)?$/;

function toNumber(value: unknown, fail: Fail): number {
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	if (typeof value === 'string' && NUMBER_TEXT.test(value.trim())) return Number(value.trim());
	return fail(`must be a number, got ${describeValue(value)}`);
}

function checkText(value: unknown, maxLength: number, fail: Fail): string {
	if (typeof value !== 'string' && typeof value !== 'number')
		fail(`must be text, got ${describeValue(value)}`);
	const text = String(value);
	const length = [...text].length;
	if (length > maxLength)
		fail(`must be at most ${grouped(maxLength)} characters, got ${grouped(length)}`);
	return text;
}

function checkAmount(value: unknown, fail: Fail): number {
	const amount = toNumber(value, fail);
	if (amount < 0 || amount > MAX_AMOUNT)
		fail(`must be between 0 and 999,999,999.99, got ${amount}`);
	if (!/^\d+(\.\d{1,2})?$/.test(String(amount)))
		fail(`must have at most two decimal places, got ${amount}`);
	return amount;
}

function checkInteger(value: unknown, min: number, max: number, fail: Fail): number {
	const count = toNumber(value, fail);
	if (!Number.isInteger(count)) fail(`must be a whole number, got ${count}`);
	if (count < min || count > max)
		fail(`must be between ${grouped(min)} and ${grouped(max)}, got ${count}`);
	return count;
}

function checkBoolean(value: unknown, fail: Fail): boolean {
	if (typeof value === 'boolean') return value;
	if (value === 'true' || value === 'false') return value === 'true';
	return fail(`must be true or false, got ${describeValue(value)}`);
}

function checkOption(value: unknown, values: readonly string[], fail: Fail): string {
	if (typeof value === 'string' && values.includes(value)) return value;
	return fail(
		`must be one of ${values.join(', ')} (spelled exactly so), got ${describeValue(value)}`,
	);
}

function checkDate(
	value: unknown,
	kind: 'date' | 'timestamp',
	timeZone: string,
	fail: Fail,
): string {
	const parsed = parseDateInput(value, timeZone);
	if (!parsed.ok) {
		return fail(
			`must be a date (pick one, or give an ISO 8601 value such as 2026-03-31 or 2026-03-31T14:00:00+02:00), got ${describeValue(value)}`,
		);
	}
	if (kind === 'date') return formatDate(parsed.value);
	if (parsed.value.toMillis() > Date.now())
		fail(`must not be in the future, got ${formatTimestamp(parsed.value)}`);
	return formatTimestamp(parsed.value);
}

function checkRecordId(value: unknown, fail: Fail): number {
	let id: number | undefined;
	if (typeof value === 'number') id = value;
	else if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) id = Number(value);
	if (id === undefined || !Number.isSafeInteger(id) || id < 1) {
		return fail(`must be a numeric ID (a whole number of 1 or more), got ${describeValue(value)}`);
	}
	return id;
}

/**
 * Checks a given (non-empty) value; returns what goes into the request: numbers as numbers, dates in
 * the API's shape, in the workflow's time zone.
 */
export function checkValue(
	check: Check,
	value: unknown,
	timeZone: string,
	fail: Fail,
): RequestValue {
	switch (check.kind) {
		case 'text':
			return checkText(value, check.maxLength, fail);
		case 'amount':
			return checkAmount(value, fail);
		case 'integer':
			return checkInteger(value, check.min, check.max, fail);
		case 'boolean':
			return checkBoolean(value, fail);
		case 'options':
			return checkOption(value, check.values, fail);
		case 'date':
		case 'timestamp':
			return checkDate(value, check.kind, timeZone, fail);
		case 'recordId':
			return checkRecordId(value, fail);
	}
}
