import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { DateOrder } from './dateReading';
import { dateOrderOption } from './dateOrder';
import type { Field, FieldCheck, FieldNames } from './field';
import { checkValue, isEmptyValue, type CheckContext, type RequestValue } from './checks';

/**
 * The reasons of an item's failed checks, by the field as the API names it in a 422's reasons (its
 * body field, nested ones as dotted paths) or the node's parameter when the value goes into no body
 * field, so that a row refused by the node and one refused by the API are fixed the same way.
 */
const checkReasons = new WeakMap<Error, Record<string, string>>();

/** Who each failed check was about and its problem, for words addressed to an AI model (a tool call). */
export interface FailedCheck {
	subject: FieldNames;
	problem: string;
}
const failedChecks = new WeakMap<Error, FailedCheck[]>();

/** The failed checks of an item (ItemInput.checked), in the order they were made; undefined for any other error. */
export function failedChecksOf(error: Error): FailedCheck[] | undefined {
	return failedChecks.get(error);
}

/** The reasons of an item's failed checks (ItemInput.checked); undefined for any other error. */
export function checkReasonsOf(error: Error): Record<string, string> | undefined {
	return checkReasons.get(error);
}

/** One failed check, thrown by ItemInput.fail and gathered by ItemInput.value and ItemInput.checked. */
class CheckFailure extends Error {
	constructor(readonly failed: FailedCheck) {
		super(`${failed.subject.label} ${failed.problem}`);
	}
}

/** Options → Date Order of each run (its execute context), read once, from the first item. */
const dateOrders = new WeakMap<IExecuteFunctions, DateOrder | undefined>();

/** `={{ expression }}`: one expression and nothing around it. */
const ONE_EXPRESSION = /^=\s*\{\{([\s\S]*)\}\}\s*$/;

/**
 * How a hint shows the parameter's value: its expression (without `{{ }}`) when the parameter is
 * one expression, the value as a JavaScript literal when it is fixed; undefined otherwise.
 */
function sourceOf(raw: unknown): string | undefined {
	if (typeof raw === 'string' && raw.startsWith('=')) {
		const inner = ONE_EXPRESSION.exec(raw)?.[1];
		return inner === undefined || /\{\{|\}\}/.test(inner) ? undefined : inner.trim();
	}
	if (typeof raw === 'string' || typeof raw === 'number') return JSON.stringify(raw);
	return undefined;
}

/**
 * A parameter as saved in the workflow, by its dotted path (`options.dateOrder`): fixed text as
 * typed, an expression unevaluated (`={{ $json.date }}`); undefined when not saved.
 */
export function savedParameter(context: IExecuteFunctions, path: string): unknown {
	let value: unknown = context.getNode().parameters;
	for (const key of path.split('.')) {
		if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
		value = (value as Record<string, unknown>)[key];
	}
	return value;
}

/**
 * How a message names its item: by the key values of its row when it has them, so that the row is
 * found in the sheet (`[po_number PO-1009, item 3]`), and by its index (n8n counts items from 0).
 */
export function itemTag(itemIndex: number, rowName?: string): string {
	return `[${rowName ? `${rowName}, ` : ''}item ${itemIndex}]`;
}

/** Reads the parameters of one input item through their checks; every problem names the field and the item. */
export class ItemInput {
	constructor(
		private readonly context: IExecuteFunctions,
		readonly itemIndex: number,
	) {}

	/** The row named by its key values (`po_number PO-1009`), once they are read. */
	private rowName: string | undefined;

	/** Names the item's row by its key values in every message about it. */
	nameRow(rowName: string): void {
		this.rowName = rowName;
	}

	/** How messages name this item: `[po_number PO-1009, item 3]`, or `[item 3]`. */
	get tag(): string {
		return itemTag(this.itemIndex, this.rowName);
	}

	/** The failed checks of this item so far: a value that fails is left out and its reason kept. */
	private readonly failures: FailedCheck[] = [];

	/** Ends this check of the item with the problem; the item's other values are still checked (see checked). */
	fail(subject: FieldNames, problem: string): never {
		throw new CheckFailure({ subject, problem });
	}

	/**
	 * Runs the item's checks (building its request, reading its key) and ends the item, when any
	 * failed, with every reason at once: a row with an unreadable date and a price `TBD` is told both.
	 * A check that fails outside a value (e.g. a key column missing) ends the steps there.
	 */
	checked<T>(steps: () => T): T {
		let result: T | undefined;
		try {
			result = steps();
		} catch (caught) {
			if (!(caught instanceof CheckFailure)) throw this.asItemError(caught);
			this.failures.push(caught.failed);
		}
		if (this.failures.length > 0) throw this.refusal(this.failures);
		return result as T;
	}

	/** Any other error on the way: n8n's error as it is, anything else as this item's. */
	private asItemError(caught: unknown): NodeOperationError | NodeApiError {
		return caught instanceof NodeOperationError || caught instanceof NodeApiError
			? caught
			: new NodeOperationError(this.context.getNode(), caught as Error, {
					itemIndex: this.itemIndex,
				});
	}

