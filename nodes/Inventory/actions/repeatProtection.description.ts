import type { INodeProperties } from 'n8n-workflow';

import { ROW_KEY_PARTS } from '../idempotency/keys';

/**
 * What counts as the same action, chosen in the form: one operation on one record for one row (and a
 * to-do's name), never the node's name or the workflow (idempotency/keys.ts rowActionKey). The
 * values are read by `idempotency/keySource.ts`. The
 * tool variant (an AI agent's or MCP client's tool) keys a call by its arguments unless a Row Key
 * (e.g. `$fromAI('orderId', …)`) names the business id.
 */
export const repeatProtection: INodeProperties = {
	displayName: 'Repeat Protection',
	name: 'repeatProtection',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'Each Row Once, Keyed by an Expression',
			value: 'expression',
			description:
				'Like the columns choice, with a key you compute in an expression, e.g. the submission ID of an earlier form node',
		},
		{
			name: 'Each Row Once, Keyed by Columns',
			value: 'columns',
			description:
				'A row booked before with the same key columns, in any execution or workflow, is replayed instead of booked again: run the same sheet twice and each row is booked once',
		},
		{
			name: 'Only Retries of This Execution',
			value: 'execution',
			description:
				'Retries of this execution (Retry On Fail, Retry execution) replay; every new execution, Execute step included, books its rows again',
		},
	],
	default: 'columns',
	description: 'What counts as the same action, which the API then books only once',
	displayOptions: { show: { '@tool': [false] } },
};

/** The tool variant's choice: a call has no input row; its arguments are its columns. */
export const toolRepeatProtection: INodeProperties = {
	displayName: 'Repeat Protection',
	name: 'repeatProtection',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'Each Call Once, Keyed by an Expression',
			value: 'expression',
			description:
				"A call whose Row Key was booked before for the same operation and record, in any execution, is replayed instead of booked again, e.g. an order ID the model supplies with $fromAI('orderId')",
		},
		{
			name: 'Each Call Once, Keyed by Its Arguments',
			value: 'columns',
			description:
				"A call with the same arguments as an earlier call (the same operation on the same record with the same values), in any execution, is replayed instead of booked again: a client's retry or a repeated call books nothing twice",
		},
		{
			name: 'Only Retries of This Execution',
			value: 'execution',
			description:
				'Retries of a call in this execution replay; a call in a new execution (a new chat message, every MCP call) books again',
		},
	],
	default: 'columns',
	description: 'What counts as the same action, which the API then books only once',
	displayOptions: { show: { '@tool': [true] } },
};

export const keyColumns: INodeProperties = {
	displayName: 'Key Columns',
	name: 'keyColumns',
	type: 'string',
	requiresDataPath: 'multiple',
	default: '',
	placeholder: 'e.g. po_number, line',
	description:
		'The input columns that identify a row, separated by commas: a PO number, a form submission ID. Drag them in from the input. Left empty (an input without rows of its own, such as a Manual Trigger or a Schedule), each execution books anew and only its retries replay.',
	hint: `The Idempotency-Key is made of these values, ${ROW_KEY_PARTS}, never of the node's name or the workflow: a row booked before is replayed, not booked twice.`,
	displayOptions: {
		show: { '@tool': [false], repeatProtection: ['columns'] },
	},
};

export const rowKey: INodeProperties = {
	displayName: 'Row Key',
	name: 'rowKey',
	type: 'string',
	default: '',
	required: true,
	placeholder: "e.g. {{ $('Form').item.json.submissionId }}",
	description:
		'An expression giving each row its identity; fixed text makes the action happen once ever',
	hint: `The Idempotency-Key is made of this value, ${ROW_KEY_PARTS}, never of the node's name or the workflow: a row booked before is replayed, not booked twice.`,
	displayOptions: {
		show: { repeatProtection: ['expression'] },
	},
};

export const repeatProtectionProperties: INodeProperties[] = [
	repeatProtection,
	toolRepeatProtection,
	keyColumns,
	rowKey,
];
