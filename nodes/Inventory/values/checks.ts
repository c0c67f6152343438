import type { INodePropertyOptions } from 'n8n-workflow';

import { checkBoolean, checkOption } from './choices/choiceChecks';
import type { CheckContext, Fail } from './checkContext';
import { checkDate } from './dates/dateCheck';
import { asOperand, OFFERED_FIXES } from './fixExpressions';
import { checkAmount, checkInteger, readFieldNumber } from './numbers/numberChecks';
import { describeValue, grouped } from './shownText';

/**
 * Amounts and counts of the request are text fields (`type: 'string'`), not n8n number inputs: n8n's
 * number input reads what is typed its own way (`12,50` became 1250, booked a hundred times over),
 * while a text field hands the node the text as typed, so a typed amount is read by the node's own
 * rules, as a sheet's value is (`12,50`, `1.079,99`, `$10.00`), or refused with the reason.
 */
export const AMOUNT: Check = { kind: 'amount' };

/** What a field's value must be; the field's form property is declared beside it (values/field.ts). */
export type Check =
	| { kind: 'text'; maxLength: number }
	| { kind: 'amount' }
	| { kind: 'integer'; min: number; max: number }
	/** Any finite number (a custom field value given as Number). */
	| { kind: 'number' }
	| { kind: 'boolean' }
	/** One of the options, given by value or by name (see optionWords); sent as the option's value. */
	| { kind: 'options'; options: readonly INodePropertyOptions[] }
	/** A list (a custom field value given as Array): a list from an expression, or JSON text like [4061, 4062]. */
	| { kind: 'list' }
	/** A calendar day, sent as `YYYY-MM-DD`. */
	| { kind: 'date' }
	/** An instant not in the future, sent as `YYYY-MM-DDThh:mm:ss±hh:mm`. */
	| { kind: 'timestamp' }
	/** A numeric record ID of the organization (asset, subscription, user, event type, custom field). */
	| { kind: 'recordId' };

export const RECORD_ID: Check = { kind: 'recordId' };

export type RequestValue = string | number | boolean | RequestValue[];

// ---- What the node reads beyond n8n's own parsing, one table per kind of rule ---------------------
//
// n8n's nodes read parameters with n8n-workflow's `tryToParse*` / `validateFieldType`: numbers with
// `Number()`, booleans as "true"/"false" in any case and 1/0, dates with Luxon (ISO 8601, SQL, HTTP,
// RFC 2822, then `Date.parse`). The node reads the same values, with these differences: what a
// spreadsheet or a form writes is taken too (numbers: values/numbers/, dates: values/dates/,
// booleans and options: values/choices/), and what could be read two ways is refused with the
// readings and the expression that reads it.

/** Nothing given: undefined, null, or text that is empty or only white space. */
export function isEmptyValue(value: unknown): boolean {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}

function checkText(value: unknown, maxLength: number, fail: Fail): string {
	if (typeof value !== 'string' && typeof value !== 'number')
		fail(`must be text, got ${describeValue(value)}`);
	const text = String(value);
	const length = [...text].length;
	if (length > maxLength)
		fail(`must be at most ${grouped(maxLength)} characters, got ${grouped(length)}`);
	return text;
}

/** Numbers separated by one separator (`4061; 4062`, `4061, 4062`): the separator. */
const LIST_TEXT = /^\s*\d+(?:\s*(?<separator>[;,|])\s*\d+)+\s*$/;

function checkList(value: unknown, context: CheckContext, fail: Fail): RequestValue[] {
	let list: unknown = value;
	if (typeof value === 'string') {
		try {
			list = JSON.parse(value) as unknown;
		} catch {
			list = undefined;
		}
	}
	if (Array.isArray(list)) return list as RequestValue[];
	const separator =
		typeof value === 'string' ? LIST_TEXT.exec(value)?.groups?.separator : undefined;
	if (separator !== undefined) {
		const source = asOperand(context.source() ?? OFFERED_FIXES.placeholder.list);
		const ids = value as string;
		return fail(
			`must be a list, got ${describeValue(value)}: give a list, e.g. [${ids.split(separator).map(Number).join(', ')}], or convert it in the expression: ${OFFERED_FIXES.listOf(source, separator)}`,
		);
	}
	return fail(`must be a list, got ${describeValue(value)}: ${OFFERED_FIXES.list}`);
}

function checkRecordId(value: unknown, fail: Fail): number {
	let id: number | undefined;
	if (typeof value === 'number') id = value;
	else if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) id = Number(value);
	if (id === undefined || !Number.isSafeInteger(id) || id < 1) {
		return fail(`must be a numeric ID (a whole number of 1 or more), got ${describeValue(value)}`);
	}
	return id;
}

/**
 * Checks a given (non-empty) value; returns what goes into the request: numbers as numbers, choices
 * as the API spells them, dates in the API's shape, in the workflow's time zone.
 */
export function checkValue(
	check: Check,
	value: unknown,
	context: CheckContext,
	fail: Fail,
): RequestValue {
	switch (check.kind) {
		case 'text':
			return checkText(value, check.maxLength, fail);
		case 'amount':
			return checkAmount(value, context, fail);
		case 'integer':
			return checkInteger(value, check.min, check.max, context, fail);
		case 'number':
			return readFieldNumber(value, 'number', context, fail).value;
		case 'boolean':
			return checkBoolean(value, fail);
		case 'options':
			return checkOption(value, check.options, fail);
		case 'list':
			return checkList(value, context, fail);
		case 'date':
		case 'timestamp':
			return checkDate(value, check.kind, context, fail);
		case 'recordId':
			return checkRecordId(value, fail);
	}
}
