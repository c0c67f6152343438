import type { NumberSpelling } from './numbers/numberText';
import { showText } from './shownText';

/**
 * The fixes a message offers for a refused value: each expression is built on the expression that
 * gives the value (ValueContext.source), so that it reads the very value refused; the message says
 * what it gives.
 */
export const OFFERED_FIXES = {
	/** What stands for the value when its expression is unknown. */
	placeholder: { date: '$json.date', number: '$json.amount', list: '$json.ids' },
	round: (number: string) => `{{ Math.round(${number} * 100) / 100 }}`,
	/** Text as JavaScript's Number() reads it, without what a sheet adds (values/numbers/numberText.ts). */
	number: (text: string, { currency, thousands, decimal }: NumberSpelling) =>
		`Number(${text}${currency ? `.replace(${jsStringLiteral(currency)}, '')` : ''}${
			thousands ? `.replaceAll(${jsStringLiteral(thousands)}, '')` : ''
		}${decimal === ',' ? ".replace(',', '.')" : ''})`,
	fromFormat: (text: string, format: string) =>
		`{{ DateTime.fromFormat(${text}, ${jsStringLiteral(format)}) }}`,
	/** Date text with other white space than single spaces, as the Luxon format reads it. */
	oneSpace: (text: string) => `${text}.trim().replace(/\\s+/g, ' ')`,
	digits: (source: string) => `{{ DateTime.fromFormat(String(${source}), 'yyyyMMdd') }}`,
	dateOrder:
		"set Options → Date Order to your sheet's order (Day First or Month First: every row is then read that way)",
	list: 'give a list, e.g. [4061, 4062], or {{ [4061, 4062] }} in an expression',
	listOf: (text: string, separator: string) =>
		`{{ ${text}.split(${jsStringLiteral(separator)}).map(Number) }}`,
} as const;

/** A JavaScript string literal of the text, in single quotes, invisible characters escaped (showText). */
export function jsStringLiteral(text: string): string {
	return `'${showText(text.replace(/[\\']/g, '\\$&'))}'`;
}

/** An expression as an operand: a path such as `$json.date` or `$json["Due date"]` as it is, others in parentheses. */
const SIMPLE_OPERAND =
	/^(?:\$[\w$]*(?:\.[\w$]+|\[(?:\d+|'[^']*'|"[^"]*")\]|\((?:'[^']*'|"[^"]*")?\))*|"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?)$/;

export const asOperand = (expression: string) =>
	SIMPLE_OPERAND.test(expression) ? expression : `(${expression})`;
