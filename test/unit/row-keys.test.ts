/**
 * The text a row's key is made of (idempotency/keyText.ts keyText, keyOfValues) and the exact key of
 * a given row. These keys are what the API remembers: once released they must never change, so the
 * literal keys below are pinned, not computed.
 *
 * The rule they pin (docs/idempotency.md): one action is one operation on one record for one row,
 * and, for a to-do, its name; the node's name, the workflow and the execution play no part.
 * Key: UUID v5("action" · method · path · a to-do's name or nothing · the row's identity), in the
 * package's namespace; a tool call keyed by its arguments: UUID v5("call" · method · path · body).
 */
import { v5 as uuidV5Reference } from 'uuid';

import { idempotencyHelpers } from '../node/package-modules';

const { keyText, keyOfValues, chooseIdempotencyKey, IDEMPOTENCY_NAMESPACE } = idempotencyHelpers;

/** An item's identity in n8n: none of it goes into a row's key. */
const identity = (overrides: Record<string, unknown> = {}) => ({
	instanceId: 'i',
	workflowId: 'w',
	rootExecutionId: 'e',
	nodeId: 'n',
	runIndex: 0,
	itemIndex: 0,
	inProcessToolCall: false,
	...overrides,
});

const ACQUISITION = { noun: 'an acquisition' };
const TODO = { noun: 'a to-do', distinguishedBy: 'name' };
const BILLING = { noun: 'a billing change' };

/** The key an acquisition of asset 1001 sends for a row's identity. */
const acquisitionKey = (rowId: string, item: Record<string, unknown> = {}) =>
	chooseIdempotencyKey(
		{ kind: 'row', rowId, row: { keyValues: {}, name: '' } },
		identity(item),
		{ method: 'POST', path: '/api/v1/assets/1001/acquisitions', body: { price: '1' } },
		ACQUISITION,
	);

/** The key a to-do named `name` on asset 1001 sends for a row's identity. */
const todoKey = (name: string, rowId: string, item: Record<string, unknown> = {}) =>
	chooseIdempotencyKey(
		{ kind: 'row', rowId, row: { keyValues: {}, name: '' } },
		identity(item),
		{ method: 'POST', path: '/api/v1/assets/1001/todos', body: { name, notes: 'x' } },
		TODO,
	);

describe('a value as the text of its key', () => {
	test('a number and that number as text are one value', () => {
		for (const value of [1001, '1001', ' 1001 ', '\t1001\n', '1001.0', '1001.00', '\ufeff1001'])
			expect(keyText(value)).toBe('1001');
		expect(keyText(0)).toBe('0');
		expect(keyText('0.0')).toBe('0');
		expect(keyText(-3)).toBe('-3');
		expect(keyText('-3.0')).toBe('-3');
		expect(keyText(12.5)).toBe('12.5');
		expect(keyText('12.5')).toBe('12.5');
	});

	test('other text is an identity, kept as written', () => {
		expect(keyText('007')).toBe('007');
		expect(keyText(7)).toBe('7');
		expect(keyText('007.0')).toBe('007.0');
		expect(keyText('1.10')).toBe('1.10');
		expect(keyText('1,001')).toBe('1,001');
		expect(keyText('PO-7')).toBe('PO-7');
		expect(keyText('PO 7')).toBe('PO 7');
		expect(keyText('1001.5')).toBe('1001.5');
	});

	test('white space and invisible characters around a value are no part of it; nothing is empty', () => {
		expect(keyText('\u00a0PO-7\u200b')).toBe('PO-7');
		expect(keyText(' \u200b ')).toBe('');
		expect(keyText(null)).toBe('');
		expect(keyText(undefined)).toBe('');
		expect(keyText(true)).toBe('true');
		expect(keyText({ a: 1 })).toBe('{"a":1}');
	});

	test('several values: the JSON list of their texts, the same for numbers and text', () => {
		expect(keyOfValues([1001, 2])).toBe('["1001","2"]');
		expect(keyOfValues(['1001', '2'])).toBe('["1001","2"]');
		expect(keyOfValues([' 1001 ', '2.0'])).toBe('["1001","2"]');
		expect(keyOfValues(['PO-7', 1])).toBe('["PO-7","1"]');
		expect(keyOfValues(['007', 2])).toBe('["007","2"]');
		expect(keyOfValues([1001])).toBe('1001');
	});
});

