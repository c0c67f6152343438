import { NodeOperationError, type IExecuteFunctions, type NodeApiError } from 'n8n-workflow';

import type { FailedCheck, ItemFailure } from '../model/itemFailure';
import type { Check } from '../values/checks';

/** The first `$fromAI('key', …)` of a parameter's saved value, anywhere in the node's parameters. */
function argumentOf(parameters: unknown, parameter: string): string | undefined {
	if (typeof parameters !== 'object' || parameters === null) return undefined;
	for (const [name, value] of Object.entries(parameters)) {
		if (name === parameter && typeof value === 'string') {
			const key = /\$fromAI\(\s*(['"`])([^'"`]+)\1/.exec(value)?.[2];
			if (key !== undefined) return key;
		}
		const nested = argumentOf(value, parameter);
		if (nested !== undefined) return nested;
	}
	return undefined;
}

/** What a model sends instead, by the kind of value a parameter takes (a Check's kind). */
const ACCEPTED: Partial<Record<string, string>> = {
	date: 'Send the date as YYYY-MM-DD, e.g. 2026-11-20.',
	timestamp:
		'Send the date as YYYY-MM-DD, e.g. 2026-11-20, or a date and time as 2026-11-20T14:30:00.',
	amount: 'Send a number of at most two decimal places, e.g. 1249.99.',
	recordId: 'Send the numeric ID, e.g. 1001.',
} satisfies Partial<Record<Check['kind'], string>>;

/**
 * `must have at most two decimal places, got 189.999: round it in the expression, …` → the problem
 * up to what was given: the fix after it speaks of the workflow's expressions, not of arguments.
 */
function problemWithoutFix(problem: string): string {
	const given = problem.indexOf(', got ');
	if (given < 0) return problem;
	const fix = /[:;] /.exec(problem.slice(given));
	return fix ? problem.slice(0, given + fix.index) : problem;
}

/**
 * A tool call's input failed the node's checks: the refusal the model reads names its argument and
 * what would be accepted, and says nothing was booked; a value the model does not give (fixed in the
 * tool's parameters) is said to be the workflow's, so the model reports it instead of calling again.
 */
export function toolRefusal(
	context: IExecuteFunctions,
	{ itemIndex, failure: { error, checks } }: { itemIndex: number; failure: ItemFailure },
): NodeApiError | NodeOperationError {
	if (checks.length === 0) return error;
	const refused = checks.map((check) => refusedValue(context, check));
	// Every refused value is named; one the model does not give is the workflow's to fix.
	const ofWorkflow = refused.filter(({ argument }) => argument === undefined);
	const message =
		ofWorkflow.length > 0
			? `Nothing was booked: ${ofWorkflow.map(({ what }) => what).join('; ')}. This value is set in the tool's configuration, not by an argument, so calling again will not help: tell the user.`
			: `Nothing was booked: ${refused
					.map(
						({ argument, what, accepted }, index) =>
							`${index === 0 ? 'the' : 'The'} argument "${argument}" was refused: ${what}.${accepted ? ` ${accepted}` : ''}`,
					)
					.join(' ')} Call the tool again with ${refused
					.map(({ argument }) => `"${argument}"`)
					.join(', ')} corrected.`;
	// No description: n8n hands it to the model too ("Details: …"), and the node's own words for the
	// workflow's builder (an expression to round a value) would mislead it.
	return new NodeOperationError(context.getNode(), message, { itemIndex });
}

/** One refused value as a model reads it: its argument (none when fixed), the problem, what is accepted. */
function refusedValue(
	context: IExecuteFunctions,
	{ label, parameter, checkKind, problem }: FailedCheck,
): { argument?: string; what: string; accepted?: string } {
	const argument =
		parameter === undefined ? undefined : argumentOf(context.getNode().parameters, parameter);
	return {
		argument,
		what: `${label} ${problemWithoutFix(problem)}`,
		accepted: checkKind === undefined ? undefined : ACCEPTED[checkKind],
	};
}
