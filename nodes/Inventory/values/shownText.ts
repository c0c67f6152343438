import { isInvisible, unicodeEscape } from './invisibleCharacters';

/** Text as a message shows it: every invisible character escaped (`\uFEFF`), so none reads as nothing. */
export function showText(text: string): string {
	let shown = '';
	for (const char of text) {
		const code = char.codePointAt(0) as number;
		shown += isInvisible(code) ? unicodeEscape(code) : char;
	}
	return shown;
}

/** How many characters of a value a message shows; a longer one is cut. */
const SHOWN_LENGTH = 40;

/** The start of a text as a message shows it: at most SHOWN_LENGTH characters (`…` after a cut), invisible characters escaped. */
export function shownStart(text: string): string {
	return showText(text.length > SHOWN_LENGTH ? `${text.slice(0, SHOWN_LENGTH)}…` : text);
}

export function describeValue(value: unknown): string {
	if (typeof value === 'string')
		return `"${shownStart(value)}"${value.length > SHOWN_LENGTH ? ` (${value.length} characters)` : ''}`;
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return 'an object';
	return String(value);
}

/** A number as a message writes it, its thousands separated by commas: `100,000,000`. */
export const grouped = (count: number) => count.toLocaleString('en-US');
