/**
 * A number field's range is stated once, in its form property: the check of `INTEGER_IN_FORM_RANGE`
 * is read from the property's `typeOptions`, so the form and the check cannot drift apart.
 */
import type { INodeProperties } from 'n8n-workflow';

import type * as FieldsModule from '../../nodes/Inventory/values/field';
import type * as RangeWordsModule from '../../nodes/Inventory/values/rangeWords';
import { fromDist } from '../harness/engine';

const { field, INTEGER_IN_FORM_RANGE } = fromDist(
	'./nodes/Inventory/values/field.js',
) as typeof FieldsModule;
const { lengthWords, countWords, AMOUNT_RANGE } = fromDist(
	'./nodes/Inventory/values/rangeWords.js',
) as typeof RangeWordsModule;

const count = (typeOptions: INodeProperties['typeOptions']): INodeProperties => ({
	displayName: 'Seats',
	name: 'seats',
	type: 'number',
	default: 1,
	typeOptions,
});

test("the check's range is the form's", () => {
	expect(
		field({
			property: count({ minValue: 2, maxValue: 7, numberPrecision: 0 }),
			check: INTEGER_IN_FORM_RANGE,
		}).check,
	).toEqual({ kind: 'integer', min: 2, max: 7 });
});

test('a property without both ends of a range is a declaration error, named', () => {
	expect(() => field({ property: count({ minValue: 1 }), check: INTEGER_IN_FORM_RANGE })).toThrow(
		'Field "seats": INTEGER_IN_FORM_RANGE needs typeOptions minValue and maxValue',
	);
});

describe("a description states its check's range from the check's own numbers", () => {
	test('in the words a description uses', () => {
		expect(lengthWords(255)).toBe('up to 255 characters');
		expect(lengthWords(10_000)).toBe('up to 10,000 characters');
		expect(countWords({ min: 1, max: 100_000_000 })).toBe('1 to 100,000,000');
		expect(AMOUNT_RANGE).toBe('0 to 999,999,999.99');
	});

	test('a description is free text: rewording it never stops the node from loading', () => {
		const property: INodeProperties = {
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			description: 'What to do, up to 200 characters',
		};
		expect(field({ property, check: { kind: 'text', maxLength: 255 } }).check).toEqual({
			kind: 'text',
			maxLength: 255,
		});
	});
});
