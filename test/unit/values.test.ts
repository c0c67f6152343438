/**
 * The reading tables on their own (values/dates/readDate.ts and sheetDates.ts,
 * values/numbers/numberText.ts, values/checks.ts): date text as sheets write it, numbers in a date
 * field by range, number text with separators; each refusal's Luxon format applied with Luxon, and
 * each offered expression evaluated, to the refused value. The engine runs of the same (request
 * bodies, messages) are node/values.test.ts and node/hints.test.ts.
 */
import { DateTime } from 'luxon';

import { dateHelpers, numberHelpers, validationHelpers } from '../node/package-modules';
import type { DateOrder, DateRefusal } from '../../nodes/Inventory/values/dates/dateReading';
import type { Check } from '../../nodes/Inventory/values/checks';
import type { CheckContext } from '../../nodes/Inventory/values/checkContext';

const { readDate, DATE_NUMBERS } = dateHelpers;
const { readNumberText } = numberHelpers;
const { checkValue } = validationHelpers;

const ZONE = 'America/New_York';

/** The reading as ISO text in ZONE, or the refusal's reason. */
function read(value: unknown, order?: DateOrder): string {
	const reading = readDate(value, { zone: ZONE, dateOrder: () => order });
	return reading.ok ? (reading.value.toISO() as string) : reading.refusal.reason;
}

function refusal(value: unknown, order?: DateOrder): DateRefusal {
	const reading = readDate(value, { zone: ZONE, dateOrder: () => order });
	if (reading.ok) throw new Error(`${String(value)} was read`);
	return reading.refusal;
}

