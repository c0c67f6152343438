import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { jsonParse } from 'n8n-workflow';

import type { FieldCheck, Subject } from '../../helpers/fields';
import type { ItemInput } from '../../helpers/itemInput';
import { isEmptyValue, RECORD_ID } from '../../helpers/validation';

/**
 * The custom field values an acquisition's event type asks for, offered two ways as n8n's HTTP
 * Request node offers its body: Field ID / Value pairs, and one JSON object keyed by field ID.
 */
export const pairsProperty: INodeProperties = {
	displayName: 'Custom Field Values',
	name: 'fieldValues',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Custom Field',
	default: {},
	description:
		"Values of the custom fields the event type asks for. Numbers, true and false are sent as such; use 'Custom Field Values (JSON)' for exact types.",
	options: [
		{
			displayName: 'Field',
			name: 'values',
			values: [
				{
					displayName: 'Field ID',
					name: 'fieldId',
					type: 'string',
					default: '',
					placeholder: 'e.g. 5',
					description: 'Numeric ID of the custom field',
				},
				{
					displayName: 'Value',
					name: 'value',
					type: 'string',
					default: '',
					description: "The field's value, or the ID of one of its allowed options",
				},
			],
		},
	],
};

export const jsonProperty: INodeProperties = {
	displayName: 'Custom Field Values (JSON)',
	name: 'fieldValuesJson',
	type: 'json',
	default: '{}',
	placeholder: 'e.g. { "5": "SN-1234", "6": 42 }',
	description:
		"The same as 'Custom Field Values', as one JSON object keyed by field ID. Both can be used together as long as no field ID appears in both.",
};

const subjectOf = ({ displayName, name }: INodeProperties): Subject => ({
	label: displayName,
	parameter: name,
	apiField: 'field_values',
});
const pairs = subjectOf(pairsProperty);
const json = subjectOf(jsonProperty);

/** A field ID, checked as every record ID is; `label` says where it was given. */
const fieldId = (subject: Subject, label: string): FieldCheck => ({
	...subject,
	label,
	check: RECORD_ID,
	required: true,
});

const CANONICAL_NUMBER = /^-?(0|[1-9]\d*)(\.\d*[1-9])?$/;

/** A pair's text value as the API most likely wants it: numbers and booleans typed, the rest text. */
function typedPairValue(value: unknown): unknown {
	if (typeof value !== 'string') return value;
	if (CANONICAL_NUMBER.test(value) && Number.isSafeInteger(Math.trunc(Number(value))))
		return Number(value);
	if (value === 'true' || value === 'false') return value === 'true';
	return value;
}

function parseJsonValues(input: ItemInput, text: unknown): IDataObject {
	let parsed: unknown = text;
	if (typeof text === 'string') {
		try {
			parsed = jsonParse(text);
		} catch {
			input.fail(json, 'is not valid JSON');
		}
	}
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		input.fail(json, 'must be a JSON object keyed by field ID, like { "5": "SN-1234" }');
	}
	return parsed as IDataObject;
}

/** The `field_values` object from the JSON and the pairs of Additional Fields; undefined when neither is given. */
export function readFieldValues(
	input: ItemInput,
	additionalFields: IDataObject,
): IDataObject | undefined {
	const fieldValues: IDataObject = {};
	if (!isEmptyValue(additionalFields.fieldValuesJson)) {
		for (const [key, value] of Object.entries(
			parseJsonValues(input, additionalFields.fieldValuesJson),
		)) {
			fieldValues[String(input.value(fieldId(json, `${json.label}: key "${key}"`), key))] = value;
		}
	}
	const given =
		(additionalFields.fieldValues as { values?: IDataObject[] } | undefined)?.values ?? [];
	for (const pair of given) {
		const id = String(input.value(fieldId(pairs, `${pairs.label}: Field ID`), pair.fieldId));
		if (id in fieldValues) input.fail(pairs, `give field ${id} more than once`);
		fieldValues[id] = typedPairValue(pair.value) as IDataObject[string];
	}
	return Object.keys(fieldValues).length > 0 ? fieldValues : undefined;
}
