/**
 * The text a row's key is made of (idempotency/keys.ts keyText, keyOfValues) and the exact key of
 * a given row. These keys are what the API remembers: once released they must never change, so the
 * literal keys below are pinned, not computed.
 */
import { v5 as uuidV5Reference } from 'uuid';

import { idempotencyHelpers } from '../node/package-modules';

const { keyText, keyOfValues, chooseIdempotencyKey, IDEMPOTENCY_NAMESPACE } = idempotencyHelpers;

/** The key of a business id on an acquisition of asset 1001, as the node sends it. */
const acquisitionKey = (businessId: string) =>
	chooseIdempotencyKey(
		businessId,
		{
			instanceId: 'i',
			workflowId: 'w',
			rootExecutionId: 'e',
			nodeId: 'n',
			runIndex: 0,
			itemIndex: 0,
			inProcessToolCall: false,
		},
		{ method: 'POST', path: '/api/v1/assets/1001/acquisitions', body: {} },
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
		const pinned = '49492d4d-2eda-517b-aa37-0f4d036eaa0e';
		expect(acquisitionKey(keyOfValues([1001, 2]))).toBe(pinned);
		expect(acquisitionKey(keyOfValues(['1001', '2']))).toBe(pinned);
		expect(acquisitionKey(keyOfValues([' 1001 ', '2']))).toBe(pinned);
		// UUID v5 of "business", the method, the path and the business id, in the package's namespace
		expect(
			uuidV5Reference(
				['business', 'POST', '/api/v1/assets/1001/acquisitions', '["1001","2"]'].join('\n'),
				IDEMPOTENCY_NAMESPACE,
			),
		).toBe(pinned);
	});

	test('po_number 1001 alone: as a number or as text', () => {
		const pinned = '0ec9bc78-6dba-53fe-b98d-1e612d69592d';
		expect(acquisitionKey(keyOfValues([1001]))).toBe(pinned);
		expect(acquisitionKey(keyOfValues(['1001']))).toBe(pinned);
		expect(acquisitionKey(keyOfValues(['1001.0']))).toBe(pinned);
	});

	test('"007" and 7 are two rows', () => {
		expect(acquisitionKey(keyOfValues(['007']))).not.toBe(acquisitionKey(keyOfValues([7])));
	});
});