describe('date text', () => {
	test.each([
		// day and month either way when one is over 12, unpadded, with /, . or -
		['20/11/2026', '2026-11-20T00:00:00.000-05:00'],
		['11/20/2026', '2026-11-20T00:00:00.000-05:00'],
		['1/13/2026', '2026-01-13T00:00:00.000-05:00'],
		['13.1.2026', '2026-01-13T00:00:00.000-05:00'],
		['20-11-2026', '2026-11-20T00:00:00.000-05:00'],
		['07/07/2026', '2026-07-07T00:00:00.000-04:00'],
		// year first
		['2026/11/20', '2026-11-20T00:00:00.000-05:00'],
		['2026.1.5', '2026-01-05T00:00:00.000-05:00'],
		['2026-1-5 7:05', '2026-01-05T07:05:00.000-05:00'],
		['2026-11-20T10:00:00+01:00', '2026-11-20T04:00:00.000-05:00'],
		['2026-11-20 10:00', '2026-11-20T10:00:00.000-05:00'],
		// English month names and abbreviations, in any letter case
		['Nov 20, 2026', '2026-11-20T00:00:00.000-05:00'],
		['NOV 20 2026', '2026-11-20T00:00:00.000-05:00'],
		['November 20, 2026', '2026-11-20T00:00:00.000-05:00'],
		['Sept. 20, 2026', '2026-09-20T00:00:00.000-04:00'],
		['Nov 20th, 2026', '2026-11-20T00:00:00.000-05:00'],
		['20 Nov 2026', '2026-11-20T00:00:00.000-05:00'],
		['20-Nov-2026', '2026-11-20T00:00:00.000-05:00'],
		['20/nov/2026', '2026-11-20T00:00:00.000-05:00'],
		['20 November 2026', '2026-11-20T00:00:00.000-05:00'],
		['Friday, November 20, 2026', '2026-11-20T00:00:00.000-05:00'],
		['Fri 20 Nov 2026', '2026-11-20T00:00:00.000-05:00'],
		// a time of day: 24-hour, AM/PM as Google Sheets and Intl write it, seconds, fractions
		['11/20/2026 14:30', '2026-11-20T14:30:00.000-05:00'],
		['11/20/2026 2:30 PM', '2026-11-20T14:30:00.000-05:00'],
		['11/20/2026 2:30:05 pm', '2026-11-20T14:30:05.000-05:00'],
		['11/20/2026 12:15 AM', '2026-11-20T00:15:00.000-05:00'],
		['11/20/2026 12:15 PM', '2026-11-20T12:15:00.000-05:00'],
		['11/20/2026 2PM', '2026-11-20T14:00:00.000-05:00'],
		['11/20/2026, 2:30:00\u202fPM', '2026-11-20T14:30:00.000-05:00'],
		['20.11.2026 14:30:05.25', '2026-11-20T14:30:05.250-05:00'],
		['Nov 20, 2026 9:05 AM', '2026-11-20T09:05:00.000-05:00'],
		['  20 Nov 2026\u00a0\u00a009:15 ', '2026-11-20T09:15:00.000-05:00'],
		// the local time of a day in summer time
		['7/15/2026 10:00', '2026-07-15T10:00:00.000-04:00'],
		// Google Sheets' date-times as displayed (US and UK locale)
		['11/20/2026 14:30:00', '2026-11-20T14:30:00.000-05:00'],
		['20/11/2026 14:30:00', '2026-11-20T14:30:00.000-05:00'],
	])('%j is %s', (text, iso) => {
		expect(read(text)).toBe(iso);
	});

	test.each([
		['yesterday', 'invalid'],
		['2026-02-30', 'invalid'],
		['31/04/2026', 'invalid'],
		['13/13/2026', 'invalid'],
		['11/20/2026 25:00', 'invalid'],
		['11/20/2026 13:00 PM', 'invalid'],
		['11/20/2026 14:60', 'invalid'],
		['Nov 31, 2026', 'invalid'],
		['Novembre 20, 2026', 'invalid'],
		['11/20/2026 2:30 PM +01:00', 'invalid'],
		['04/05/2026', 'twoReadings'],
		['4/5/2026 10:00', 'twoReadings'],
		['10/1/2026', 'twoReadings'],
		['20-Nov-26', 'twoDigitYear'],
		['11/20/26', 'twoDigitYear'],
		['Monday, November 20, 2026', 'weekday'],
		['2026', 'number'],
	])('%j is refused: %s', (text, reason) => {
		expect(read(text)).toBe(reason);
	});

	test('Date Order reads a date with two readings, and refuses one that reads only the other way', () => {
		expect(read('04/05/2026', 'dayFirst')).toBe('2026-05-04T00:00:00.000-04:00');
		expect(read('04/05/2026', 'monthFirst')).toBe('2026-04-05T00:00:00.000-04:00');
		expect(read('20/11/2026', 'dayFirst')).toBe('2026-11-20T00:00:00.000-05:00');
		expect(read('11/20/2026', 'dayFirst')).toBe('againstOrder');
		expect(read('20/11/2026', 'monthFirst')).toBe('againstOrder');
		// Not needed, so not read: year first, names, the same day either way
		expect(read('2026/04/05', 'dayFirst')).toBe('2026-04-05T00:00:00.000-04:00');
		expect(read('07/07/2026', 'dayFirst')).toBe('2026-07-07T00:00:00.000-04:00');
	});

	test('the date order is asked only for a date whose day and month could be either', () => {
		const asked: string[] = [];
		for (const text of ['20/11/2026', 'Nov 20, 2026', '2026-11-20', '07/07/2026', '04/05/2026'])
			readDate(text, {
				zone: ZONE,
				dateOrder: () => {
					asked.push(text);
					return 'dayFirst';
				},
			});
		expect(asked).toEqual(['20/11/2026', '04/05/2026']);
	});

	/** What each refusal's format must read the value as. */
	test.each([
		['04/05/2026', undefined, '2026-05-04T00:00:00.000-04:00'],
		['4/5/2026 2:30 PM', undefined, '2026-05-04T14:30:00.000-04:00'],
		['04.05.2026 14:30:05', undefined, '2026-05-04T14:30:05.000-04:00'],
		['4-5-2026 7:05', undefined, '2026-05-04T07:05:00.000-04:00'],
		['  4/5/2026\u00a010:00 ', undefined, '2026-05-04T10:00:00.000-04:00'],
		['11/20/2026 2:30 PM', 'dayFirst', '2026-11-20T14:30:00.000-05:00'],
		['20.11.2026', 'monthFirst', '2026-11-20T00:00:00.000-05:00'],
		['20-Nov-26', undefined, '2026-11-20T00:00:00.000-05:00'],
		['Fri, Nov 20, 26', undefined, '2026-11-20T00:00:00.000-05:00'],
		['11/20/26 14:30', undefined, '2026-11-20T14:30:00.000-05:00'],
		['20/11/70', undefined, '1970-11-20T00:00:00.000-05:00'],
	] as Array<[string, DateOrder | undefined, string]>)(
		'%j (Date Order %s): Luxon reads the offered format as %s',
		(text, order, iso) => {
			const refused = refusal(text, order);
			const format =
				refused.reason === 'twoReadings'
					? refused.formats.dayFirst
					: refused.reason === 'againstOrder' || refused.reason === 'twoDigitYear'
						? refused.format
						: undefined;
			expect(format).toBeDefined();
			const oneSpace = text.trim().replace(/\s+/g, ' ');
			expect(DateTime.fromFormat(oneSpace, format as string, { zone: ZONE }).toISO()).toBe(iso);
		},
	);

	test('no format is offered where Luxon cannot read the text (Sept, Tues, an ordinal)', () => {
		for (const text of ['Sept 20, 26', 'Tues, Nov 17, 26', 'Nov 20th, 26']) {
			const refused = refusal(text);
			expect([text, refused.reason, 'format' in refused && refused.format]).toEqual([
				text,
				'twoDigitYear',
				undefined,
			]);
		}
	});

	test('a Luxon DateTime, a JS Date, an invalid DateTime with its reason', () => {
		expect(read(DateTime.fromISO('2026-11-20T10:00:00Z'))).toBe('2026-11-20T05:00:00.000-05:00');
		expect(read(new Date('2026-11-20T10:00:00Z'))).toBe('2026-11-20T05:00:00.000-05:00');
		expect(refusal(DateTime.fromFormat('11/20/2026', 'dd/MM/yyyy'))).toEqual({
			reason: 'invalidDateTime',
			why: 'unit out of range: you specified 20 (of type number) as a month, which is invalid',
		});
		expect(read(new Date('x'))).toBe('invalid');
	});
});

