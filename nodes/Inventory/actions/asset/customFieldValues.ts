import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { jsonParse } from 'n8n-workflow';

import type { FieldCheck, FieldNames } from '../../values/field';
import type { ItemInput } from '../../values/itemInput';
import { isEmptyValue, RECORD_ID, type Check } from '../../values/checks';

/**
 * How a pair's Value is sent, as n8n's Edit Fields node lets each field say its type. A pair is
 * sent as text unless it says otherwise; "auto" sends text that is a number, true or false as such,
 * other text as text.
 */
const VALUE_TYPES: Record<string, Check | 'auto'> = {
	auto: 'auto',
	string: { kind: 'text', maxLength: Number.POSITIVE_INFINITY },
	number: { kind: 'number' },
	boolean: { kind: 'boolean' },
	array: { kind: 'list' },
};

const typeOptions = [
	{
		name: 'Array',
		value: 'array',
		description: 'A list, e.g. the option IDs of a multiple choice field: [4061, 4062]',
	},
	{
		name: 'Auto-Detect',
		value: 'auto',
		description: 'A number, true or false is sent as such; other text as text',
	},
	{ name: 'Boolean', value: 'boolean', description: 'True or false (also yes/no, 1/0)' },
	{
		name: 'Number',
		value: 'number',
		description: 'A number, e.g. the option ID of a single choice field',
	},
	{ name: 'String', value: 'string', description: 'Text, sent exactly as given (e.g. 004512)' },
];

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
		"Values of the custom fields the event type asks for, each sent as the type it says; use 'Custom Field Values (JSON)' for one object",
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
					displayName: 'Type',
					name: 'type',
					type: 'options',
					default: 'string',
					options: typeOptions,
					description: 'How the value is sent',
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

const subjectOf = ({ displayName, name }: INodeProperties): FieldNames => ({
	label: displayName,
	parameter: name,
	apiField: 'field_values',
});
const pairs = subjectOf(pairsProperty);
const json = subjectOf(jsonProperty);

/** A field ID, checked as every record ID is; `label` says where it was given. */
const fieldId = (subject: FieldNames, label: string): FieldCheck => ({
	...subject,
	label,
	check: RECORD_ID,
	required: true,
});

const CANONICAL_NUMBER = /^-?(0|[1-9]\d*)(\.\d*[1-9])?$/;

/** Auto-Detect: a pair's text value as the API most likely wants it: numbers and booleans typed, the rest text. */
function guessedPairValue(value: unknown): unknown {
	if (typeof value !== 'string') return value;
	if (CANONICAL_NUMBER.test(value) && Number.isSafeInteger(Math.trunc(Number(value))))
		return Number(value);
	if (value === 'true' || value === 'false') return value === 'true';
	return value;
}

/** A pair's value sent as its Type says; an empty value is sent as given (the API decides). `path`: where its Value is. */
function typedPairValue(input: ItemInput, pair: IDataObject, id: string, path: string): unknown {
	const given = pair.type ?? 'string';
	const check =
		typeof given === 'string' && Object.hasOwn(VALUE_TYPES, given) ? VALUE_TYPES[given] : undefined;
	// The pair's field, named as the API names it among its reasons.
	const subject = {
		...pairs,
		label: `${pairs.label}: field ${id}`,
		reasonPath: `${pairs.apiField}.${id}`,
	};
	if (check === undefined)
		return input.fail(subject, `has an unknown Type ${JSON.stringify(given)}`);
	if (check === 'auto' || isEmptyValue(pair.value)) return guessedPairValue(pair.value);
	return input.value({ ...subject, check, required: false }, pair.value, false, path);
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
	try {
		// Reading nests deeper than writing can: a value that cannot be written is never sent.
		JSON.stringify(parsed);
	} catch {
		input.fail(json, 'is nested too deeply to be sent as JSON: give each field its value itself');
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
			const id = input.value(fieldId(json, `${json.label}: key "${key}"`), key);
			// A refused ID is one reason of the item (ItemInput.checked): its value is not read.
			if (id !== undefined) fieldValues[String(id)] = value;
		}
	}
	const given =
		(additionalFields.fieldValues as { values?: IDataObject[] } | undefined)?.values ?? [];
	for (const [index, pair] of given.entries()) {
		const checkedId = input.value(fieldId(pairs, `${pairs.label}: Field ID`), pair.fieldId);
		if (checkedId === undefined) continue;
		const id = String(checkedId);
		if (id in fieldValues) input.fail(pairs, `give field ${id} more than once`);
		const path = `additionalFields.${pairs.parameter}.values.${index}.value`;
		fieldValues[id] = typedPairValue(input, pair, id, path) as IDataObject[string];
	}
	return Object.keys(fieldValues).length > 0 ? fieldValues : undefined;
}
