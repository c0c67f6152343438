/**
 * Every fix a message offers reads the very value it refuses: each refused value is run through n8n's
 * engine, nothing is sent, the message is exact; then each `{{ … }}` the message offers is put into
 * the parameter in its place and run again with the same row, through n8n's own expression
 * evaluation, and the request body carries what the message said it gives.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runError, runInventory, useSandbox } from './util';

const env = useSandbox();

interface HintCase {
	title: string;
	/** The node's parameters with `value` (an expression) in the field under test. */
	parameters: (value: string) => INodeParameters;
	/** The expression that gives the refused value. */
	expression?: string;
	row: IDataObject;
	/** The message without ` [item 0]`. */
	message: string;
	/** The body field the value fills, and what each fix the message offers sends there, in order. */
	field: string;
	fixes: unknown[];
}

/** Record Acquisition (Purchase) of asset 1001 with this event date; `options`: the Options collection. */
const acquisition =
	(options: INodeParameters = {}) =>
	(eventDate: string): INodeParameters => ({
		resource: 'asset',
		operation: 'recordAcquisition',
		assetId: '1001',
		eventTypeId: '301',
		additionalFields: { eventDate },
		options,
	});

const todo = (dueDate: string): INodeParameters => ({
	resource: 'asset',
	operation: 'createTodo',
	assetId: '1001',
	name: 'Tag and label',
	additionalFields: { dueDate },
});

const billing =
	(field: 'cost' | 'licenseCount') =>
	(value: string): INodeParameters => ({
		resource: 'subscription',
		operation: 'updateBilling',
		subscriptionId: '2002',
		priceModel: 'per_license',
		cost: 10,
		billingFrequency: 'monthly',
		licenseCount: 5,
		[field]: value,
	});

/** A custom field pair of a Financed purchase (303: 403 a number) or a Donation (304: 406 a list). */
const pair =
	(eventTypeId: string, fieldId: string, type: string, other: IDataObject[] = []) =>
	(value: string): INodeParameters => ({
		resource: 'asset',
		operation: 'recordAcquisition',
		assetId: '1001',
		eventTypeId,
		additionalFields: {
			fieldValues: { values: [...other, { fieldId, type, value }] },
		} as INodeParameters,
	});

const ORDER =
	"Set Options → Date Order to your sheet's order (Day First or Month First: every row is then read that way)";