describe('the exact key of a row (pinned: these keys must never change)', () => {
	test('po_number 1001, line 2: as numbers (Google Sheets), as text (a CSV), with spaces', () => {
		const pinned = '3ee2de25-9b0b-5583-8858-be6a23262e4a';
		expect(acquisitionKey(keyOfValues([1001, 2]))).toBe(pinned);
		expect(acquisitionKey(keyOfValues(['1001', '2']))).toBe(pinned);
		expect(acquisitionKey(keyOfValues([' 1001 ', '2']))).toBe(pinned);
		expect(
			uuidV5Reference(
				['action', 'POST', '/api/v1/assets/1001/acquisitions', '', '["1001","2"]'].join('\n'),
				IDEMPOTENCY_NAMESPACE,
			),
		).toBe(pinned);
	});

	test('po_number 1001 alone: as a number or as text', () => {
		const pinned = 'ecdf5825-6392-5789-b4f6-53e2e39ec3d8';
		expect(acquisitionKey(keyOfValues([1001]))).toBe(pinned);
		expect(acquisitionKey(keyOfValues(['1001']))).toBe(pinned);
		expect(acquisitionKey(keyOfValues(['1001.0']))).toBe(pinned);
	});

	test('"007" and 7 are two rows', () => {
		expect(acquisitionKey(keyOfValues(['007']))).not.toBe(acquisitionKey(keyOfValues([7])));
	});

	test("nothing cosmetic: the workflow, the node's id, the execution, the run and the item play no part", () => {
		const pinned = 'ecdf5825-6392-5789-b4f6-53e2e39ec3d8';
		expect(
			acquisitionKey('1001', {
				workflowId: 'a copy of the workflow',
				nodeId: 'a renamed or pasted node',
				rootExecutionId: 'another execution',
				runIndex: 3,
				itemIndex: 7,
			}),
		).toBe(pinned);
	});

	test("a to-do's name tells two to-dos for one row on one record apart; the body's other fields do not", () => {
		const tag = 'baf7c019-b131-5c58-8722-f48283e5f977';
		const warranty = 'c78d3786-f545-5267-924c-9cf66afa31ab';
		expect(todoKey('Tag and label', 'PO-7')).toBe(tag);
		expect(todoKey(' Tag and label ', 'PO-7')).toBe(tag);
		expect(todoKey('Register warranty', 'PO-7')).toBe(warranty);
		expect(
			uuidV5Reference(
				['action', 'POST', '/api/v1/assets/1001/todos', 'Register warranty', 'PO-7'].join('\n'),
				IDEMPOTENCY_NAMESPACE,
			),
		).toBe(warranty);
		expect(
			chooseIdempotencyKey(
				{ kind: 'row', rowId: 'PO-7', row: { keyValues: {}, name: '' } },
				identity(),
				{
					method: 'POST',
					path: '/api/v1/assets/1001/todos',
					body: { name: 'Tag and label', notes: 'other notes', due_date: '2026-12-31' },
				},
				TODO,
			),
		).toBe(tag);
	});

	test('a billing change: one per subscription and row, its values no part of the key', () => {
		const billingKey = (cost: number) =>
			chooseIdempotencyKey(
				{ kind: 'row', rowId: 'design-suite-seats-25-to-30', row: { keyValues: {}, name: '' } },
				identity(),
				{ method: 'PUT', path: '/api/v1/subscriptions/2001/billing', body: { cost } },
				BILLING,
			);
		expect(billingKey(100)).toBe('07c6cf9b-0065-535a-91f5-37668da9242b');
		expect(billingKey(120)).toBe('07c6cf9b-0065-535a-91f5-37668da9242b');
	});

	test('no row identity (Key Columns left empty): the execution, node, run and item, as with Only Retries of This Execution', () => {
		const { deriveIdempotencyKey } = idempotencyHelpers;
		const item = identity({ rootExecutionId: 'exec-7', itemIndex: 2 });
		const key = chooseIdempotencyKey(
			{ kind: 'execution' },
			item,
			{ method: 'PUT', path: '/api/v1/subscriptions/2001/billing', body: { cost: 100 } },
			BILLING,
		);
		expect(key).toBe(deriveIdempotencyKey(item));
		expect(key).not.toBe(deriveIdempotencyKey({ ...item, rootExecutionId: 'exec-8' }));
	});
});

describe("a tool call keyed by its arguments (pinned: independent of the order of a body's fields)", () => {
	const { callActionKey, canonicalJson } = idempotencyHelpers;
	const request = (body: Record<string, unknown>) => ({
		method: 'post',
		path: '/api/v1/assets/1001/acquisitions',
		body,
	});

	test("canonical JSON sorts every object's keys and leaves out undefined fields", () => {
		expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: null }], c: 'x' }, z: undefined })).toBe(
			'{"a":{"c":"x","d":[2,{"e":null,"f":1}]},"b":1}',
		);
	});

	test('the same request with its fields in another order is the same call', () => {
		const pinned = callActionKey(request({ event_type_id: 301, price: '1249.00' }));
		expect(pinned).toBe('9c5571a4-2c0f-5309-b72f-bfb62a4185b5');
		expect(
			uuidV5Reference(
				[
					'call',
					'POST',
					'/api/v1/assets/1001/acquisitions',
					'{"event_type_id":301,"price":"1249.00"}',
				].join('\n'),
				IDEMPOTENCY_NAMESPACE,
			),
		).toBe(pinned);
		expect(callActionKey(request({ price: '1249.00', event_type_id: 301 }))).toBe(pinned);
		expect(callActionKey(request({ price: '1249.01', event_type_id: 301 }))).not.toBe(pinned);
	});
});
