/**
 * The bad-input cases of bad-input.test.ts: for each field, a value the node accepts and one it
 * refuses before sending, with the message and parameter the refusal names; and the optional fields
 * of each operation, which an expression may leave empty.
 */
import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';

import {
	createTodoParameters,
	recordAcquisitionParameters,
	updateBillingParameters,
} from '../fixtures';

export type OperationName = 'createTodo' | 'updateBilling' | 'recordAcquisition';

/** The expression that gives the field under test each item's `v`. */
export const V = '={{ $json.v }}';
const long = (length: number) => 'x'.repeat(length);

// The shared builders, always with an Additional Fields collection (empty unless a case fills it).
export const todo = (fields: INodeParameters = {}, additionalFields: INodeParameters = {}) =>
	createTodoParameters(fields, additionalFields);
export const billing = (fields: INodeParameters = {}, additionalFields: INodeParameters = {}) =>
	updateBillingParameters(fields, additionalFields);
export const acquisition = (fields: INodeParameters = {}, additionalFields: INodeParameters = {}) =>
	recordAcquisitionParameters(fields, additionalFields);
/** A financed purchase: enables payments; its required custom field 403 is given. */
const financed = (additionalFields: INodeParameters): INodeParameters =>
	acquisition({ eventTypeId: '303' }, { fieldValuesJson: '{ "403": 4.5 }', ...additionalFields });

export interface Case {
	title: string;
	parameters: INode['parameters'];
	/** `$json.v` of item 0 (accepted) and item 1 (refused). */
	good: IDataObject[string];
	bad: IDataObject[string];
	message: string;
	parameter: string;
	apiField?: string;
}

/** The three ways an expression leaves a field empty. */
export const EMPTY_VALUES: ReadonlyArray<[string, null | string]> = [
	['null', null],
	['blank', ''],
	['white space', '  '],
];

/** One case per empty value of each field: the field's bad value is that empty value. */
function emptyValuesOf(fields: Array<Omit<Case, 'bad'>>): Case[] {
	return fields.flatMap((field) =>
		EMPTY_VALUES.map(([name, bad]) => ({ ...field, title: `${field.title} ${name}`, bad })),
	);
}

export const NUMERIC_ID = 'must be a numeric ID (a whole number of 1 or more), got';
const DATE =
	"must be a date such as 2026-11-20, 20.11.2026, 11/20/2026 or Nov 20, 2026, with an optional time such as 14:30 or 2:30 PM (in the workflow's time zone unless it has an offset), got";
/** How a number in a date field is read, as a refusal explains it. */
const DATE_NUMBERS =
	"a number is read as a spreadsheet's serial day number (10,000 to 99,999; 46346 is 2026-11-20), a Unix time in seconds (100,000,000 to 9,999,999,999) or in milliseconds (100,000,000,000 to 9,999,999,999,999)";
/** The refusal of a date whose day and month can be read either way, with the format that reads it day first. */
const twoReadings = (value: string, dayFirst: string, monthFirst: string, format: string) =>
	`can be read two ways, got "${value}": ${dayFirst} (day first) or ${monthFirst} (month first). Set Options → Date Order to your sheet's order (Day First or Month First: every row is then read that way), or convert it in the expression, e.g. {{ DateTime.fromFormat($json.v, '${format}') }} (day first)`;
/** The fix of a third decimal: the expression that rounds the value, and what it gives. */
const roundIt = (number: string, gives: number) =>
	`round it in the expression, e.g. {{ Math.round(${number} * 100) / 100 }} (gives ${gives})`;