const cases: HintCase[] = [
	{
		title: 'a date with two readings, without a date order',
		parameters: acquisition(),
		row: { v: '04/05/2026' },
		message: `Event Date can be read two ways, got "04/05/2026": 2026-05-04 (day first) or 2026-04-05 (month first). ${ORDER}, or convert it in the expression, e.g. {{ DateTime.fromFormat($json.v, 'd/M/yyyy') }} (day first)`,
		field: 'event_date',
		fixes: ['2026-05-04T00:00:00-04:00'],
	},
	{
		title:
			'a date with two readings and a time, odd white space around and inside, from a column with a space',
		parameters: acquisition(),
		expression: '={{ $json["Purchase date"] }}',
		row: { 'Purchase date': ' 4/5/2026\u00a02:30\u202fPM ' },
		message: `Event Date can be read two ways, got " 4/5/2026\\u00A02:30\\u202FPM ": 2026-05-04 14:30 (day first) or 2026-04-05 14:30 (month first). ${ORDER}, or convert it in the expression, e.g. {{ DateTime.fromFormat($json["Purchase date"].trim().replace(/\\s+/g, ' '), 'd/M/yyyy h:mm a') }} (day first)`,
		field: 'event_date',
		fixes: ['2026-05-04T14:30:00-04:00'],
	},
	{
		title: 'a date that reads only month first, with Date Order Day First',
		parameters: acquisition({ dateOrder: 'dayFirst' }),
		row: { v: '11/20/2026 2:30 PM' },
		message:
			"Event Date cannot be read day first as Options → Date Order says, got \"11/20/2026 2:30 PM\": read month first it is 2026-11-20 14:30. Check this row's date, or set Date Order to Month First if the sheet writes the month first; to read this value month first: {{ DateTime.fromFormat($json.v, 'M/d/yyyy h:mm a') }}",
		field: 'event_date',
		fixes: ['2026-11-20T14:30:00-05:00'],
	},
	{
		title: 'a date with a two-digit year (Excel’s d-mmm-yy)',
		parameters: acquisition(),
		row: { v: '20-Nov-26' },
		message:
			'Event Date has a two-digit year, got "20-Nov-26": write the year with four digits, or convert it in the expression, e.g. {{ DateTime.fromFormat($json.v, \'d-MMM-yy\') }} (gives 2026-11-20)',
		field: 'event_date',
		fixes: ['2026-11-20T00:00:00-05:00'],
	},
	{
		title: 'a date written as digits, as a number',
		parameters: todo,
		row: { v: 20261120 },
		message:
			"Due Date must be a date such as 2026-11-20, 20.11.2026, 11/20/2026 or Nov 20, 2026, with an optional time such as 14:30 or 2:30 PM (in the workflow's time zone unless it has an offset), got 20261120: a number is read as a spreadsheet's serial day number (10,000 to 99,999; 46346 is 2026-11-20), a Unix time in seconds (100,000,000 to 9,999,999,999) or in milliseconds (100,000,000,000 to 9,999,999,999,999); as a date written in digits (year, month, day) it is 2026-11-20: {{ DateTime.fromFormat(String($json.v), 'yyyyMMdd') }}",
		field: 'due_date',
		fixes: ['2026-11-20'],
	},
	{
		title: 'an invalid DateTime from a format that does not read the value (Luxon’s reason)',
		parameters: acquisition(),
		expression: "={{ DateTime.fromFormat($json.date, 'dd/MM/yyyy') }}",
		row: { date: '11/20/2026' },
		message:
			'Event Date got an invalid DateTime from its expression (Luxon: unit out of range: you specified 20 (of type number) as a month, which is invalid): it was given "11/20/2026", which the node reads as it is (2026-11-20): give {{ $json.date }}, or use the format that reads it: {{ DateTime.fromFormat($json.date, \'M/d/yyyy\') }}',
		field: 'event_date',
		fixes: ['2026-11-20T00:00:00-05:00', '2026-11-20T00:00:00-05:00'],
	},
	{
		title: 'an invalid DateTime whose input has two readings',
		parameters: acquisition(),
		expression: "={{ DateTime.fromFormat($json.date, 'yyyy-MM-dd') }}",
		row: { date: '10/1/2026' },
		message: `Event Date got an invalid DateTime from its expression (Luxon: unparsable: the input "10/1/2026" can't be parsed as format yyyy-MM-dd): it was given "10/1/2026", which can be read two ways: 2026-01-10 (day first) or 2026-10-01 (month first). ${ORDER}, or convert it in the expression, e.g. {{ DateTime.fromFormat($json.date, 'd/M/yyyy') }} (day first)`,
		field: 'event_date',
		fixes: ['2026-01-10T00:00:00-05:00'],
	},
	{
		title: 'an amount with a third decimal, computed',
		parameters: billing('cost'),
		expression: '={{ $json.price * $json.quantity }}',
		row: { price: 899.99, quantity: 1.2 },
		message:
			'Cost must have at most two decimal places, got 1079.988: round it in the expression, e.g. {{ Math.round(($json.price * $json.quantity) * 100) / 100 }} (gives 1079.99)',
		field: 'cost',
		fixes: [1079.99],
	},
	{
		title: 'an amount 1.249: a third decimal, or a point separating thousands',
		parameters: billing('cost'),
		row: { v: '1.249' },
		message:
			"Cost must have at most two decimal places, got 1.249: round it in the expression, e.g. {{ Math.round(Number($json.v) * 100) / 100 }} (gives 1.25); if the point separates thousands, {{ Number($json.v.replaceAll('.', '')) }} gives 1249",
		field: 'cost',
		fixes: [1.25, 1249],
	},
	{
		title: 'an amount as a European sheet writes it, with a third decimal and a currency sign',
		parameters: billing('cost'),
		row: { v: '1.079,988 €' },
		message:
			"Cost must have at most two decimal places, got \"1.079,988 €\": round it in the expression, e.g. {{ Math.round(Number($json.v.replace('€', '').replaceAll('.', '').replace(',', '.')) * 100) / 100 }} (gives 1079.99)",
		field: 'cost',
		fixes: [1079.99],
	},
	{
		title: 'an amount 1.250: 1.25, or a point separating thousands',
		parameters: billing('cost'),
		row: { v: '1.250' },
		message:
			"Cost can be read two ways, got \"1.250\": 1.25 or 1250 (a point separating thousands). Write it as 1.25 or 1250, or convert it in the expression: {{ Number($json.v) }} gives 1.25, {{ Number($json.v.replaceAll('.', '')) }} gives 1250",
		field: 'cost',
		fixes: [1.25, 1250],
	},
	{
		title: 'an amount with a currency code and a third decimal',
		parameters: billing('cost'),
		row: { v: 'USD 1,079.988' },
		message:
			"Cost must have at most two decimal places, got \"USD 1,079.988\": round it in the expression, e.g. {{ Math.round(Number($json.v.replace('USD', '').replaceAll(',', '')) * 100) / 100 }} (gives 1079.99)",
		field: 'cost',
		fixes: [1079.99],
	},
	{
		title: 'a count 1.200: a decimal point, or a point separating thousands',
		parameters: billing('licenseCount'),
		row: { v: '1.200' },
		message:
			"License Count must be a whole number, got \"1.200\": if the point separates thousands, {{ Number($json.v.replaceAll('.', '')) }} gives 1200",
		field: 'license_count',
		fixes: [1200],
	},
	{
		title: 'a Number custom field 1,249: a thousands or a decimal comma',
		parameters: pair('303', '403', 'number'),
		row: { v: '1,249' },
		message:
			"Custom Field Values: field 403 can be read two ways, got \"1,249\": 1249 (a comma separating thousands) or 1.249 (a decimal comma). Write it without the comma or with a decimal point, or convert it in the expression: {{ Number($json.v.replaceAll(',', '')) }} gives 1249, {{ Number($json.v.replace(',', '.')) }} gives 1.249",
		field: 'field_values',
		fixes: [{ '403': 1249 }, { '403': 1.249 }],
	},
	{
		title: 'an Array custom field given as IDs separated by semicolons',
		parameters: pair('304', '406', 'array'),
		row: { v: '4061; 4062' },
		message:
			'Custom Field Values: field 406 must be a list, got "4061; 4062": give a list, e.g. [4061, 4062], or convert it in the expression: {{ $json.v.split(\';\').map(Number) }}',
		field: 'field_values',
		fixes: [{ '406': [4061, 4062] }],
	},
];

const FIX = /\{\{ .+? \}\}(?= \(| gives|,|;|$)/g;

describe('every fix a message offers reads the value it refuses', () => {
	test.each(cases.map((c) => [c.title, c] as const))('%s', async (_title, c) => {
		const { sandbox } = env;
		const settings = { timezone: 'America/New_York' };
		const refused = await runInventory(
			sandbox,
			[c.row],
			c.parameters(c.expression ?? '={{ $json.v }}'),
			{
				settings,
			},
		);
		expect(runError(refused).message).toBe(`${c.message} [item 0]`);
		expect(sandbox.requests()).toHaveLength(0);

		const fixes = c.message.match(FIX) ?? [];
		expect(fixes).toHaveLength(c.fixes.length);
		const sent: unknown[] = [];
		for (const fix of fixes) {
			sandbox.reset();
			const fixed = await runInventory(sandbox, [c.row], c.parameters(`=${fix}`), { settings });
			expect([fix, fixed.status]).toEqual([fix, 'success']);
			sent.push((sandbox.requests()[0].body as IDataObject)[c.field]);
		}
		expect(sent).toEqual(c.fixes);
	});
});
