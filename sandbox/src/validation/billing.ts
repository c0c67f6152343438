/** Body validation of PUT /api/v1/subscriptions/{record}/billing. */
import {
	BILLING_FREQUENCIES,
	checkUnknown,
	Collector,
	eventFields,
	has,
	integerInRange,
	LICENSE_MAX,
	LICENSE_MIN,
	money,
	type EventFields,
	type Validated,
} from './fields';

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
		[
			'event_date',
			'description',
			'price_model',
			'cost',
			'billing_frequency',
			'license_count',
			'billing_type',
		],
		c,
	);
	const event = eventFields(body, now, c);

	let priceModel: 'lump_sum' | 'per_license' | undefined;
	if (!has(body, 'price_model') || body.price_model === null)
		c.add('price_model', 'The price_model field is required.');
	else if (body.price_model !== 'lump_sum' && body.price_model !== 'per_license') {
		c.add('price_model', 'The price_model field must be one of: lump_sum, per_license.');
	} else priceModel = body.price_model;

	let cost: number | null | undefined;
	if (!has(body, 'cost')) c.add('cost', 'The cost field is required.');
	else cost = money(body, 'cost', false, c);

	let frequency: string | undefined;
	if (!has(body, 'billing_frequency') || body.billing_frequency === null) {
		c.add('billing_frequency', 'The billing_frequency field is required.');
	} else if (
		typeof body.billing_frequency !== 'string' ||
		!(BILLING_FREQUENCIES as readonly string[]).includes(body.billing_frequency)
	) {
		c.add(
			'billing_frequency',
			`The billing_frequency field must be one of: ${BILLING_FREQUENCIES.join(', ')}.`,
		);
	} else frequency = body.billing_frequency;

	const licenseCount = integerInRange(body, 'license_count', LICENSE_MIN, LICENSE_MAX, c);
	if (
		priceModel === 'per_license' &&
		(licenseCount === null || (licenseCount === undefined && !c.errors.license_count))
	) {
		c.add('license_count', 'The license_count field is required when price_model is per_license.');
	}

	if (
		!c.ok ||
		!event ||
		priceModel === undefined ||
		cost === undefined ||
		cost === null ||
		frequency === undefined
	) {
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
