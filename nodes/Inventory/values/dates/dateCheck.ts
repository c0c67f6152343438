import type { CheckContext, Fail } from '../checkContext';
import { dateProblem } from './dateProblems';
import { formatDate, formatTimestamp, readDate } from './readDate';

/** The text n8n gives for an invalid Luxon DateTime in a collection (its `toString()`). */
const INVALID_DATETIME_TEXT = 'Invalid DateTime';

/**
 * The `date` and `timestamp` checks: a calendar day, sent as `YYYY-MM-DD`, or an instant not in the
 * future, sent as `YYYY-MM-DDThh:mm:ss±hh:mm`, read as readDate reads a value (in the workflow's time
 * zone); a value refused ends the item with dateProblem's words and fix.
 */
export function checkDate(
	value: unknown,
	kind: 'date' | 'timestamp',
	context: CheckContext,
	fail: Fail,
): string {
	let given = value;
	// n8n hands an invalid DateTime in a collection over as its text: its expression says why.
	const source = value === INVALID_DATETIME_TEXT ? context.source() : undefined;
	if (source !== undefined && context.evaluate) {
		try {
			const evaluated = context.evaluate(`{{ ${source} }}`);
			if (typeof evaluated === 'object' && evaluated !== null) given = evaluated;
		} catch {
			given = value;
		}
	}
	const read = readDate(given, { zone: context.timeZone, dateOrder: context.dateOrder });
	if (!read.ok) return fail(dateProblem(read.refusal, given, context));
	if (kind === 'date') return formatDate(read.value);
	if (read.value.toMillis() > Date.now())
		fail(`must not be in the future, got ${formatTimestamp(read.value)}`);
	return formatTimestamp(read.value);
}
