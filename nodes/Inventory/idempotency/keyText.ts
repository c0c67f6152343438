// The text a row's key is made of, and the column names it is read by. These rules make keys,
// which must never change once released; they are the key's own, apart from how messages show
// text (values/shownText.ts), so that a change to what a message escapes cannot change a key.

/**
 * What a key ignores at either end of a value or a column name, as parts of a regular expression's
 * character class: never change one, since keys are made of the text left.
 */
const IGNORED_AT_ENDS: readonly string[] = [
	// JavaScript's white space: spaces, tabs, line breaks, the non-breaking space and the other
	// Unicode spaces.
	'\\s',
	// The zero-width space, non-joiner and joiner.
	'\\u200B-\\u200D',
	// The word joiner.
	'\\u2060',
	// The byte order mark Excel's "CSV UTF-8" starts with.
	'\\uFEFF',
];

const AT_ENDS = new RegExp(`^[${IGNORED_AT_ENDS.join('')}]+|[${IGNORED_AT_ENDS.join('')}]+$`, 'g');

/**
 * Text without what a key ignores around it (IGNORED_AT_ENDS): a key value (keyText), and a column
 * name as Key Columns names it and as a row holds it ("\uFEFFpo_number" is po_number).
 */
export function trimForKey(text: string): string {
	return text.replace(AT_ENDS, '');
}

/** A whole number written with zeros after the point, as tools that format numbers with decimals write it. */
const WHOLE_WITH_ZEROS = /^(-?(?:0|[1-9]\d*))\.0+$/;

/**
 * One value of a row's identity as the text its key is made of, the same whichever tool read the
 * row: a number is its shortest decimal text (1001 → "1001"), so it equals that number as text
 * ("1001", " 1001 ", and "1001.0" or "1001.00", a whole number with zeros after the point). Any
 * other text is an identity and kept as written, apart from the white space and invisible
 * characters around it: "007" stays "007" (not 7), "1.10" stays "1.10", "1,001" stays "1,001". An
 * object or list is its JSON. These rules make keys, which must never change once released.
 */
export function keyText(value: unknown): string {
	if (value === undefined || value === null) return '';
	if (typeof value === 'string') {
		const text = trimForKey(value);
		return WHOLE_WITH_ZEROS.exec(text)?.[1] ?? text;
	}
	if (typeof value === 'object') return JSON.stringify(value) ?? '';
	return String(value);
}

/**
 * The business id of a row keyed by several values (Key Columns): one value gives its key text; several
 * give the JSON list of their key texts, e.g. ["1001","2"] for 1001 and 2 as numbers or as text.
 */
export function keyOfValues(values: readonly unknown[]): string {
	return values.length === 1 ? keyText(values[0]) : JSON.stringify(values.map(keyText));
}