describe('numbers in a date field', () => {
	test('the ranges do not overlap, and each has its reading', () => {
		const ranges = [...DATE_NUMBERS].sort((a, b) => a.from - b.from);
		for (let i = 1; i < ranges.length; i++)
			expect(ranges[i].from).toBeGreaterThanOrEqual(ranges[i - 1].below);
		expect(
			DATE_NUMBERS.map(({ reading, from, below }) => [
				reading,
				read(from),
				read(below - (reading === 'serialDay' ? 0.5 : 1)),
			]),
		).toEqual([
			['serialDay', '1927-05-18T00:00:00.000-04:00', '2173-10-13T12:00:00.000-04:00'],
			['unixSeconds', '1973-03-03T04:46:40.000-05:00', '2286-11-20T12:46:39.000-05:00'],
			['unixMilliseconds', '1973-03-03T04:46:40.000-05:00', '2286-11-20T12:46:39.999-05:00'],
		]);
	});

	test.each([
		[46346, '2026-11-20T00:00:00.000-05:00'],
		['46346', '2026-11-20T00:00:00.000-05:00'],
		[46346.604166666664, '2026-11-20T14:30:00.000-05:00'],
		// as n8n's Extract From File hands an Excel date-time cell over
		[46346.6041666667, '2026-11-20T14:30:00.000-05:00'],
		[45914.604166666664, '2025-09-14T14:30:00.000-04:00'],
		// Excel's 14:30:05 is a fraction rounded to the second
		[46346 + (14 * 3600 + 30 * 60 + 5) / 86400, '2026-11-20T14:30:05.000-05:00'],
		// a fraction within half a second of midnight is the next day
		[46346.9999999, '2026-11-21T00:00:00.000-05:00'],
		[1768471200, '2026-01-15T05:00:00.000-05:00'],
		[1768471200.5, '2026-01-15T05:00:00.500-05:00'],
		[1768471200000, '2026-01-15T05:00:00.000-05:00'],
	])('%j is %s', (number, iso) => {
		expect(read(number)).toBe(iso);
	});

	test.each([9999.5, 100_000, 20260331, 99_999_999, 10_000_000_000, 10_000_000_000_000, -46346])(
		'%d is refused',
		(number) => {
			expect(read(number)).toBe('number');
		},
	);

	test('a date written in digits is named, with what it is', () => {
		const refused = refusal(20261120);
		expect(refused.reason === 'number' && refused.digits?.toISODate()).toBe('2026-11-20');
		expect(refusal(20261320)).toEqual({ reason: 'number', digits: undefined });
	});
});

