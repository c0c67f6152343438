import { DateTime } from 'luxon';

import { dateHelpers, idempotencyHelpers, validationHelpers } from '../node/package-modules';

import { codeSpans, plainText, readPage, tables, USER_PAGES, type Table } from './page-text';

/*
 * Every value example in the users' tables is run through the node's own reading (the built
 * modules in dist/) and must give what the page says it becomes. A table is one of these by its
 * first column's header:
 *
 *   | Date …  | Date Order | Read as |     values/dates/readDate.ts readDate, the order as the page names it
 *   | Amount… | Sent as    |              values/checks.ts, an amount field (Price, Cost, …)
 *   | Count…  | Sent as    |              values/checks.ts, a count field (License Count)
 *   | Key value … | Read as |              idempotency/keyText.ts keyText, the text a row's key is made of
 *
 * A value cell holds one or more code spans: JSON (`1001`, `"1001"`) is that value, anything else
 * (`11/20/2025`, `1,249.00`) is text as a sheet gives it. The result cell starts with `refused`, or
 * with what the value becomes: a date (`2025-11-20`, `2025-11-20 14:30`, `… UTC` for an instant
 * shown in UTC), a number, a key text, or "as written"; a remark may follow in parentheses.
 */

const { readDate } = dateHelpers;
const { checkValue } = validationHelpers;
const { keyText } = idempotencyHelpers;

/** The workflow's time zone the examples are read in: a date without an offset is that zone's day. */
const ZONE = 'America/New_York';

type Kind = 'date' | 'amount' | 'count' | 'key';

function kindOf(table: Table): Kind | undefined {
	const first = plainText(table.header[0]).toLowerCase();
	if (first.startsWith('key value')) return 'key';
	if (first.startsWith('date')) return 'date';
	if (first.startsWith('amount')) return 'amount';
	if (first.startsWith('count')) return 'count';
	return undefined;
}

/** A code span as the value a row holds: JSON is that value, other text is text. */
function valueOf(span: string): unknown {
	try {
		return JSON.parse(span) as unknown;
	} catch {
		return span;
	}
}

const ORDERS: Record<string, 'dayFirst' | 'monthFirst' | undefined> = {
	'': undefined,
	'not set': undefined,
	'day first': 'dayFirst',
	'month first': 'monthFirst',
};

type Outcome = { refused: true } | { refused: false; result: string };

function read(kind: Kind, value: unknown, order: string): Outcome {
	const fail = (problem: string): never => {
		throw new Error(problem);
	};
	const reading = {
		timeZone: ZONE,
		dateOrder: () => ORDERS[order],
		source: () => '$json.value',
	};
	try {
		switch (kind) {
			case 'date': {
				const date = readDate(value, { zone: ZONE, dateOrder: () => ORDERS[order] });
				if (!date.ok) return { refused: true };
				return { refused: false, result: date.value.toISO() ?? '' };
			}
			case 'amount':
				return {
					refused: false,
					result: String(checkValue({ kind: 'amount' }, value, reading, fail)),
				};
			case 'count':
				return {
					refused: false,
					result: String(
						checkValue({ kind: 'integer', min: 1, max: 100_000_000 }, value, reading, fail),
					),
				};
			case 'key':
				return { refused: false, result: keyText(value) };
		}
	} catch {
		return { refused: true };
	}
}

/** What the page says the value becomes, in the terms `read` gives it. */
function expected(kind: Kind, cell: string, values: unknown[]): Outcome | string {
	const text = plainText(cell);
	if (/^refused\b/i.test(text)) return { refused: true };
	switch (kind) {
		case 'date': {
			const match = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}(?::\d{2})?))?( UTC)?/.exec(text);
			if (!match) return `"${cell}" is neither "refused" nor a date`;
			const zone = match[3] ? 'UTC' : ZONE;
			const date = DateTime.fromISO(`${match[1]}T${match[2] ?? '00:00'}`, { zone });
			return { refused: false, result: date.setZone(ZONE).toISO() ?? '' };
		}
		case 'amount':
		case 'count': {
			const match = /^-?\d+(\.\d+)?/.exec(text.replace(/,/g, ''));
			if (!match) return `"${cell}" is neither "refused" nor a number`;
			return { refused: false, result: String(Number(match[0])) };
		}
		case 'key': {
			if (/^as written/i.test(text)) return { refused: false, result: 'as written' };
			const span = codeSpans(cell)[0];
			if (span === undefined) return `"${cell}" names no key text`;
			void values;
			return { refused: false, result: span };
		}
	}
}

interface Example {
	page: string;
	line: number;
	kind: Kind;
	value: unknown;
	order: string;
	says: string;
}

function examples(): Example[] {
	const found: Example[] = [];
	for (const page of USER_PAGES) {
		for (const table of tables(readPage(page))) {
			const kind = kindOf(table);
			if (!kind) continue;
			const orderColumn = table.header.findIndex((cell) => /date order/i.test(plainText(cell)));
			for (const row of table.rows) {
				const spans = codeSpans(row.cells[0]);
				const says = row.cells[row.cells.length - 1];
				const order = orderColumn >= 0 ? plainText(row.cells[orderColumn]).toLowerCase() : '';
				for (const span of spans) {
					found.push({ page, line: row.line, kind, value: valueOf(span), order, says });
				}
			}
		}
	}
	return found;
}

const all = examples();

describe('value examples in the users’ tables read as the page says', () => {
	test('the pages hold examples of every kind', () => {
		const kinds = new Set(all.map((example) => example.kind));
		expect([...kinds].sort()).toEqual(['amount', 'count', 'date', 'key']);
	});

	test.each(
		all.map(
			(example) =>
				[
					`${example.page}:${example.line} ${example.kind} ${JSON.stringify(example.value)}${example.order ? ` (${example.order})` : ''}`,
					example,
				] as const,
		),
	)('%s', (_name, example) => {
		expect(Object.keys(ORDERS)).toContain(example.order);
		const want = expected(example.kind, example.says, [example.value]);
		if (typeof want === 'string') throw new Error(`${example.page}:${example.line}: ${want}`);
		const got = read(example.kind, example.value, example.order);
		if (!want.refused && want.result === 'as written') {
			expect(got).toEqual({ refused: false, result: String(example.value) });
			return;
		}
		expect(got).toEqual(want);
	});
});