export const cases: Case[] = [
	// ---- asset / createTodo --------------------------------------------------------------------
	{
		title: 'to-do: name of 256 characters',
		parameters: todo({ name: V }),
		good: long(255),
		bad: long(256),
		message: 'Name must be at most 255 characters, got 256',
		parameter: 'name',
		apiField: 'name',
	},
	{
		title: 'to-do: name of 300 emoji (counted as characters)',
		parameters: todo({ name: V }),
		good: '📦'.repeat(255),
		bad: '📦'.repeat(300),
		message: 'Name must be at most 255 characters, got 300',
		parameter: 'name',
		apiField: 'name',
	},
	{
		title: 'to-do: blank name',
		parameters: todo({ name: V }),
		good: 'Label',
		bad: '   ',
		message: 'Name is required',
		parameter: 'name',
		apiField: 'name',
	},
	{
		title: 'to-do: name from an expression yielding a list',
		parameters: todo({ name: V }),
		good: 'Label',
		bad: ['Label'],
		message: 'Name must be text, got a list',
		parameter: 'name',
		apiField: 'name',
	},
	{
		title: 'to-do: name from an expression yielding an object',
		parameters: todo({ name: V }),
		good: 'Label',
		bad: { text: 'Label' },
		message: 'Name must be text, got an object',
		parameter: 'name',
		apiField: 'name',
	},
	{
		title: 'to-do: name from an expression yielding null',
		parameters: todo({ name: V }),
		good: 'Label',
		bad: null,
		message: 'Name is required',
		parameter: 'name',
		apiField: 'name',
	},
	{
		title: 'to-do: non-numeric asset ID',
		parameters: todo({ assetId: V }),
		good: '1001',
		bad: 'A-1001',
		message: `Asset ID ${NUMERIC_ID} "A-1001"`,
		parameter: 'assetId',
	},
	{
		title: 'to-do: fractional asset ID',
		parameters: todo({ assetId: V }),
		good: 1001,
		bad: 1001.5,
		message: `Asset ID ${NUMERIC_ID} 1001.5`,
		parameter: 'assetId',
	},
	{
		title: 'to-do: asset ID 0',
		parameters: todo({ assetId: V }),
		good: 1001,
		bad: 0,
		message: `Asset ID ${NUMERIC_ID} 0`,
		parameter: 'assetId',
	},
	{
		title: 'to-do: negative asset ID',
		parameters: todo({ assetId: V }),
		good: '1001',
		bad: '-1001',
		message: `Asset ID ${NUMERIC_ID} "-1001"`,
		parameter: 'assetId',
	},
	{
		title: 'to-do: asset ID beyond safe integers',
		parameters: todo({ assetId: V }),
		good: '1001',
		bad: '90071992547409930',
		message: `Asset ID ${NUMERIC_ID} "90071992547409930"`,
		parameter: 'assetId',
	},
	{
		title: 'to-do: asset ID from an expression yielding true',
		parameters: todo({ assetId: V }),
		good: 1001,
		bad: true,
		message: `Asset ID ${NUMERIC_ID} true`,
		parameter: 'assetId',
	},
	{
		title: 'to-do: empty asset ID',
		parameters: todo({ assetId: V }),
		good: '1001',
		bad: '',
		message: 'Asset ID is required',
		parameter: 'assetId',
	},
	{
		title: 'to-do: notes of 10,001 characters',
		parameters: todo({}, { notes: V }),
		good: long(10_000),
		bad: long(10_001),
		message: 'Notes must be at most 10,000 characters, got 10,001',
		parameter: 'notes',
		apiField: 'notes',
	},
	{
		title: 'to-do: due date 04/03/2026 (day or month first?)',
		parameters: todo({}, { dueDate: V }),
		good: '31/03/2026',
		bad: '04/03/2026',
		message: `Due Date ${twoReadings('04/03/2026', '2026-03-04', '2026-04-03', 'd/M/yyyy')}`,
		parameter: 'dueDate',
		apiField: 'due_date',
	},
	{
		title: 'to-do: due date February 30',
		parameters: todo({}, { dueDate: V }),
		good: '2026-02-28',
		bad: '2026-02-30',
		message: `Due Date ${DATE} "2026-02-30"`,
		parameter: 'dueDate',
		apiField: 'due_date',
	},
	{
		title: 'to-do: due date as a number written as the date',
		parameters: todo({}, { dueDate: V }),
		good: 46112,
		bad: 20260331,
		message: `Due Date ${DATE} 20260331: ${DATE_NUMBERS}; as a date written in digits (year, month, day) it is 2026-03-31: {{ DateTime.fromFormat(String($json.v), 'yyyyMMdd') }}`,
		parameter: 'dueDate',
		apiField: 'due_date',
	},
	{
		title: 'to-do: non-numeric assignee',
		parameters: todo({}, { assignedTo: V }),
		good: '102',
		bad: 'bob',
		message: `Assigned To (User ID) ${NUMERIC_ID} "bob"`,
		parameter: 'assignedTo',
		apiField: 'assigned_to',
	},
	{
		title: 'to-do: fractional assignee',
		parameters: todo({}, { assignedTo: V }),
		good: 102,
		bad: 102.5,
		message: `Assigned To (User ID) ${NUMERIC_ID} 102.5`,
		parameter: 'assignedTo',
		apiField: 'assigned_to',
	},
	{
		title: 'to-do: is complete "maybe"',
		parameters: todo({}, { isComplete: V }),
		good: 'TRUE',
		bad: 'maybe',
		message: 'Is Complete must be true or false (or yes/no, 1/0), got "maybe"',
		parameter: 'isComplete',
		apiField: 'is_complete',
	},

	// ---- subscription / updateBilling ----------------------------------------------------------
	{
		title: 'billing: non-numeric subscription ID',
		parameters: billing({ subscriptionId: V }),
		good: '2001',
		bad: 'SUB-2001',
		message: `Subscription ID ${NUMERIC_ID} "SUB-2001"`,
		parameter: 'subscriptionId',
	},
	{
		title: 'billing: negative cost',
		parameters: billing({ cost: V }),
		good: 0,
		bad: -1,
		message: 'Cost must be between 0 and 999,999,999.99, got -1',
		parameter: 'cost',
		apiField: 'cost',
	},
	{
		title: 'billing: cost above the maximum',
		parameters: billing({ cost: V }),
		good: 999_999_999.99,
		bad: 1_000_000_000,
		message: 'Cost must be between 0 and 999,999,999.99, got 1000000000',
		parameter: 'cost',
		apiField: 'cost',
	},
	{
		title: 'billing: cost with three decimals',
		parameters: billing({ cost: V }),
		good: 0.1 + 0.2,
		bad: 10.005,
		message: `Cost must have at most two decimal places, got 10.005: ${roundIt('$json.v', 10.01)}`,
		parameter: 'cost',
		apiField: 'cost',
	},
	{
		title: 'billing: cost as words',
		parameters: billing({ cost: V }),
		good: '12.50',
		bad: 'twelve',
		message: 'Cost must be a number, got "twelve"',
		parameter: 'cost',
		apiField: 'cost',
	},
	{
		title: 'billing: cost with two currency codes',
		parameters: billing({ cost: V }),
		good: 'USD 12.50',
		bad: 'USD 12.50 EUR',
		message: 'Cost must be a number, got "USD 12.50 EUR"',
		parameter: 'cost',
		apiField: 'cost',
	},
	{
		title: 'billing: unknown price model',
		parameters: billing({ priceModel: V }),
		good: 'lump_sum',
		bad: 'per_seat',
		message:
			'Price Model must be one of Lump Sum, Per License (in any letter case), got "per_seat"',
		parameter: 'priceModel',
		apiField: 'price_model',
	},
	{
		title: 'billing: billing frequency "weekly"',
		parameters: billing({ billingFrequency: V }),
		good: 'quarterly',
		bad: 'weekly',
		message:
			'Billing Frequency must be one of Monthly, Quarterly, Upfront, Yearly (in any letter case), got "weekly"',
		parameter: 'billingFrequency',
		apiField: 'billing_frequency',
	},
	{
		title: 'billing: per license without a license count',
		parameters: billing({ priceModel: 'per_license', licenseCount: V }),
		good: 5,
		bad: '',
		message: 'License Count is required with the Per License price model',
		parameter: 'licenseCount',
		apiField: 'license_count',
	},
	{
		title: 'billing: license count 0',
		parameters: billing({ priceModel: 'per_license', licenseCount: V }),
		good: 1,
		bad: 0,
		message: 'License Count must be between 1 and 100,000,000, got 0',
		parameter: 'licenseCount',
		apiField: 'license_count',
	},
	{
		title: 'billing: fractional license count',
		parameters: billing({ priceModel: 'per_license', licenseCount: V }),
		good: 3,
		bad: 2.5,
		message: 'License Count must be a whole number, got 2.5',
		parameter: 'licenseCount',
		apiField: 'license_count',
	},
	{
		title: 'billing: license count above 100,000,000',
		parameters: billing({ priceModel: 'per_license', licenseCount: V }),
		good: 100_000_000,
		bad: 100_000_001,
		message: 'License Count must be between 1 and 100,000,000, got 100000001',
		parameter: 'licenseCount',
		apiField: 'license_count',
	},
	{
		title: 'billing: negative license count with lump sum',
		parameters: billing({}, { licenseCount: V }),
		good: 10,
		bad: -5,
		message: 'License Count must be between 1 and 100,000,000, got -5',
		parameter: 'licenseCount',
		apiField: 'license_count',
	},
	{
		title: 'billing: event date in the future',
		parameters: billing({}, { eventDate: V }),
		good: '2026-01-15T10:00:00+00:00',
		bad: '2999-01-01T00:00:00+00:00',
		message: 'Event Date must not be in the future, got 2998-12-31T19:00:00-05:00',
		parameter: 'eventDate',
		apiField: 'event_date',
	},
	{
		title: 'billing: event date as words',
		parameters: billing({}, { eventDate: V }),
		good: '2026-01-15',
		bad: 'yesterday',
		message: `Event Date ${DATE} "yesterday"`,
		parameter: 'eventDate',
		apiField: 'event_date',
	},
	{
		title: 'billing: event date with hour 25',
		parameters: billing({}, { eventDate: V }),
		good: '2026-01-15T10:00:00',
		bad: '2026-01-15T25:00:00',
		message: `Event Date ${DATE} "2026-01-15T25:00:00"`,
		parameter: 'eventDate',
		apiField: 'event_date',
	},
	{
		title: 'billing: event date as a number that is no serial day nor Unix time',
		parameters: billing({}, { eventDate: V }),
		good: 1768471200,
		bad: 5_000_000,
		message: `Event Date ${DATE} 5000000: ${DATE_NUMBERS}`,
		parameter: 'eventDate',
		apiField: 'event_date',
	},
	{
		title: 'billing: description of 10,001 characters',
		parameters: billing({}, { description: V }),
		good: long(10_000),
		bad: long(10_001),
		message: 'Description must be at most 10,000 characters, got 10,001',
		parameter: 'description',
		apiField: 'description',
	},

	// ---- asset / recordAcquisition -------------------------------------------------------------
	{
		title: 'acquisition: non-numeric event type',
		parameters: acquisition({ eventTypeId: V }),
		good: '301',
		bad: 'purchase',
		message: `Event Type ID ${NUMERIC_ID} "purchase"`,
		parameter: 'eventTypeId',
		apiField: 'event_type_id',
	},
	{
		title: 'acquisition: empty event type',
		parameters: acquisition({ eventTypeId: V }),
		good: '301',
		bad: '',
		message: 'Event Type ID is required',
		parameter: 'eventTypeId',
		apiField: 'event_type_id',
	},
	{
		title: 'acquisition: non-numeric asset ID',
		parameters: acquisition({ assetId: V }),
		good: '1001',
		bad: '1001a',
		message: `Asset ID ${NUMERIC_ID} "1001a"`,
		parameter: 'assetId',
	},
	{
		title: 'acquisition: acquired from of 256 characters',
		parameters: acquisition({}, { acquiredFrom: V }),
		good: long(255),
		bad: long(256),
		message: 'Acquired From must be at most 255 characters, got 256',
		parameter: 'acquiredFrom',
		apiField: 'acquired_from',
	},
	{
		title: 'acquisition: negative price',
		parameters: acquisition({}, { price: V }),
		good: 0,
		bad: -0.01,
		message: 'Price must be between 0 and 999,999,999.99, got -0.01',
		parameter: 'price',
		apiField: 'price',
	},
	{
		title: 'acquisition: price as words',
		parameters: acquisition({}, { price: V }),
		good: '1200',
		bad: 'cheap',
		message: 'Price must be a number, got "cheap"',
		parameter: 'price',
		apiField: 'price',
	},
	{
		title: 'acquisition: cost with three decimals',
		parameters: acquisition({}, { cost: V }),
		good: 12.5 * 1.1,
		bad: 899.99 * 1.2,
		message: `Cost must have at most two decimal places, got 1079.988: ${roundIt('$json.v', 1079.99)}`,
		parameter: 'cost',
		apiField: 'cost',
	},
	{
		title: 'acquisition: salvage value with three decimals',
		parameters: acquisition({}, { salvageValue: V }),
		good: 12.3,
		bad: 12.345,
		message: `Salvage Value must have at most two decimal places, got 12.345: ${roundIt('$json.v', 12.35)}`,
		parameter: 'salvageValue',
		apiField: 'salvage_value',
	},
	{
		title: 'acquisition: finance amount of a trillion',
		parameters: financed({ financeAmount: V }),
		good: 5000,
		bad: 1e12,
		message: 'Finance Amount must be between 0 and 999,999,999.99, got 1000000000000',
		parameter: 'financeAmount',
		apiField: 'finance_amount',
	},
	{
		title: 'acquisition: a payment without a billing frequency',
		parameters: financed({ paymentPlan: { plan: { payment: 100, billingFrequency: V } } }),
		good: 'monthly',
		bad: '',
		message: 'Billing Frequency is required',
		parameter: 'billingFrequency',
		apiField: 'billing_frequency',
	},
	{
		title: 'acquisition: billing frequency "weekly"',
		parameters: financed({ paymentPlan: { plan: { payment: 100, billingFrequency: V } } }),
		good: 'YEARLY',
		bad: 'weekly',
		message:
			'Billing Frequency must be one of Monthly, Quarterly, Yearly (in any letter case), got "weekly"',
		parameter: 'billingFrequency',
		apiField: 'billing_frequency',
	},
	{
		title: 'acquisition: acquisition billing frequency "upfront" (billing only)',
		parameters: financed({ paymentPlan: { plan: { payment: 100, billingFrequency: V } } }),
		good: 'Quarterly',
		bad: 'upfront',
		message:
			'Billing Frequency must be one of Monthly, Quarterly, Yearly (in any letter case), got "upfront"',
		parameter: 'billingFrequency',
		apiField: 'billing_frequency',
	},
	{
		title: 'acquisition: 0 payments',
		parameters: financed({
			paymentPlan: { plan: { payment: 100, billingFrequency: 'monthly', numberOfPayments: V } },
		}),
		good: 1,
		bad: 0,
		message: 'Number of Payments must be between 1 and 1,000,000, got 0',
		parameter: 'numberOfPayments',
		apiField: 'number_of_payments',
	},
	{
		title: 'acquisition: 1.5 payments',
		parameters: financed({
			paymentPlan: { plan: { payment: 100, billingFrequency: 'monthly', numberOfPayments: V } },
		}),
		good: 12,
		bad: 1.5,
		message: 'Number of Payments must be a whole number, got 1.5',
		parameter: 'numberOfPayments',
		apiField: 'number_of_payments',
	},
	{
		title: 'acquisition: 1,000,001 payments',
		parameters: financed({
			paymentPlan: { plan: { payment: 100, billingFrequency: 'monthly', numberOfPayments: V } },
		}),
		good: 1_000_000,
		bad: 1_000_001,
		message: 'Number of Payments must be between 1 and 1,000,000, got 1000001',
		parameter: 'numberOfPayments',
		apiField: 'number_of_payments',
	},
	{
		title: 'acquisition: custom field JSON cut short',
		parameters: acquisition({ eventTypeId: '304' }, { fieldValuesJson: V }),
		good: '{ "406": [4061] }',
		bad: '{ "406": [4061] ',
		message: 'Custom Field Values (JSON) is not valid JSON',
		parameter: 'fieldValuesJson',
		apiField: 'field_values',
	},
	{
		title: 'acquisition: custom field JSON that is a list',
		parameters: acquisition({ eventTypeId: '304' }, { fieldValuesJson: V }),
		good: '{}',
		bad: '[4061]',
		message:
			'Custom Field Values (JSON) must be a JSON object keyed by field ID, like { "5": "SN-1234" }',
		parameter: 'fieldValuesJson',
		apiField: 'field_values',
	},
	{
		title: 'acquisition: custom field JSON keyed by name',
		parameters: acquisition({ eventTypeId: '304' }, { fieldValuesJson: V }),
		good: '{ "406": [] }',
		bad: '{ "Tags": [4061] }',
		message: `Custom Field Values (JSON): key "Tags" ${NUMERIC_ID} "Tags"`,
		parameter: 'fieldValuesJson',
		apiField: 'field_values',
	},
	{
		title: 'acquisition: custom field ID that is not a number',
		parameters: financed({
			fieldValues: { values: [{ fieldId: V, type: 'boolean', value: 'true' }] },
		}),
		good: '405',
		bad: 'insured',
		message: `Custom Field Values: Field ID ${NUMERIC_ID} "insured"`,
		parameter: 'fieldValues',
		apiField: 'field_values',
	},
	{
		title: 'acquisition: a custom field given twice (pairs and JSON)',
		parameters: acquisition(
			{ eventTypeId: '303' },
			{
				fieldValuesJson: '{ "403": 4.5 }',
				fieldValues: { values: [{ fieldId: V, type: 'boolean', value: 'true' }] },
			},
		),
		good: '405',
		bad: '403',
		message: 'Custom Field Values give field 403 more than once',
		parameter: 'fieldValues',
		apiField: 'field_values',
	},
	{
		title: 'acquisition: description from an expression yielding an object',
		parameters: acquisition({}, { description: V }),
		good: 'Bought at the fair',
		bad: { note: 'x' },
		message: 'Description must be text, got an object',
		parameter: 'description',
		apiField: 'description',
	},
	{
		title: 'acquisition: event date with a two-digit year',
		parameters: acquisition({}, { eventDate: V }),
		good: '2026/01/15 10:00',
		bad: '15/01/26 10:00',
		message: `Event Date has a two-digit year, got "15/01/26 10:00": write the year with four digits, or convert it in the expression, e.g. {{ DateTime.fromFormat($json.v, 'd/M/yy H:mm') }} (gives 2026-01-15 10:00)`,
		parameter: 'eventDate',
		apiField: 'event_date',
	},

	{
		title: 'acquisition: event date 04/05/2026 10:00 (day or month first?)',
		parameters: acquisition({}, { eventDate: V }),
		good: '2026-01-15 10:00',
		bad: '04/05/2026 10:00',
		message: `Event Date ${twoReadings('04/05/2026 10:00', '2026-05-04 10:00', '2026-04-05 10:00', 'd/M/yyyy H:mm')}`,
		parameter: 'eventDate',
		apiField: 'event_date',
	},
	{
		title: 'to-do: due date 04.05.2026 (day or month first?)',
		parameters: todo({}, { dueDate: V }),
		good: '2026-05-04 00:00:00',
		bad: '04.05.2026',
		message: `Due Date ${twoReadings('04.05.2026', '2026-05-04', '2026-04-05', 'd.M.yyyy')}`,
		parameter: 'dueDate',
		apiField: 'due_date',
	},
	{
		title: 'acquisition: price with a real third decimal, as text',
		parameters: acquisition({}, { price: V }),
		good: '1079.99',
		bad: '1079.988',
		message: `Price must have at most two decimal places, got 1079.988: ${roundIt('Number($json.v)', 1079.99)}`,
		parameter: 'price',
		apiField: 'price',
	},
	{
		title: 'billing: price model by a label that is not one',
		// Per License needs a License Count, which starts empty.
		parameters: billing({ priceModel: V, licenseCount: 30 }),
		good: 'Per License',
		bad: 'Per Seat',
		message:
			'Price Model must be one of Lump Sum, Per License (in any letter case), got "Per Seat"',
		parameter: 'priceModel',
		apiField: 'price_model',
	},
	{
		title: 'acquisition: custom field pair typed Number, given words',
		parameters: financed({
			fieldValues: { values: [{ fieldId: '403', type: 'number', value: V }] },
			fieldValuesJson: '',
		}),
		good: '4.5',
		bad: 'four',
		message: 'Custom Field Values: field 403 must be a number, got "four"',
		parameter: 'fieldValues',
		apiField: 'field_values',
	},
	{
		title:
			'acquisition: custom field pair typed Number, given 1,249 (a thousands or a decimal comma?)',
		parameters: financed({
			fieldValues: { values: [{ fieldId: '403', type: 'number', value: V }] },
			fieldValuesJson: '',
		}),
		good: '4,5',
		bad: '1,249',
		message:
			"Custom Field Values: field 403 can be read two ways, got \"1,249\": 1249 (a comma separating thousands) or 1.249 (a decimal comma). Write it without the comma or with a decimal point, or convert it in the expression: {{ Number($json.v.replaceAll(',', '')) }} gives 1249, {{ Number($json.v.replace(',', '.')) }} gives 1.249",
		parameter: 'fieldValues',
		apiField: 'field_values',
	},
	{
		title: 'billing: license count 1.200 (a decimal point, or the point separating thousands?)',
		parameters: billing({ priceModel: 'per_license', licenseCount: V }),
		good: '1,200',
		bad: '1.200',
		message:
			"License Count must be a whole number, got \"1.200\": if the point separates thousands, {{ Number($json.v.replaceAll('.', '')) }} gives 1200",
		parameter: 'licenseCount',
		apiField: 'license_count',
	},
	{
		title: 'acquisition: custom field pair typed Array, given one ID',
		parameters: acquisition(
			{ eventTypeId: '304' },
			{ fieldValues: { values: [{ fieldId: '406', type: 'array', value: V }] } },
		),
		good: '[4061, 4062]',
		bad: '4061; 4062',
		message:
			'Custom Field Values: field 406 must be a list, got "4061; 4062": give a list, e.g. [4061, 4062], or convert it in the expression: {{ $json.v.split(\';\').map(Number) }}',
		parameter: 'fieldValues',
		apiField: 'field_values',
	},
	{
		title: 'acquisition: custom field pair typed Boolean, given a word it is not',
		parameters: financed({
			fieldValues: { values: [{ fieldId: '405', type: 'boolean', value: V }] },
		}),
		good: 'Yes',
		bad: 'insured',
		message: 'Custom Field Values: field 405 must be true or false (or yes/no, 1/0), got "insured"',
		parameter: 'fieldValues',
		apiField: 'field_values',
	},

	// ---- every required field left empty by an expression: null, blank, white space -----------
	...emptyValuesOf([
		{
			title: 'to-do: asset ID',
			parameters: todo({ assetId: V }),
			good: '1001',
			message: 'Asset ID is required',
			parameter: 'assetId',
		},
		{
			title: 'to-do: name',
			parameters: todo({ name: V }),
			good: 'Label',
			message: 'Name is required',
			parameter: 'name',
			apiField: 'name',
		},
		{
			title: 'billing: subscription ID',
			parameters: billing({ subscriptionId: V }),
			good: '2001',
			message: 'Subscription ID is required',
			parameter: 'subscriptionId',
		},
		{
			title: 'billing: price model',
			parameters: billing({ priceModel: V }),
			good: 'lump_sum',
			message: 'Price Model is required',
			parameter: 'priceModel',
			apiField: 'price_model',
		},
		{
			title: 'billing: cost',
			parameters: billing({ cost: V }),
			good: 10,
			message: 'Cost is required',
			parameter: 'cost',
			apiField: 'cost',
		},
		{
			title: 'billing: billing frequency',
			parameters: billing({ billingFrequency: V }),
			good: 'monthly',
			message: 'Billing Frequency is required',
			parameter: 'billingFrequency',
			apiField: 'billing_frequency',
		},
		{
			title: 'billing: license count with per license',
			parameters: billing({ priceModel: 'per_license', licenseCount: V }),
			good: 5,
			message: 'License Count is required with the Per License price model',
			parameter: 'licenseCount',
			apiField: 'license_count',
		},
		{
			title: 'acquisition: asset ID',
			parameters: acquisition({ assetId: V }),
			good: '1001',
			message: 'Asset ID is required',
			parameter: 'assetId',
		},
		{
			title: 'acquisition: event type ID',
			parameters: acquisition({ eventTypeId: V }),
			good: '301',
			message: 'Event Type ID is required',
			parameter: 'eventTypeId',
			apiField: 'event_type_id',
		},
		{
			title: 'acquisition: billing frequency with a payment',
			parameters: financed({ paymentPlan: { plan: { payment: 100, billingFrequency: V } } }),
			good: 'monthly',
			message: 'Billing Frequency is required',
			parameter: 'billingFrequency',
			apiField: 'billing_frequency',
		},
	]),
];

/** Every optional field (under Additional Fields) of each operation. */
export const optionalFields: Record<OperationName, string[]> = {
	createTodo: ['notes', 'dueDate', 'assignedTo', 'isComplete'],
	updateBilling: ['eventDate', 'description', 'licenseCount'],
	recordAcquisition: [
		'eventDate',
		'description',
		'acquiredFrom',
		'price',
		'cost',
		'salvageValue',
		'financeAmount',
		'payment',
		'billingFrequency',
		'numberOfPayments',
		'fieldValues',
		'fieldValuesJson',
	],
};
