/**
 * The text a row's key is made of (idempotency/keys.ts keyText, keyOfValues) and the exact key of
 * a given row. These keys are what the API remembers: once released they must never change, so the
 * literal keys below are pinned, not computed.
 */
import { v5 as uuidV5Reference } from 'uuid';

import { idempotencyHelpers } from '../node/package-modules';

const { keyText, keyOfValues, chooseIdempotencyKey, IDEMPOTENCY_NAMESPACE } = idempotencyHelpers;

/** The key a node named "Inventory" sends for a row's identity on an acquisition of asset 1001. */
const acquisitionKey = (rowId: string, stepName = 'Inventory', executionId = 'e') =>
	chooseIdempotencyKey(
		{ kind: 'row', rowId },
		{
			instanceId: 'i',
			workflowId: 'w',
			rootExecutionId: executionId,
			nodeId: 'n',
			stepName,
			runIndex: 0,
			itemIndex: 0,
			inProcessToolCall: false,
		},
		{ method: 'POST', path: '/api/v1/assets/1001/acquisitions', body: { price: '1' } },
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
		const pinned = 'fb0b0a88-2857-502a-a2b3-52e3b88d42eb';
		expect(acquisitionKey(keyOfValues([1001, 2]))).toBe(pinned);
		expect(acquisitionKey(keyOfValues(['1001', '2']))).toBe(pinned);
		expect(acquisitionKey(keyOfValues([' 1001 ', '2']))).toBe(pinned);
		// UUID v5 of "row", the step's name, the method, the path and the row's identity, in the
		// package's namespace
		expect(
			uuidV5Reference(
				['row', 'Inventory', 'POST', '/api/v1/assets/1001/acquisitions', '["1001","2"]'].join('\n'),
				IDEMPOTENCY_NAMESPACE,
			),
		).toBe(pinned);
	});

	test('po_number 1001 alone: as a number or as text', () => {
		const pinned = 'd08d44f7-4094-5b3a-9eea-d9535c9b7dbb';
		expect(acquisitionKey(keyOfValues([1001]))).toBe(pinned);
		expect(acquisitionKey(keyOfValues(['1001']))).toBe(pinned);
		expect(acquisitionKey(keyOfValues(['1001.0']))).toBe(pinned);
	});

	test('"007" and 7 are two rows', () => {
		expect(acquisitionKey(keyOfValues(['007']))).not.toBe(acquisitionKey(keyOfValues([7])));
	});

	test('the step is the node by its name: another name is another action; the execution plays no part', () => {
		const pinned = 'd08d44f7-4094-5b3a-9eea-d9535c9b7dbb';
		expect(acquisitionKey('1001', 'Inventory', 'another execution')).toBe(pinned);
		expect(acquisitionKey('1001', 'Register warranty')).toBe(
			uuidV5Reference(
				['row', 'Register warranty', 'POST', '/api/v1/assets/1001/acquisitions', '1001'].join('\n'),
				IDEMPOTENCY_NAMESPACE,
			),
		);
		expect(acquisitionKey('1001', 'Register warranty')).not.toBe(pinned);
	});

	test('no Key Columns: the step acts once per record (the empty identity)', () => {
		expect(acquisitionKey('')).toBe(
			uuidV5Reference(
				['row', 'Inventory', 'POST', '/api/v1/assets/1001/acquisitions', ''].join('\n'),
				IDEMPOTENCY_NAMESPACE,
			),
		);
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
		const pinned = callActionKey(
			'Record acquisition',
			request({ event_type_id: 301, price: '1249.00' }),
		);
		expect(pinned).toBe('bd82e9de-ea48-5484-a5a3-f4bfd07e22b1');
		expect(
			uuidV5Reference(
				[
					'call',
					'Record acquisition',
					'POST',
					'/api/v1/assets/1001/acquisitions',
					'{"event_type_id":301,"price":"1249.00"}',
				].join('\n'),
				IDEMPOTENCY_NAMESPACE,
			),
		).toBe(pinned);
		expect(
			callActionKey('Record acquisition', request({ price: '1249.00', event_type_id: 301 })),
		).toBe(pinned);
		expect(
			callActionKey('Record acquisition', request({ price: '1249.01', event_type_id: 301 })),
		).not.toBe(pinned);
	});
});
