import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { MAX_AMOUNT, RECORD_ID, type Check } from './validation';

/** Who a problem is about: the name shown in the message, the parameter and API field in its description. */
export interface Subject {
	label: string;
	parameter?: string;
	apiField?: string;
}

/** What checking a value needs: the check, the names for messages, and whether it may be empty. */
export interface FieldCheck extends Subject {
	check: Check;
	required: boolean;
	/** Why it is required when only some inputs require it, e.g. "with the Per License price model". */
	requiredWhen?: string;
	/** The field whose presence in the request makes this one required, e.g. Payment for Billing Frequency. */
	requiredWith?: Field;
}

/** One parameter, declared once: the form property n8n shows and the check its value goes through. */
export interface Field extends FieldCheck {
	parameter: string;
	property: INodeProperties;
}

/** What a declaration states; the builders below add the form type, default and range from the check. */
interface Declaration {
	name: string;
	displayName: string;
	description?: string;
	/** The request body field the value fills; none for the record in the path. */
	apiField?: string;
	placeholder?: string;
	/** Shown under the field: what a short description leaves out (n8n's style for long texts). */
	hint?: string;
	required?: boolean;
	requiredWhen?: string;
	requiredWith?: Field;
	displayOptions?: IDisplayOptions;
}

function declare(
	declaration: Declaration,
	check: Check,
	form: Pick<INodeProperties, 'type' | 'default' | 'typeOptions'>,
): Field {
	const { apiField, requiredWhen, requiredWith, ...property } = declaration;
	return {
		parameter: declaration.name,
		label: declaration.displayName,
		apiField,
		check,
		required: declaration.required === true,
		requiredWhen: requiredWith ? `when ${requiredWith.label} is given` : requiredWhen,
		requiredWith,
		property: { ...property, ...form },
	};
}

export function recordIdField(declaration: Declaration): Field {
	return declare(declaration, RECORD_ID, { type: 'string', default: '' });
}

export function textField(declaration: Declaration & { maxLength: number; rows?: number }): Field {
	const { maxLength, rows, ...rest } = declaration;
	const form = rows ? { typeOptions: { rows } } : {};
	return declare(rest, { kind: 'text', maxLength }, { type: 'string', default: '', ...form });
}

export function amountField(declaration: Declaration): Field {
	const typeOptions = { minValue: 0, maxValue: MAX_AMOUNT, numberPrecision: 2 };
	return declare(declaration, { kind: 'amount' }, { type: 'number', default: 0, typeOptions });
}

export function integerField(
	declaration: Declaration & { min: number; max: number; default: number },
): Field {
	const { min, max, default: byDefault, ...rest } = declaration;
	const typeOptions = { minValue: min, maxValue: max, numberPrecision: 0 };
	return declare(
		rest,
		{ kind: 'integer', min, max },
		{ type: 'number', default: byDefault, typeOptions },
	);
}

export function booleanField(declaration: Declaration): Field {
	return declare(declaration, { kind: 'boolean' }, { type: 'boolean', default: false });
}

/** A date picker whose value is sent as the calendar day. */
export function dateField(declaration: Declaration): Field {
	return declare(declaration, { kind: 'date' }, { type: 'dateTime', default: '' });
}

/** A date picker whose value is sent as the instant with its offset; never in the future. */
export function timestampField(declaration: Declaration): Field {
	return declare(declaration, { kind: 'timestamp' }, { type: 'dateTime', default: '' });
}

/**
 * A choice among `options`, given in the API's order (which error messages list); the form lists them
 * by name, as n8n's style asks.
 */
export function optionsField(
	declaration: Declaration & { options: INodePropertyOptions[]; default: string },
): Field {
	const { options, default: byDefault, ...rest } = declaration;
	const values = options.map(({ value }) => String(value));
	const field = declare(rest, { kind: 'options', values }, { type: 'options', default: byDefault });
	field.property.options = [...options].sort((a, b) => a.name.localeCompare(b.name));
	return field;
}

/** The same field shown elsewhere in the form, e.g. required at the top under one condition. */
export function variant(
	field: Field,
	changes: Pick<Declaration, 'description' | 'required' | 'requiredWhen' | 'displayOptions'>,
): Field {
	const { requiredWhen, ...property } = changes;
	return {
		...field,
		required: changes.required ?? field.required,
		requiredWhen: requiredWhen ?? field.requiredWhen,
		property: { ...field.property, ...property },
	};
}

/** A collection parameter ("Additional Fields", "Options"): its entries listed by display name, as n8n's style asks. */
export function collection(
	name: string,
	displayName: string,
	placeholder: string,
	entries: ReadonlyArray<Field | INodeProperties>,
): INodeProperties {
	const options = entries.map((entry) => ('property' in entry ? entry.property : entry));
	options.sort((a, b) => a.displayName.localeCompare(b.displayName));
	return { displayName, name, type: 'collection', placeholder, default: {}, options };
}

/** The "Additional Fields" collection of an operation: its optional request fields. */
export function additionalFields(entries: ReadonlyArray<Field | INodeProperties>): INodeProperties {
	return collection('additionalFields', 'Additional Fields', 'Add Field', entries);
}

/** The Operation selector of one resource; the first operation is the default. */
export function operationSelector(
	resource: string,
	operations: INodePropertyOptions[],
): INodeProperties {
	const [{ value: firstOperation }] = operations;
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options: operations,
		default: firstOperation,
	};
}
