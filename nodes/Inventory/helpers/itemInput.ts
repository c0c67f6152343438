import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { withCheckReason } from '../transport/errors';
import type { Field, FieldCheck, Subject } from './fields';
import { checkValue, isEmptyValue, type RequestValue } from './validation';

/** Reads the parameters of one input item through their checks; every problem names the field and the item. */
export class ItemInput {
	constructor(
		private readonly context: IExecuteFunctions,
		readonly itemIndex: number,
	) {}

	/** Ends the item: the message names the field and the item, the description its parameter and API field. */
	fail({ label, parameter, apiField, reasonPath }: Subject, problem: string): never {
		const where = parameter
			? `Parameter "${parameter}"${apiField ? ` (API field "${apiField}")` : ''}. `
			: '';
		throw withCheckReason(
			new NodeOperationError(
				this.context.getNode(),
				`${label} ${problem} [item ${this.itemIndex}]`,
				{
					itemIndex: this.itemIndex,
					description: `${where}Nothing was sent to the Inventory API for this item.`,
				},
			),
			reasonPath ?? apiField ?? parameter ?? label,
			problem,
		);
	}

	/**
	 * Checks one value. An empty one (null, blank, white space) is left out, as undefined, unless the
	 * field is required.
	 */
	value(field: FieldCheck, value: unknown, required = field.required): RequestValue | undefined {
		if (isEmptyValue(value)) {
			if (required)
				this.fail(field, `is required${field.requiredWhen ? ` ${field.requiredWhen}` : ''}`);
			return undefined;
		}
		return checkValue(field.check, value, this.context.getTimezone(), (problem) =>
			this.fail(field, problem),
		);
	}

	/** A top-level parameter, checked. */
	parameter(field: Field): RequestValue | undefined {
		return this.value(field, this.topLevel(field));
	}

	private topLevel(field: Field): unknown {
		return this.context.getNodeParameter(field.parameter, this.itemIndex, '');
	}

	/** A field of the Options collection, checked. */
	option(field: Field): RequestValue | undefined {
		return this.value(
			field,
			this.context.getNodeParameter(`options.${field.parameter}`, this.itemIndex, ''),
		);
	}

	/** A collection parameter ("additionalFields", "options"); empty when not set. */
	collection(name: string): IDataObject {
		const value = this.context.getNodeParameter(name, this.itemIndex, {});
		if (value === null || value === undefined) return {};
		if (typeof value !== 'object' || Array.isArray(value))
			this.fail({ label: name }, 'must be a collection of fields');
		return value as IDataObject;
	}

	/** The node's version in the workflow (saved workflows keep the version they were built with). */
	get nodeVersion(): number {
		return this.context.getNode().typeVersion;
	}

	/**
	 * A request body: the checked values of the top-level fields, then of those under Additional Fields
	 * (`additionalValues`, by default the collection as set), each under its API field, in this order.
	 * An empty optional field is left out.
	 */
	body(
		topLevel: readonly Field[],
		additional: readonly Field[] = [],
		additionalValues?: IDataObject,
	): IDataObject {
		const body: IDataObject = {};
		const add = (field: Field, value: unknown) => {
			const withOther = field.requiredWith?.apiField;
			const checked = this.value(
				field,
				value,
				field.required || (withOther !== undefined && withOther in body),
			);
			if (checked !== undefined && field.apiField) body[field.apiField] = checked;
		};
		for (const field of topLevel) add(field, this.topLevel(field));
		if (additional.length === 0) return body;
		const additionalFields = additionalValues ?? this.collection('additionalFields');
		for (const field of additional) add(field, additionalFields[field.parameter]);
		return body;
	}
}
