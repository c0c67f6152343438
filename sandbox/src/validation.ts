/**
 * Body validation of the three operations, straight from the contract's field tables and limits.
 * Type-strict: only fields the contract types as "or null" accept null; unknown fields are refused.
 */
import type { SeedCustomField, SeedEventType } from './types';

export type FieldErrors = Record<string, string[]>;

export const MAX_MONEY = 999_999_999.99;
const NAME_MAX = 255;
const TEXT_MAX = 10_000;
const LICENSE_MIN = 1;
const LICENSE_MAX = 100_000_000;
const PAYMENTS_MIN = 1;
const PAYMENTS_MAX = 1_000_000;

export const RECURRING_FREQUENCIES = ['monthly', 'Quarterly', 'yearly'] as const;
export const BILLING_FREQUENCIES = [...RECURRING_FREQUENCIES, 'upfront'] as const;

export type Validated<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

class Collector {
	readonly errors: FieldErrors = {};
	add(field: string, message: string): void {
		(this.errors[field] ??= []).push(message);
	}
	get ok(): boolean {
		return Object.keys(this.errors).length === 0;
	}
}

function has(body: Record<string, unknown>, key: string): boolean {
	return Object.prototype.hasOwnProperty.call(body, key);
}

/** Length in Unicode code points (characters as a user counts them, not UTF-16 units). */
export function charLength(s: string): number {
	let n = 0;
	for (const _ of s) n++;
	return n;
}

