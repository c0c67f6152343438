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

export function describeValue(value: unknown): string {
	if (typeof value === 'string') {
		const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
		return `"${showText(shown)}"${value.length > 40 ? ` (${value.length} characters)` : ''}`;
	}
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return 'an object';
	return String(value);
}

/** A number as a message writes it, its thousands separated by commas: `100,000,000`. */
export const grouped = (count: number) => count.toLocaleString('en-US');