describe('number text', () => {
	const amount = { currency: true };
	const plain = { currency: false };

	test.each([
		// JavaScript's plain form, read as before
		['1249', plain, 1249],
		['1079.99', plain, 1079.99],
		['1.500', plain, 1.5],
		['-12.5', plain, -12.5],
		// thousands and a decimal separator
		['1,249.00', plain, 1249],
		['1.079,99', plain, 1079.99],
		['1,234,567.89', plain, 1234567.89],
		['1.234.567', plain, 1234567],
		['1 249,50', plain, 1249.5],
		['1\u00a0249,50', plain, 1249.5],
		['1\u202f249', plain, 1249],
		["1'249.50", plain, 1249.5],
		['12,5', plain, 12.5],
		['0,125', plain, 0.125],
		['1234,567', plain, 1234.567],
		[' 1,249.00 ', plain, 1249],
		// currency signs, before or after, with or without a space, with a minus
		['$10.00', amount, 10],
		['10,00 €', amount, 10],
		['€ 1.079,99', amount, 1079.99],
		['£1,249.50', amount, 1249.5],
		['-$10', amount, -10],
		['$-10', amount, -10],
		// an ISO currency code, before or after, as a currency sign is
		['USD 10', amount, 10],
		['1.249,00 EUR', amount, 1249],
		['GBP1,249.50', amount, 1249.5],
	])('%j (%j) is %d', (text, how, value) => {
		const number = readNumberText(text, how);
		expect(number.ok && number.value).toBe(value);
	});

	test('a lone comma before three digits has two readings', () => {
		expect(readNumberText('1,249', plain)).toEqual({
			ok: false,
			twoReadings: { thousands: 1249, decimal: 1.249 },
			spelling: {},
		});
		expect(readNumberText('-$12,500', amount)).toEqual({
			ok: false,
			twoReadings: { thousands: -12500, decimal: -12.5 },
			spelling: { currency: '$' },
		});
	});

	test.each([
		['twelve', plain],
		['$10', plain],
		['1,24,9', plain],
		['1.249.00', plain],
		['1,249.00.5', plain],
		['1,,249', plain],
		['12 5', plain],
		['1.249,000.5', plain],
		['$$10', amount],
		['$10 €', amount],
		['USD 10', plain],
		['usd 10', amount],
		['USD EUR 10', amount],
		['--10', plain],
		['1e3', plain],
		['', plain],
	])('%j (%j) is not a number', (text, how) => {
		expect(readNumberText(text, how)).toEqual({ ok: false });
	});
});