	/**
	 * The item's error for these failed checks: the message names each field and the item, the
	 * description each parameter and API field, `details.reasons` holds one reason per field.
	 */
	refusal(failures: readonly FailedCheck[]): NodeOperationError {
		const where = failures
			.filter(({ subject }) => subject.parameter)
			.map(
				({ subject: { parameter, apiField } }) =>
					`Parameter "${parameter}"${apiField ? ` (API field "${apiField}")` : ''}. `,
			);
		const error = new NodeOperationError(
			this.context.getNode(),
			failures.map(({ subject, problem }) => `${subject.label} ${problem} ${this.tag}`).join('; '),
			{
				itemIndex: this.itemIndex,
				description: `${[...new Set(where)].join('')}Nothing was sent to the Inventory API for this item.`,
			},
		);
		const reasons: Record<string, string> = {};
		for (const { subject, problem } of failures) {
			const { label, parameter, apiField, reasonPath } = subject;
			const field = reasonPath ?? apiField ?? parameter ?? label;
			reasons[field] = reasons[field] ? `${reasons[field]}; ${problem}` : problem;
		}
		checkReasons.set(error, reasons);
		failedChecks.set(error, [...failures]);
		return error;
	}

	/**
	 * Checks one value. An empty one (null, blank, white space) is left out, as undefined, unless the
	 * field is required; one that fails its check is left out too, its reason kept for checked(). `path`: where the parameter is (`additionalFields.eventDate`), so that a
	 * message's fix is built on the expression that gives the value.
	 */
	value(
		field: FieldCheck,
		value: unknown,
		required = field.required,
		path?: string | (() => string | undefined),
	): RequestValue | undefined {
		try {
			if (isEmptyValue(value)) {
				if (required)
					this.fail(field, `is required${field.requiredWhen ? ` ${field.requiredWhen}` : ''}`);
				return undefined;
			}
			return checkValue(field.check, value, this.checkContext(path), (problem) =>
				this.fail(field, problem),
			);
		} catch (caught) {
			if (!(caught instanceof CheckFailure)) throw this.asItemError(caught);
			// Left out of the request, which is not sent: checked() ends the item with every reason.
			this.failures.push(caught.failed);
			return undefined;
		}
	}

	private checkContext(path: string | (() => string | undefined) | undefined): CheckContext {
		return {
			timeZone: this.context.getTimezone(),
			dateOrder: () => this.dateOrder(),
			source: () => {
				const where = typeof path === 'function' ? path() : path;
				return where === undefined ? undefined : sourceOf(savedParameter(this.context, where));
			},
			evaluate: (expression) => this.context.evaluateExpression(expression, this.itemIndex),
		};
	}

	/** Options → Date Order, read once per run from the first item, as the other run options are. */
	private dateOrder(): DateOrder | undefined {
		if (!dateOrders.has(this.context)) {
			const first = new ItemInput(this.context, 0);
			dateOrders.set(
				this.context,
				first.checked(() => first.option(dateOrderOption)) as DateOrder | undefined,
			);
		}
		return dateOrders.get(this.context);
	}

	/** The path of a parameter under Additional Fields, also inside an entry of it (Payment's terms). */
	private additionalPath(name: string): string | undefined {
		const find = (value: unknown, path: string): string | undefined => {
			if (typeof value !== 'object' || value === null) return undefined;
			if (Object.hasOwn(value, name)) return `${path}.${name}`;
			for (const [key, inner] of Object.entries(value)) {
				const found = find(inner, `${path}.${key}`);
				if (found) return found;
			}
			return undefined;
		};
		return find(savedParameter(this.context, 'additionalFields'), 'additionalFields');
	}

	/** A top-level parameter, checked. */
	parameter(field: Field): RequestValue | undefined {
		return this.value(field, this.topLevel(field), field.required, field.parameter);
	}

	private topLevel(field: Field): unknown {
		return this.context.getNodeParameter(field.parameter, this.itemIndex, '');
	}

	/** A field of the Options collection, checked. */
	option(field: Field): RequestValue | undefined {
		const path = `options.${field.parameter}`;
		return this.value(
			field,
			this.context.getNodeParameter(path, this.itemIndex, ''),
			field.required,
			path,
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
		const add = (field: Field, value: unknown, path: string | (() => string | undefined)) => {
			const withOther = field.requiredWith?.apiField;
			const checked = this.value(
				field,
				value,
				field.required || (withOther !== undefined && withOther in body),
				path,
			);
			if (checked !== undefined && field.apiField) body[field.apiField] = checked;
		};
		for (const field of topLevel) add(field, this.topLevel(field), field.parameter);
		if (additional.length === 0) return body;
		const additionalFields = additionalValues ?? this.collection('additionalFields');
		for (const field of additional)
			add(field, additionalFields[field.parameter], () => this.additionalPath(field.parameter));
		return body;
	}
}