function checkUnknown(body: Record<string, unknown>, allowed: readonly string[], c: Collector): void {
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

function optionalText(
	body: Record<string, unknown>,
	key: string,
	max: number,
	c: Collector,
): string | null | undefined {
	const v = nullable(body, key, isString, 'a string', c);
	if (typeof v === 'string' && charLength(v) > max) c.add(key, `The ${key} field may not be greater than ${max} characters.`);
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

function money(body: Record<string, unknown>, key: string, nullable: boolean, c: Collector): number | null | undefined {
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

function integerInRange(
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
export function parseEventDate(s: string): { ok: true; time: number } | { ok: false; message: string } {
	const m = EVENT_DATE_RE.exec(s);
	const shape = 'The event_date field must have the shape YYYY-MM-DDThh:mm:ss±hh:mm (seconds and an explicit offset).';
	if (!m) return { ok: false, message: shape };
	const [, date, hh, mm, ss, sign, oh, om] = m;
	if (!isCalendarDate(date) || Number(hh) > 23 || Number(mm) > 59 || Number(ss) > 59) {
		return { ok: false, message: 'The event_date field is not a valid date and time.' };
	}
	if (Number(oh) > 14 || Number(om) > 59) return { ok: false, message: 'The event_date field has an invalid offset.' };
	const [y, mo, d] = date.split('-').map(Number);
	const offsetMin = (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
	const time = Date.UTC(y, mo - 1, d, Number(hh), Number(mm), Number(ss)) - offsetMin * 60_000;
	return { ok: true, time };
}

/**
 * event_date: optional string. Future (at whole-second resolution) is 422; the 409 check against the
 * newest state change happens later, in the operation.
 */
function eventDate(body: Record<string, unknown>, now: Date, c: Collector): { time: number; raw: string | null } | undefined {
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
function eventFields(body: Record<string, unknown>, now: Date, c: Collector): EventFields | undefined {
	const date = eventDate(body, now, c);
	const description = optionalText(body, 'description', TEXT_MAX, c);
	return date && { eventTime: date.time, eventDateRaw: date.raw, description: description ?? null };
}

// ---------------------------------------------------------------------------------------------
// POST /api/v1/assets/{record}/todos
// ---------------------------------------------------------------------------------------------

export interface TodoInput {
	name: string;
	notes: string | null;
	due_date: string | null;
	assigned_to: number | null;
	is_complete: boolean;
}

export function validateTodo(
	body: Record<string, unknown>,
	org: { userIds: Set<number>; personIds: Set<number> },
): Validated<TodoInput> {
	const c = new Collector();
	checkUnknown(body, ['name', 'notes', 'due_date', 'assigned_to', 'is_complete'], c);

	let name = '';
	if (!has(body, 'name') || body.name === null) c.add('name', 'The name field is required.');
	else if (typeof body.name !== 'string') c.add('name', 'The name field must be a string.');
	else if (body.name.trim() === '') c.add('name', 'The name field may not be empty.');
	else if (charLength(body.name) > NAME_MAX) c.add('name', `The name field may not be greater than ${NAME_MAX} characters.`);
	else name = body.name;

	const notes = optionalText(body, 'notes', TEXT_MAX, c);

	let dueDate: string | null = null;
	if (has(body, 'due_date') && body.due_date !== null) {
		if (typeof body.due_date !== 'string' || !isCalendarDate(body.due_date)) {
			c.add('due_date', 'The due_date field must be a date in the format YYYY-MM-DD, or null.');
		} else dueDate = body.due_date;
	}

	let assignedTo: number | null = null;
	if (has(body, 'assigned_to') && body.assigned_to !== null) {
		const v = body.assigned_to;
		if (typeof v !== 'number' || !Number.isInteger(v)) {
			c.add('assigned_to', 'The assigned_to field must be an integer (organization user ID) or null.');
		} else if (org.personIds.has(v)) {
			c.add(
				'assigned_to',
				`The assigned_to field must be an organization user ID; ${v} is an inventory person ID, and to-dos cannot be assigned to inventory people.`,
			);
		} else if (!org.userIds.has(v)) {
			c.add('assigned_to', `The selected assigned_to (${v}) is not a user of this organization.`);
		} else assignedTo = v;
	}

	let isComplete = false;
	if (has(body, 'is_complete')) {
		if (typeof body.is_complete !== 'boolean') c.add('is_complete', 'The is_complete field must be true or false.');
		else isComplete = body.is_complete;
	}

	if (!c.ok) return { ok: false, errors: c.errors };
	return { ok: true, value: { name, notes: notes ?? null, due_date: dueDate, assigned_to: assignedTo, is_complete: isComplete } };
}

// ---------------------------------------------------------------------------------------------
// PUT /api/v1/subscriptions/{record}/billing
// ---------------------------------------------------------------------------------------------

export interface BillingInput extends EventFields {
	price_model: 'lump_sum' | 'per_license';
	costCents: number;
	billing_frequency: string;
	license_count: number | null;
}

export function validateBilling(body: Record<string, unknown>, now: Date): Validated<BillingInput> {
	const c = new Collector();
	if (has(body, 'billing_type')) c.add('billing_type', 'The billing type cannot be changed.');
	checkUnknown(
		body,
		['event_date', 'description', 'price_model', 'cost', 'billing_frequency', 'license_count', 'billing_type'],
		c,
	);
	const event = eventFields(body, now, c);

	let priceModel: 'lump_sum' | 'per_license' | undefined;
	if (!has(body, 'price_model') || body.price_model === null) c.add('price_model', 'The price_model field is required.');
	else if (body.price_model !== 'lump_sum' && body.price_model !== 'per_license') {
		c.add('price_model', 'The price_model field must be one of: lump_sum, per_license.');
	} else priceModel = body.price_model;

	let cost: number | null | undefined;
	if (!has(body, 'cost')) c.add('cost', 'The cost field is required.');
	else cost = money(body, 'cost', false, c);

	let frequency: string | undefined;
	if (!has(body, 'billing_frequency') || body.billing_frequency === null) {
		c.add('billing_frequency', 'The billing_frequency field is required.');
	} else if (typeof body.billing_frequency !== 'string' || !(BILLING_FREQUENCIES as readonly string[]).includes(body.billing_frequency)) {
		c.add('billing_frequency', `The billing_frequency field must be one of: ${BILLING_FREQUENCIES.join(', ')}.`);
	} else frequency = body.billing_frequency;

	const licenseCount = integerInRange(body, 'license_count', LICENSE_MIN, LICENSE_MAX, c);
	if (priceModel === 'per_license' && (licenseCount === null || (licenseCount === undefined && !c.errors.license_count))) {
		c.add('license_count', 'The license_count field is required when price_model is per_license.');
	}

	if (!c.ok || !event || priceModel === undefined || cost === undefined || cost === null || frequency === undefined) {
		return { ok: false, errors: c.errors };
	}
	return {
		ok: true,
		value: {
			...event,
			price_model: priceModel,
			costCents: cost,
			billing_frequency: frequency,
			license_count: licenseCount ?? null,
		},
	};
}

// ---------------------------------------------------------------------------------------------
// POST /api/v1/assets/{record}/acquisitions
// ---------------------------------------------------------------------------------------------

export interface AcquisitionInput extends EventFields {
	eventType: SeedEventType;
	field_values: Record<string, unknown>;
	acquired_from: string | null;
	priceCents: number | null;
	costCents: number | null;
	salvageCents: number | null;
	financeCents: number | null;
	paymentCents: number | null;
	billing_frequency: string | null;
	number_of_payments: number | null;
}

function checkFieldValue(field: SeedCustomField, value: unknown, c: Collector): void {
	const key = `field_values.${field.id}`;
	const allowed = (field.options ?? []).map((o) => o.id);
	switch (field.datatype) {
		case 'text':
			if (typeof value !== 'string') c.add(key, `${field.name} must be a string.`);
			else if (charLength(value) > NAME_MAX) c.add(key, `${field.name} may not be greater than ${NAME_MAX} characters.`);
			else if (field.required && value.trim() === '') c.add(key, `${field.name} is required.`);
			return;
		case 'number':
			if (typeof value !== 'number' || !Number.isFinite(value)) c.add(key, `${field.name} must be a number.`);
			return;
		case 'date':
			if (typeof value !== 'string' || !isCalendarDate(value)) c.add(key, `${field.name} must be a date in the format YYYY-MM-DD.`);
			return;
		case 'checkbox':
			if (typeof value !== 'boolean') c.add(key, `${field.name} must be true or false.`);
			return;
		case 'select':
			if (typeof value !== 'number' || !Number.isInteger(value)) c.add(key, `${field.name} must be an option ID (integer).`);
			else if (!allowed.includes(value)) c.add(key, `${field.name}: ${value} is not an allowed option ID (allowed: ${allowed.join(', ')}).`);
			return;
		case 'multi_select':
			if (!Array.isArray(value) || value.some((x) => typeof x !== 'number' || !Number.isInteger(x))) {
				c.add(key, `${field.name} must be an array of option IDs (integers).`);
			} else {
				const bad = value.filter((x) => !allowed.includes(x as number));
				if (bad.length > 0) c.add(key, `${field.name}: ${bad.join(', ')} not allowed (allowed: ${allowed.join(', ')}).`);
				else if (new Set(value).size !== value.length) c.add(key, `${field.name} may not repeat an option ID.`);
				else if (field.required && value.length === 0) c.add(key, `${field.name} is required.`);
			}
			return;
	}
}

export function validateAcquisition(
	body: Record<string, unknown>,
	now: Date,
	eventTypes: Map<number, SeedEventType>,
): Validated<AcquisitionInput> {
	const c = new Collector();
	checkUnknown(
		body,
		[
			'event_date',
			'description',
			'event_type_id',
			'field_values',
			'acquired_from',
			'price',
			'cost',
			'salvage_value',
			'finance_amount',
			'payment',
			'billing_frequency',
			'number_of_payments',
		],
		c,
	);
	const event = eventFields(body, now, c);
	const acquiredFrom = optionalText(body, 'acquired_from', NAME_MAX, c);

	let eventType: SeedEventType | undefined;
	if (!has(body, 'event_type_id') || body.event_type_id === null) c.add('event_type_id', 'The event_type_id field is required.');
	else if (typeof body.event_type_id !== 'number' || !Number.isInteger(body.event_type_id)) {
		c.add('event_type_id', 'The event_type_id field must be an integer.');
	} else {
		const t = eventTypes.get(body.event_type_id);
		if (!t) c.add('event_type_id', `The selected event_type_id (${body.event_type_id}) does not exist in this organization.`);
		else if (!t.acquisition) c.add('event_type_id', `Event type ${t.id} (${t.name}) is not an acquisition event type.`);
		else eventType = t;
	}

	// field_values
	let fieldValues: Record<string, unknown> = {};
	if (has(body, 'field_values')) {
		const v = body.field_values;
		if (typeof v !== 'object' || v === null || Array.isArray(v)) c.add('field_values', 'The field_values field must be an object keyed by field ID.');
		else fieldValues = v as Record<string, unknown>;
	}
	if (eventType) {
		const fields = new Map((eventType.fields ?? []).map((f) => [String(f.id), f]));
		for (const [key, value] of Object.entries(fieldValues)) {
			const field = fields.get(key);
			if (!field) {
				c.add(`field_values.${key}`, `Field ${key} is not a field of event type ${eventType.id} (${eventType.name}).`);
				continue;
			}
			if (value === null) {
				if (field.required) c.add(`field_values.${key}`, `${field.name} is required.`);
				continue;
			}
			checkFieldValue(field, value, c);
		}
		for (const field of fields.values()) {
			if (field.required && !has(fieldValues, String(field.id))) {
				c.add(`field_values.${field.id}`, `${field.name} is required for event type ${eventType.id} (${eventType.name}).`);
			}
		}
	}

	const price = money(body, 'price', true, c);
	const cost = money(body, 'cost', true, c);
	const salvage = money(body, 'salvage_value', true, c);
	const finance = money(body, 'finance_amount', true, c);
	const payment = money(body, 'payment', true, c);

	let frequency: string | null = null;
	if (has(body, 'billing_frequency') && body.billing_frequency !== null) {
		const f = body.billing_frequency;
		if (typeof f !== 'string' || !(RECURRING_FREQUENCIES as readonly string[]).includes(f)) {
			c.add('billing_frequency', `The billing_frequency field must be one of: ${RECURRING_FREQUENCIES.join(', ')}, or null.`);
		} else frequency = f;
	}
	const numberOfPayments = integerInRange(body, 'number_of_payments', PAYMENTS_MIN, PAYMENTS_MAX, c);

	const paymentPresent = has(body, 'payment') && body.payment !== null;
	if (paymentPresent && (!has(body, 'billing_frequency') || body.billing_frequency === null)) {
		c.add('billing_frequency', 'The billing_frequency field is required when payment is present.');
	}
	if (eventType) {
		const present = (k: string) => has(body, k) && body[k] !== null;
		if (!eventType.enables_finance && present('finance_amount')) {
			c.add('finance_amount', `Event type ${eventType.id} (${eventType.name}) does not enable finance fields.`);
		}
		if (!eventType.enables_payments) {
			for (const k of ['payment', 'billing_frequency', 'number_of_payments']) {
				if (present(k)) c.add(k, `Event type ${eventType.id} (${eventType.name}) does not support payments.`);
			}
		}
	}

	if (!c.ok || !event || !eventType) return { ok: false, errors: c.errors };
	return {
		ok: true,
		value: {
			...event,
			eventType,
			field_values: fieldValues,
			acquired_from: acquiredFrom ?? null,
			// "Defaults to cost when omitted": an explicit null stays null.
			priceCents: price === undefined ? (cost ?? null) : price,
			costCents: cost ?? null,
			salvageCents: salvage ?? null,
			financeCents: finance ?? null,
			paymentCents: payment ?? null,
			billing_frequency: frequency,
			number_of_payments: numberOfPayments ?? null,
		},
	};
}
