/** Ranges of code points, first and last included. */
type CodeRanges = ReadonlyArray<readonly [number, number]>;

/**
 * Zero-width characters: the zero-width space, non-joiner and joiner, the word joiner, and the byte
 * order mark Excel's "CSV UTF-8" starts with. Neither shown nor, to JavaScript (`\s`), white space.
 */
const ZERO_WIDTH: CodeRanges = [
	[0x200b, 0x200d],
	[0x2060, 0x2060],
	[0xfeff, 0xfeff],
];

/**
 * Characters a message would show as nothing or as a plain space: controls, the zero-width ones,
 * non-breaking and other wide or narrow spaces, soft hyphens, line separators, direction marks.
 */
const INVISIBLE: CodeRanges = [
	...ZERO_WIDTH,
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

export const isInvisible = (code: number) =>
	INVISIBLE.some(([first, last]) => code >= first && code <= last);

/** `\uFEFF`: a character as a JavaScript escape, four hexadecimal digits in capitals. */
export const unicodeEscape = (code: number) =>
	`\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;

const ZERO_WIDTH_CLASS = ZERO_WIDTH.map(
	([first, last]) => `${unicodeEscape(first)}-${unicodeEscape(last)}`,
).join('');

/** White space and zero-width characters at either end of a text. */
const SPACE_AT_EDGES = new RegExp(`^[\\s${ZERO_WIDTH_CLASS}]+|[\\s${ZERO_WIDTH_CLASS}]+$`, 'g');

/**
 * Text without the white space (a non-breaking space, a line break) and the zero-width characters
 * around it: what a column name or a key value is made of. Keys are made of its result, so the
 * characters it trims must never change once released.
 */
export function trimSpaceAndZeroWidth(text: string): string {
	return text.replace(SPACE_AT_EDGES, '');
}
