/** Body validation of POST /api/v1/assets/{record}/acquisitions. */
import type { SeedCustomField, SeedEventType } from '../types';
import {
	charLength,
	checkUnknown,
	Collector,
	eventFields,
	has,
	integerInRange,
	isCalendarDate,
	money,
	NAME_MAX,
	optionalText,
	PAYMENTS_MAX,
	PAYMENTS_MIN,
	RECURRING_FREQUENCIES,
	type EventFields,
	type Validated,
} from './fields';

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
			else if (charLength(value) > NAME_MAX)
				c.add(key, `${field.name} may not be greater than ${NAME_MAX} characters.`);
			else if (field.required && value.trim() === '') c.add(key, `${field.name} is required.`);
			return;
		case 'number':
			if (typeof value !== 'number' || !Number.isFinite(value))
				c.add(key, `${field.name} must be a number.`);
			return;
		case 'date':
			if (typeof value !== 'string' || !isCalendarDate(value))
				c.add(key, `${field.name} must be a date in the format YYYY-MM-DD.`);
			return;
		case 'checkbox':
			if (typeof value !== 'boolean') c.add(key, `${field.name} must be true or false.`);
			return;
		case 'select':
			if (typeof value !== 'number' || !Number.isInteger(value))
				c.add(key, `${field.name} must be an option ID (integer).`);
			else if (!allowed.includes(value))
				c.add(
					key,
					`${field.name}: ${value} is not an allowed option ID (allowed: ${allowed.join(', ')}).`,
				);
			return;
		case 'multi_select':
			if (
				!Array.isArray(value) ||
				value.some((x) => typeof x !== 'number' || !Number.isInteger(x))
			) {
				c.add(key, `${field.name} must be an array of option IDs (integers).`);
			} else {
				const bad = value.filter((x) => !allowed.includes(x as number));
				if (bad.length > 0)
					c.add(
						key,
						`${field.name}: ${bad.join(', ')} not allowed (allowed: ${allowed.join(', ')}).`,
					);
				else if (new Set(value).size !== value.length)
					c.add(key, `${field.name} may not repeat an option ID.`);
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
	if (!has(body, 'event_type_id') || body.event_type_id === null)
		c.add('event_type_id', 'The event_type_id field is required.');
	else if (typeof body.event_type_id !== 'number' || !Number.isInteger(body.event_type_id)) {
		c.add('event_type_id', 'The event_type_id field must be an integer.');
	} else {
		const t = eventTypes.get(body.event_type_id);
		if (!t)
			c.add(
				'event_type_id',
				`The selected event_type_id (${body.event_type_id}) does not exist in this organization.`,
			);
		else if (!t.acquisition)
			c.add('event_type_id', `Event type ${t.id} (${t.name}) is not an acquisition event type.`);
		else eventType = t;
	}

	// field_values
	let fieldValues: Record<string, unknown> = {};
	if (has(body, 'field_values')) {
		const v = body.field_values;
		if (typeof v !== 'object' || v === null || Array.isArray(v))
			c.add('field_values', 'The field_values field must be an object keyed by field ID.');
		else fieldValues = v as Record<string, unknown>;
	}
	if (eventType) {
		const fields = new Map((eventType.fields ?? []).map((f) => [String(f.id), f]));
		for (const [key, value] of Object.entries(fieldValues)) {
			const field = fields.get(key);
			if (!field) {
				c.add(
					`field_values.${key}`,
					`Field ${key} is not a field of event type ${eventType.id} (${eventType.name}).`,
				);
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
				c.add(
					`field_values.${field.id}`,
					`${field.name} is required for event type ${eventType.id} (${eventType.name}).`,
				);
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
			c.add(
				'billing_frequency',
				`The billing_frequency field must be one of: ${RECURRING_FREQUENCIES.join(', ')}, or null.`,
			);
		} else frequency = f;
	}
	const numberOfPayments = integerInRange(
		body,
		'number_of_payments',
		PAYMENTS_MIN,
		PAYMENTS_MAX,
		c,
	);

	const paymentPresent = has(body, 'payment') && body.payment !== null;
	if (paymentPresent && (!has(body, 'billing_frequency') || body.billing_frequency === null)) {
		c.add('billing_frequency', 'The billing_frequency field is required when payment is present.');
	}
	if (eventType) {
		const present = (k: string) => has(body, k) && body[k] !== null;
		if (!eventType.enables_finance && present('finance_amount')) {
			c.add(
				'finance_amount',
				`Event type ${eventType.id} (${eventType.name}) does not enable finance fields.`,
			);
		}
		if (!eventType.enables_payments) {
			for (const k of ['payment', 'billing_frequency', 'number_of_payments']) {
				if (present(k))
					c.add(k, `Event type ${eventType.id} (${eventType.name}) does not support payments.`);
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
