/**
 * The field checks that the body validation of the three operations (todo.ts, billing.ts,
 * acquisition.ts) is made of, straight from the contract's field
 * tables and limits. Type-strict: only fields the contract types as "or null" accept null; unknown
 * fields are refused.
 */
export type FieldErrors = Record<string, string[]>;

export const MAX_MONEY = 999_999_999.99;
export const NAME_MAX = 255;
export const TEXT_MAX = 10_000;
export const LICENSE_MIN = 1;
export const LICENSE_MAX = 100_000_000;
export const PAYMENTS_MIN = 1;
export const PAYMENTS_MAX = 1_000_000;

export const RECURRING_FREQUENCIES = ['monthly', 'Quarterly', 'yearly'] as const;
export const BILLING_FREQUENCIES = [...RECURRING_FREQUENCIES, 'upfront'] as const;

export type Validated<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

export class Collector {
	readonly errors: FieldErrors = {};
	add(field: string, message: string): void {
		(this.errors[field] ??= []).push(message);
	}
	get ok(): boolean {
		return Object.keys(this.errors).length === 0;
	}
}

export function has(body: Record<string, unknown>, key: string): boolean {
	return Object.prototype.hasOwnProperty.call(body, key);
}

/** Length in Unicode code points (characters as a user counts them, not UTF-16 units). */
export function charLength(s: string): number {
	return Array.from(s).length;
}

export function checkUnknown(
	body: Record<string, unknown>,
	allowed: readonly string[],
	c: Collector,
): void {
	for (const key of Object.keys(body)) {
		if (!allowed.includes(key)) c.add(key, `The ${key} field is not accepted by this operation.`);
	}
}

/**
 * A field the contract types as "… or null": undefined when absent, null when null, the value when it
 * has the type, else undefined with the error "must be <what> or null".
 */
function nullable<T>(
	body: Record<string, unknown>,
	key: string,
	is: (v: unknown) => v is T,
	what: string,
	c: Collector,
): T | null | undefined {
	if (!has(body, key)) return undefined;
	const v = body[key];
	if (v === null) return null;
	if (!is(v)) {
		c.add(key, `The ${key} field must be ${what} or null.`);
		return undefined;
	}
	return v;
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isInteger = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

export function optionalText(
	body: Record<string, unknown>,
	key: string,
	max: number,
	c: Collector,
): string | null | undefined {
	const v = nullable(body, key, isString, 'a string', c);
	if (typeof v === 'string' && charLength(v) > max)
		c.add(key, `The ${key} field may not be greater than ${max} characters.`);
	return v;
}

/** Rounds to cents (the sandbox's choice for inputs with more than two decimals). */
export function toCents(n: number): number {
	return Math.round(n * 100);
}

export function formatMoney(cents: number): string {
	const sign = cents < 0 ? '-' : '';
	const abs = Math.abs(cents);
	return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

export function money(
	body: Record<string, unknown>,
	key: string,
	nullable: boolean,
	c: Collector,
): number | null | undefined {
	if (!has(body, key)) return undefined;
	const v = body[key];
	if (v === null) {
		if (nullable) return null;
		c.add(key, `The ${key} field must be a number.`);
		return undefined;
	}
	if (typeof v !== 'number' || !Number.isFinite(v)) {
		c.add(key, `The ${key} field must be a number${nullable ? ' or null' : ''}.`);
		return undefined;
	}
	if (v < 0 || v > MAX_MONEY) {
		c.add(key, `The ${key} field must be between 0 and 999999999.99.`);
		return undefined;
	}
	return toCents(v);
}

export function integerInRange(
	body: Record<string, unknown>,
	key: string,
	min: number,
	max: number,
	c: Collector,
): number | null | undefined {
	const v = nullable(body, key, isInteger, 'an integer', c);
	if (typeof v === 'number' && (v < min || v > max)) {
		c.add(key, `The ${key} field must be between ${min} and ${max}.`);
		return undefined;
	}
	return v;
}

/** YYYY-MM-DD that is a real calendar date. */
export function isCalendarDate(s: string): boolean {
	const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
	if (!m) return false;
	const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
	if (mo < 1 || mo > 12 || d < 1) return false;
	const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
	return d <= days;
}

const EVENT_DATE_RE = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})([+-])(\d{2}):(\d{2})$/;

/**
 * Parses the contract's event_date shape YYYY-MM-DDThh:mm:ss±hh:mm. `Z`, fractional seconds and
 * other ISO 8601 variants are refused (sandbox choice: the contract asks for an explicit offset).
 */
export function parseEventDate(
	s: string,
): { ok: true; time: number } | { ok: false; message: string } {
	const m = EVENT_DATE_RE.exec(s);
	const shape =
		'The event_date field must have the shape YYYY-MM-DDThh:mm:ss±hh:mm (seconds and an explicit offset).';
	if (!m) return { ok: false, message: shape };
	const [, date, hh, mm, ss, sign, oh, om] = m;
	if (!isCalendarDate(date) || Number(hh) > 23 || Number(mm) > 59 || Number(ss) > 59) {
		return { ok: false, message: 'The event_date field is not a valid date and time.' };
	}
	if (Number(oh) > 14 || Number(om) > 59)
		return { ok: false, message: 'The event_date field has an invalid offset.' };
	const [y, mo, d] = date.split('-').map(Number);
	const offsetMin = (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
	const time = Date.UTC(y, mo - 1, d, Number(hh), Number(mm), Number(ss)) - offsetMin * 60_000;
	return { ok: true, time };
}

/**
 * event_date: optional string. Future (at whole-second resolution) is 422; the 409 check against the
 * newest state change happens later, in the operation.
 */
function eventDate(
	body: Record<string, unknown>,
	now: Date,
	c: Collector,
): { time: number; raw: string | null } | undefined {
	if (!has(body, 'event_date')) return { time: now.getTime(), raw: null };
	const v = body.event_date;
	if (typeof v !== 'string') {
		c.add('event_date', 'The event_date field must be a string.');
		return undefined;
	}
	const parsed = parseEventDate(v);
	if (!parsed.ok) {
		c.add('event_date', parsed.message);
		return undefined;
	}
	if (Math.floor(parsed.time / 1000) > Math.floor(now.getTime() / 1000)) {
		c.add('event_date', 'The event_date field may not be in the future.');
		return undefined;
	}
	return { time: parsed.time, raw: v };
}

/** What every event-creating operation reads: event_date (default now) and description. */
export interface EventFields {
	eventTime: number;
	eventDateRaw: string | null;
	description: string | null;
}

/** undefined when event_date is invalid (the error is collected; description is checked either way). */
export function eventFields(
	body: Record<string, unknown>,
	now: Date,
	c: Collector,
): EventFields | undefined {
	const date = eventDate(body, now, c);
	const description = optionalText(body, 'description', TEXT_MAX, c);
	return date && { eventTime: date.time, eventDateRaw: date.raw, description: description ?? null };
}
