/**
 * A number field's range is stated once, in its form property: the check of `INTEGER_IN_FORM_RANGE`
 * is read from the property's `typeOptions`, so the form and the check cannot drift apart.
 */
import type { INodeProperties } from 'n8n-workflow';

import type * as FieldsModule from '../../nodes/Inventory/values/field';
import { fromDist } from '../harness/engine';

const { field, INTEGER_IN_FORM_RANGE } = fromDist(
	'./nodes/Inventory/values/field.js',
) as typeof FieldsModule;

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

describe("a description's range is its check's", () => {
	const text = (description: string): INodeProperties => ({
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		description,
	});

	test('a description stating the range of the check declares the field', () => {
		expect(
			field({
				property: text('What to do, up to 255 characters'),
				check: { kind: 'text', maxLength: 255 },
			}).check,
		).toEqual({ kind: 'text', maxLength: 255 });
		expect(
			field({
				property: {
					...count({ minValue: 1, maxValue: 100_000_000 }),
					description: 'Seats, 1 to 100,000,000',
				},
				check: INTEGER_IN_FORM_RANGE,
			}).check,
		).toEqual({ kind: 'integer', min: 1, max: 100_000_000 });
	});

	test('a description stating another range is a declaration error, naming both', () => {
		expect(() =>
			field({
				property: text('What to do, up to 200 characters'),
				check: { kind: 'text', maxLength: 255 },
			}),
		).toThrow(
			'Field "name": its description must state "up to 255 characters", not "up to 200 characters"',
		);
		expect(() =>
			field({
				property: { ...count({ minValue: 2, maxValue: 7 }), description: 'Seats, 1 to 7' },
				check: INTEGER_IN_FORM_RANGE,
			}),
		).toThrow('Field "seats": its description must state "2 to 7", not "1 to 7"');
		expect(() => field({ property: text('Price, 0 to 1,000'), check: { kind: 'amount' } })).toThrow(
			'Field "name": its description must state "0 to 999,999,999.99", not "0 to 1,000"',
		);
	});

	test("a text field's description states its length: the form does not enforce it", () => {
		expect(() =>
			field({ property: text('What to do'), check: { kind: 'text', maxLength: 255 } }),
		).toThrow('Field "name": its description must state "up to 255 characters"');
	});
});
