import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { savedParameter } from '../values/itemInput';
import { trimForKey } from './keyText';

/**
 * What counts as the same action (the form's "Repeat Protection"): each row once across executions,
 * keyed by input columns (a tool call: by its arguments) or by an expression; or the retries of this
 * execution only.
 */
export type RepeatProtection = 'columns' | 'expression' | 'execution';

const EXPRESSION_TEXT = /\{\{[\s\S]*\}\}/;

/** `{{ $json.po_number }}` → `po_number`, for a message that says what to write instead. */
function columnOfExpression(text: string): string | undefined {
	return /^\s*\{\{\s*\$json(?:\.([A-Za-z_$][\w$]*)|\[\s*['"]([^'"]+)['"]\s*\])\s*\}\}\s*$/
		.exec(text)
		?.slice(1)
		.find(Boolean);
}

/**
 * A key field whose saved value is fixed text holding `{{ … }}`: n8n's editor keeps text typed into a
 * field in Fixed mode as it is, so every row would send the same key. Refused before anything is sent.
 */
function refuseExpressionAsText(
	context: IExecuteFunctions,
	path: string,
	label: string,
	takesColumnNames: boolean,
): void {
	const raw = savedParameter(context, path);
	if (typeof raw !== 'string' || raw.startsWith('=') || !EXPRESSION_TEXT.test(raw)) return;
	const column = columnOfExpression(raw);
	const fix = takesColumnNames
		? `${label} takes the names of input columns, not an expression: write ${column ?? 'the column name'} there (or drag the column from the input panel onto the field).`
		: `Switch the field to Expression: point at it, choose "Expression" above it, and keep ${raw.trim()} (or drag the column from the input panel onto the field, which makes an expression).`;
	throw new NodeOperationError(
		context.getNode(),
		`${label} holds the expression ${raw.trim()} as fixed text, so every row would send the same key`,
		{
			description: `${fix} Nothing was sent to the Inventory API.`,
		},
	);
}

/** Where this run's keys come from. */
export interface KeySource {
	/**
	 * `columns`: the row's Key Columns (none named: the rows carry no identity, keyed by the execution); `expression`: the
	 * Row Key; `call`: a tool call's arguments (the tool variant's "Keyed by Its Arguments");
	 * `execution`: the execution, node, run and item.
	 */
	basis: 'columns' | 'expression' | 'call' | 'execution';
	/** The columns of "Each Row Once, Keyed by Columns". */
	columns: string[];
}

/** Reads the node's choice once per run; refuses an expression typed as fixed text. */
export function readKeySource(context: IExecuteFunctions, isTool: boolean): KeySource {
	const protection = context.getNodeParameter('repeatProtection', 0, 'columns') as RepeatProtection;
	if (protection === 'columns') {
		// A tool call has no input row: its arguments are its columns.
		if (isTool) return { basis: 'call', columns: [] };
		refuseExpressionAsText(context, 'keyColumns', 'Key Columns', true);
		const columns = String(context.getNodeParameter('keyColumns', 0, '') ?? '')
			.split(',')
			.map(trimForKey)
			.filter((name) => name !== '');
		return { basis: 'columns', columns };
	}
	if (protection === 'expression') refuseExpressionAsText(context, 'rowKey', 'Row Key', false);
	else if (protection !== 'execution')
		throw new NodeOperationError(
			context.getNode(),
			`The Repeat Protection "${String(protection)}" is not supported`,
		);
	return { basis: protection, columns: [] };
}
