/** Ranges of code points, first and last included. */
type CodeRanges = ReadonlyArray<readonly [number, number]>;

/**
 * Characters a message would show as nothing or as a plain space: controls, the zero-width ones,
 * non-breaking and other wide or narrow spaces, soft hyphens, line separators, direction marks.
 * Messages only: what a key ignores around a value is the key's own rule (idempotency/keyText.ts).
 */
const INVISIBLE: CodeRanges = [
	// Zero-width: the zero-width space, non-joiner and joiner, the word joiner, and the byte order
	// mark Excel's "CSV UTF-8" starts with.
	[0x200b, 0x200d],
	[0x2060, 0x2060],
	[0xfeff, 0xfeff],
	[0x0000, 0x001f],
	[0x007f, 0x00a0],
	[0x00ad, 0x00ad],
	[0x061c, 0x061c],
	[0x115f, 0x1160],
	[0x180e, 0x180e],
	[0x2000, 0x200a],
	[0x200e, 0x200f],
	[0x2028, 0x202f],
	[0x205f, 0x205f],
	[0x2061, 0x206f],
	[0x3000, 0x3000],
	[0x3164, 0x3164],
	[0xfff9, 0xfffb],
];

const isInvisible = (code: number) =>
	INVISIBLE.some(([first, last]) => code >= first && code <= last);

/** `\uFEFF`: a character as a JavaScript escape, four hexadecimal digits in capitals. */
const unicodeEscape = (code: number) => `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;

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
