import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { ItemFailure, type FailedCheck } from '../model/itemFailure';
import type { InventoryRecord } from '../model/record';
import type { DateOrder } from './dates/dateReading';
import type { Field, FieldCheck, FieldNames } from './field';
import type { CheckContext } from './checkContext';
import { checkValue, isEmptyValue, type RequestValue } from './checks';

/** One failed check, thrown by ItemInput.fail and gathered by ItemInput.value and ItemInput.checked. */
class CheckFailure extends Error {
	constructor(readonly failed: FailedCheck) {
		super(`${failed.label} ${failed.problem}`);
	}
}

/** Options → Date Order of the run, read once (RunSetup); undefined when not set. */
export type RunDateOrder = () => DateOrder | undefined;

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
		/** Options → Date Order, for a date whose day and month could be either. */
		private readonly dateOrder: RunDateOrder,
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

	/**
	 * Ends this check of the item with the problem; the item's other values are still checked (see
	 * checked). `checkKind`: the kind of value the field takes, when its value failed its check.
	 */
	fail(
		{ label, parameter, apiField, reasonPath }: FieldNames,
		problem: string,
		checkKind?: string,
	): never {
		throw new CheckFailure({ label, parameter, apiField, reasonPath, checkKind, problem });
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

	/** Any other error on the way: an item's failure as it is, anything else as this item's. */
	private asItemError(caught: unknown): ItemFailure {
		return asItemFailure(this.context.getNode(), caught, this.itemIndex);
	}

	/** The item's failure for these failed checks (see checksRefusal). */
	private refusal(failures: readonly FailedCheck[]): ItemFailure {
		return checksRefusal(this.context.getNode(), this.itemIndex, this.tag, failures);
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
					this.fail(
						field,
						`is required${field.requiredWhen ? ` ${field.requiredWhen}` : ''}`,
						field.check.kind,
					);
				return undefined;
			}
			return checkValue(field.check, value, this.checkContext(path), (problem) =>
				this.fail(field, problem, field.check.kind),
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
			dateOrder: this.dateOrder,
			source: () => {
				const where = typeof path === 'function' ? path() : path;
				return where === undefined ? undefined : sourceOf(savedParameter(this.context, where));
			},
			evaluate: (expression) => this.context.evaluateExpression(expression, this.itemIndex),
		};
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

	/**
	 * The record a top-level ID parameter names. An ID that fails its check is one of the item's
	 * reasons: checked() refuses the item, and its record is never used.
	 */
	record(kind: InventoryRecord['kind'], field: Field): InventoryRecord {
		return { kind, id: this.parameter(field) as number };
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

/** A thrown value as the item's failure: an item's failure as it is, n8n's error as this item's. */
export function asItemFailure(node: INode, caught: unknown, itemIndex: number): ItemFailure {
	if (caught instanceof ItemFailure) return caught;
	return ItemFailure.beforeSending(
		caught instanceof NodeOperationError || caught instanceof NodeApiError
			? caught
			: new NodeOperationError(node, caught as Error, { itemIndex }),
	);
}

/**
 * An item's failure for its failed checks: the message names each field and the item (`tag`), the
 * description each parameter and API field, the details one reason per field; nothing was sent.
 */
export function checksRefusal(
	node: INode,
	itemIndex: number,
	tag: string,
	failures: readonly FailedCheck[],
): ItemFailure {
	const where = failures
		.filter(({ parameter }) => parameter)
		.map(
			({ parameter, apiField }) =>
				`Parameter "${parameter}"${apiField ? ` (API field "${apiField}")` : ''}. `,
		);
	const error = new NodeOperationError(
		node,
		failures.map(({ label, problem }) => `${label} ${problem} ${tag}`).join('; '),
		{
			itemIndex,
			description: `${[...new Set(where)].join('')}Nothing was sent to the Inventory API for this item.`,
		},
	);
	const reasons: Record<string, string> = {};
	for (const { label, parameter, apiField, reasonPath, problem } of failures) {
		const field = reasonPath ?? apiField ?? parameter ?? label;
		reasons[field] = reasons[field] ? `${reasons[field]}; ${problem}` : problem;
	}
	return ItemFailure.beforeSending(error, reasons, failures);
}
