import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { Check } from './checks';

/** The names a problem calls a field by: the label in the message, the parameter and API field in its description. */
export interface FieldNames {
	label: string;
	parameter?: string;
	apiField?: string;
	/** Where the API would name it among its per-field reasons when that is below the API field (`field_values.5`). */
	reasonPath?: string;
}

/** What checking a value needs: the check, the names for messages, and whether it may be empty. */
export interface FieldCheck extends FieldNames {
	check: Check;
	required: boolean;
	/** Why it is required when only some inputs require it, e.g. "with the Per License price model". */
	requiredWhen?: string;
	/** The field whose presence in the request makes this one required, e.g. Payment for Billing Frequency. */
	requiredWith?: Field;
}

/** One parameter: the form property n8n shows and the check its value goes through. */
export interface Field extends FieldCheck {
	parameter: string;
	property: INodeProperties;
}

/** A whole number within the range its form property states (`typeOptions` minValue and maxValue). */
export const INTEGER_IN_FORM_RANGE = { kind: 'integerInFormRange' } as const;

/** One of the options its form property lists (`options`), given by value or by name. */
export const ONE_OF_FORM_OPTIONS = { kind: 'oneOfFormOptions' } as const;

/**
 * How an operation file declares a field: the form property as a plain `INodeProperties` literal (so
 * n8n's lint reads it), the check beside it, and the request body field it fills.
 */
export interface FieldDeclaration {
	property: INodeProperties;
	/**
	 * A number field's range and a choice's options are stated once, in its property:
	 * `INTEGER_IN_FORM_RANGE` and `ONE_OF_FORM_OPTIONS` check them.
	 */
	check: Check | typeof INTEGER_IN_FORM_RANGE | typeof ONE_OF_FORM_OPTIONS;
	/** The request body field the value fills; none for the record in the path. */
	apiField?: string;
	/**
	 * Required only when another parameter has a value, e.g. "with the Per License price model": the
	 * node requires it then, and the property is not marked required, since n8n would require it (a
	 * text field left empty) whenever that parameter is an expression, whatever the row gives.
	 */
	requiredWhen?: string;
	requiredWith?: Field;
}

/** The field of a declaration: its label and parameter are the property's display name and name. */
export function field({
	property,
	check,
	apiField,
	requiredWhen,
	requiredWith,
}: FieldDeclaration): Field {
	const checked =
		check.kind === INTEGER_IN_FORM_RANGE.kind
			? formRange(property)
			: check.kind === ONE_OF_FORM_OPTIONS.kind
				? formOptions(property)
				: check;
	return {
		parameter: property.name,
		label: property.displayName,
		apiField,
		check: checked,
		required: property.required === true || requiredWhen !== undefined,
		requiredWhen: requiredWith ? `when ${requiredWith.label} is given` : requiredWhen,
		requiredWith,
		property,
	};
}

/** The integer check of a number property's form range; a property without one is a declaration error. */
function formRange({ name, typeOptions }: INodeProperties): Check {
	const min = typeOptions?.minValue;
	const max = typeOptions?.maxValue;
	if (typeof min !== 'number' || typeof max !== 'number')
		throw new Error(
			`Field "${name}": INTEGER_IN_FORM_RANGE needs typeOptions minValue and maxValue`,
		);
	return { kind: 'integer', min, max };
}

/** The options check of a choice property's list; a property without one is a declaration error. */
function formOptions({ name, options }: INodeProperties): Check {
	if (!options?.every((option) => 'value' in option))
		throw new Error(`Field "${name}": ONE_OF_FORM_OPTIONS needs a list of options`);
	return { kind: 'options', options: options as INodePropertyOptions[] };
}
