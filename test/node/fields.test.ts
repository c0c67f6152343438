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
