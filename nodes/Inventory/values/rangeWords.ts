import { MAX_AMOUNT } from './numbers/numberChecks';
import { grouped } from './shownText';

// A field's description states the range its check allows, built from the check's own numbers, so
// that the two cannot differ: `description: \`Salvage value, ${AMOUNT_RANGE}\``.

/** "up to 255 characters": the longest text a `text` check takes (its maxLength). */
export const lengthWords = (maxLength: number) => `up to ${grouped(maxLength)} characters`;

/** "1 to 100,000,000": the counts an `integer` check takes (its min and max). */
export const countWords = ({ min, max }: { min: number; max: number }) =>
	`${grouped(min)} to ${grouped(max)}`;

/** "0 to 999,999,999.99": the amounts AMOUNT takes. */
export const AMOUNT_RANGE = `0 to ${grouped(MAX_AMOUNT)}`;