describe('checks: what is taken, and each fix offered evaluated on the refused value', () => {
	/** Checks `value` as `$json.v` gives it; the result, or the message of the refusal. */
	function check(check: Check, value: unknown, order?: DateOrder): unknown {
		const context: CheckContext = {
			timeZone: ZONE,
			dateOrder: () => order,
			source: () => '$json.v',
		};
		try {
			return checkValue(check, value, context, (problem) => {
				throw new Error(problem);
			});
		} catch (error) {
			return (error as Error).message;
		}
	}

	/** Evaluates `{{ expression }}` as n8n would for a row { v: value }, with its DateTime. */
	const evaluate = (expression: string, value: unknown): unknown =>
		// The node's own expressions, of $json and DateTime only.
		new Function('$json', 'DateTime', `return (${expression});`)({ v: value }, DateTime) as unknown;

	const AMOUNT: Check = { kind: 'amount' };
	const COUNT: Check = { kind: 'integer', min: 1, max: 100_000_000 };
	const NUMBER: Check = { kind: 'number' };

	test.each([
		[AMOUNT, '1,249.00', 1249],
		[AMOUNT, '1.079,99', 1079.99],
		[AMOUNT, '$10.00', 10],
		[AMOUNT, '1,249', 1249],
		[AMOUNT, '1,500', 1500],
		[COUNT, '1,200', 1200],
		[COUNT, '1 200', 1200],
		[NUMBER, '1,249.50', 1249.5],
		[NUMBER, '1.249', 1.249],
		[NUMBER, '4,5', 4.5],
	])('%j: %j is %d', (kind, value, expected) => {
		expect(check(kind, value)).toBe(expected);
	});

	test.each([
		[COUNT, '$1,200', 'must be a number, got "$1,200"'],
		[COUNT, '12,5', 'must be a whole number, got "12,5"'],
		[AMOUNT, '-$10', 'must be between 0 and 999,999,999.99, got "-$10"'],
	])('%j: %j is refused', (kind, value, message) => {
		expect(check(kind, value)).toBe(message);
	});

	test.each([
		[AMOUNT, 1079.988, [1079.99]],
		[AMOUNT, '1079.988', [1079.99]],
		[AMOUNT, '1.249', [1.25, 1249]],
		[AMOUNT, '$1.249', [1.25, 1249]],
		[AMOUNT, '1,079.988', [1079.99]],
		[AMOUNT, '1\u00a0079,988 €', [1079.99]],
		[COUNT, '1.200', [1200]],
		[AMOUNT, '1.500', [1.5, 1500]],
		[AMOUNT, '€1.250', [1.25, 1250]],
		[COUNT, '12.000', [12, 12000]],
		[NUMBER, '1,249', [1249, 1.249]],
		[NUMBER, '-1,249', [-1249, -1.249]],
	])('%j: each fix for %j gives %j', (kind, value, gives) => {
		const message = String(check(kind, value));
		const fixes = [
			...message.matchAll(/\{\{ (.+?) \}\}(?= \(gives (\S+?)\)| gives (\S+?)(?:,|;|$))/g),
		];
		expect(fixes.map((fix) => evaluate(fix[1], value))).toEqual(gives);
		// and each says what it gives
		expect(fixes.map((fix) => Number(fix[2] ?? fix[3]))).toEqual(gives);
	});

	test.each([
		['04/05/2026', undefined, '2026-05-04T00:00:00-04:00'],
		[' 4/5/2026\u00a02:30\u202fPM ', undefined, '2026-05-04T14:30:00-04:00'],
		['11/20/2026', 'dayFirst', '2026-11-20T00:00:00-05:00'],
		['20-Nov-26 9:15', undefined, '2026-11-20T09:15:00-05:00'],
		[20261120, undefined, '2026-11-20T00:00:00-05:00'],
		['20261120', undefined, '2026-11-20T00:00:00-05:00'],
	] as Array<[unknown, DateOrder | undefined, string]>)(
		'the fix for the date %j (Date Order %s) gives %s',
		(value, order, timestamp) => {
			const message = String(check({ kind: 'timestamp' }, value, order));
			const fixes = [...message.matchAll(/\{\{ (.+?) \}\}/g)].map((fix) => fix[1]);
			expect(fixes).toHaveLength(1);
			const fixed = evaluate(fixes[0], value) as DateTime;
			// Luxon's default zone stands for the workflow's, as n8n sets it for expressions
			expect(check({ kind: 'timestamp' }, fixed.setZone(ZONE, { keepLocalTime: true }))).toBe(
				timestamp,
			);
		},
	);

	test('without the expression that gives it, a fix shows where the value goes', () => {
		const context: CheckContext = {
			timeZone: ZONE,
			dateOrder: () => undefined,
			source: () => undefined,
		};
		let message = '';
		try {
			checkValue({ kind: 'date' }, '04/05/2026', context, (problem) => {
				throw new Error(problem);
			});
		} catch (error) {
			message = (error as Error).message;
		}
		expect(message).toContain("{{ DateTime.fromFormat($json.date, 'd/M/yyyy') }}");
	});
});
