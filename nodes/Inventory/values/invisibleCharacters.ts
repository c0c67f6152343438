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

export const isInvisible = (code: number) =>
	INVISIBLE.some(([first, last]) => code >= first && code <= last);

/** `\uFEFF`: a character as a JavaScript escape, four hexadecimal digits in capitals. */
export const unicodeEscape = (code: number) =>
	`\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
