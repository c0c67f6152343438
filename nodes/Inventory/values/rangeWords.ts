import type { Check } from './checks';
import { MAX_AMOUNT } from './numberChecks';
import { grouped } from './shownText';

/**
 * The range a check allows, in the words a field's description states it ("up to 255 characters",
 * "0 to 999,999,999.99"); undefined for a check without one. `field()` holds each description to it.
 */
export function rangeWords(check: Check): string | undefined {
	if (check.kind === 'text') return `up to ${grouped(check.maxLength)} characters`;
	if (check.kind === 'amount') return `0 to ${grouped(MAX_AMOUNT)}`;
	if (check.kind === 'integer') return `${grouped(check.min)} to ${grouped(check.max)}`;
	return undefined;
}
