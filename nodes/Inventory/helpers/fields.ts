import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { formatDate, formatTimestamp, parseDateInput } from './dates';

export const MAX_AMOUNT = 999_999_999.99;

/** How one parameter is checked, and what it is called in messages. */
export type ParameterCheck = {
	/** n8n parameter name (camelCase of the API field). */
	parameter: string;
	/** API request field, when the parameter is one. */
	apiField?: string;
	/** The parameter's display name, used in error messages. */
	label: string;
	required?: boolean;
	/** Why the field is required, when only some inputs require it, e.g. "with Payment". */
	requiredWhen?: string;
} & (
	| { type: 'text'; maxLength: number; nonEmpty?: boolean }
	| { type: 'amount' }
	| { type: 'integer'; min: number; max: number }
	| { type: 'boolean' }
	| { type: 'options'; values: readonly string[] }
	| { type: 'date' }
	| { type: 'timestamp' }
);

/** One request field: where its value comes from, how it is checked, and what it is called. */
export type FieldDefinition = ParameterCheck & { apiField: string };

const NUMBER_TEXT = /^-?\d+(\.\d+)?$/;

function describeValue(value: unknown): string {
	if (typeof value === 'string') {
		const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
		return `"${shown}"${value.length > 40 ? ` (${value.length} characters)` : ''}`;
	}
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return 'an object';
	return String(value);
}

export function isEmptyValue(value: unknown): boolean {
	return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** Reads and checks the parameters of one input item; every problem names the field and the item. */
export class ItemInput {
	constructor(
		readonly context: IExecuteFunctions,
		readonly itemIndex: number,
	) {}

	fail(label: string, problem: string, parameter?: string, apiField?: string): never {
		const where = parameter
			? `Parameter "${parameter}"${apiField ? ` (API field "${apiField}")` : ''}. `
			: '';
		throw new NodeOperationError(
			this.context.getNode(),
			`${label} ${problem} [item ${this.itemIndex}]`,
			{
				itemIndex: this.itemIndex,
				description: `${where}Nothing was sent to the Inventory API for this item.`,
			},
		);
	}

	parameter(name: string, fallback?: unknown): unknown {
		return this.context.getNodeParameter(name, this.itemIndex, fallback);
	}

	collection(name: string): IDataObject {
		const value = this.parameter(name, {});
		if (value === null || value === undefined) return {};
		if (typeof value !== 'object' || Array.isArray(value)) {
			this.fail(name, 'must be a collection of fields');
		}
		return value as IDataObject;
	}

	/** A numeric record ID (asset, subscription, user, event type): a positive whole number. */
	recordId(value: unknown, label: string, parameter: string, apiField?: string): number {
		let id: number | undefined;
		if (typeof value === 'number') id = value;
		else if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) id = Number(value);
		if (id === undefined || !Number.isSafeInteger(id) || id < 1) {
			if (isEmptyValue(value)) this.fail(label, 'is required', parameter, apiField);
			this.fail(
				label,
				`must be a numeric ID (a whole number of 1 or more), got ${describeValue(value)}`,
				parameter,
				apiField,
			);
		}
		return id;
	}

	private number(value: unknown, field: ParameterCheck): number {
		if (typeof value === 'number' && Number.isFinite(value)) return value;
		if (typeof value === 'string' && NUMBER_TEXT.test(value.trim())) return Number(value.trim());
		return this.fail(
			field.label,
			`must be a number, got ${describeValue(value)}`,
			field.parameter,
			field.apiField,
		);
	}

	/** Checks one field's value; returns what goes into the request body. */
	value(field: ParameterCheck, value: unknown): string | number | boolean {
		const { label, parameter, apiField } = field;
		switch (field.type) {
			case 'text': {
				if (typeof value !== 'string' && typeof value !== 'number') {
					this.fail(label, `must be text, got ${describeValue(value)}`, parameter, apiField);
				}
				const text = String(value);
				if (field.nonEmpty && text.trim() === '') {
					this.fail(label, 'must not be empty', parameter, apiField);
				}
				if ([...text].length > field.maxLength) {
					this.fail(
						label,
						`must be at most ${field.maxLength.toLocaleString('en-US')} characters, got ${[...text].length.toLocaleString('en-US')}`,
						parameter,
						apiField,
					);
				}
				return text;
			}
			case 'amount': {
				const amount = this.number(value, field);
				if (amount < 0 || amount > MAX_AMOUNT) {
					this.fail(
						label,
						`must be between 0 and 999,999,999.99, got ${amount}`,
						parameter,
						apiField,
					);
				}
				if (!/^\d+(\.\d{1,2})?$/.test(String(amount))) {
					this.fail(
						label,
						`must have at most two decimal places, got ${amount}`,
						parameter,
						apiField,
					);
				}
				return amount;
			}
			case 'integer': {
				const count = this.number(value, field);
				if (!Number.isInteger(count)) {
					this.fail(label, `must be a whole number, got ${count}`, parameter, apiField);
				}
				if (count < field.min || count > field.max) {
					this.fail(
						label,
						`must be between ${field.min.toLocaleString('en-US')} and ${field.max.toLocaleString('en-US')}, got ${count}`,
						parameter,
						apiField,
					);
				}
				return count;
			}
			case 'boolean': {
				if (typeof value === 'boolean') return value;
				if (value === 'true' || value === 'false') return value === 'true';
				return this.fail(
					label,
					`must be true or false, got ${describeValue(value)}`,
					parameter,
					apiField,
				);
			}
			case 'options': {
				if (typeof value !== 'string' || !field.values.includes(value)) {
					this.fail(
						label,
						`must be one of ${field.values.join(', ')} (spelled exactly so), got ${describeValue(value)}`,
						parameter,
						apiField,
					);
				}
				return value;
			}
			case 'date':
			case 'timestamp': {
				const timeZone = this.context.getTimezone();
				const parsed = parseDateInput(value, timeZone);
				if (!parsed.ok) {
					this.fail(
						label,
						`must be a date (pick one, or give an ISO 8601 value such as 2026-03-31 or 2026-03-31T14:00:00+02:00), got ${describeValue(value)}`,
						parameter,
						apiField,
					);
				}
				if (field.type === 'date') return formatDate(parsed.value);
				if (parsed.value.toMillis() > Date.now()) {
					this.fail(
						label,
						`must not be in the future, got ${formatTimestamp(parsed.value)}`,
						parameter,
						apiField,
					);
				}
				return formatTimestamp(parsed.value);
			}
		}
	}

	/** Copies every given field of `source` into `body`, checked; required ones must be there. */
	fields(fields: readonly FieldDefinition[], source: IDataObject, body: IDataObject): void {
		for (const field of fields) {
			const value = source[field.parameter];
			if (isEmptyValue(value)) {
				if (field.required) {
					const when = field.requiredWhen ? ` ${field.requiredWhen}` : '';
					this.fail(field.label, `is required${when}`, field.parameter, field.apiField);
				}
				continue;
			}
			body[field.apiField] = this.value(field, value);
		}
	}

	/** Reads top-level parameters by name into an object `fields()` can take. */
	parameters(fields: readonly FieldDefinition[]): IDataObject {
		const values: IDataObject = {};
		for (const field of fields) values[field.parameter] = this.parameter(field.parameter, '') as never;
		return values;
	}
}
