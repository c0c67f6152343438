import { CREDENTIAL_BLANKING_VALUE } from 'n8n-workflow';

/** Code points shown as nothing: soft hyphen, joiners and marks, variation selectors, fillers, the byte order mark. */
// Not values/shownText.ts's fact (what a message escapes): a header holds printable ASCII only; this only names what a refused token holds.
const INVISIBLE: ReadonlyArray<readonly [number, number]> = [
	[0x00ad, 0x00ad],
	[0x034f, 0x034f],
	[0x061c, 0x061c],
	[0x115f, 0x1160],
	[0x17b4, 0x17b5],
	[0x180b, 0x180f],
	[0x200b, 0x200f],
	[0x202a, 0x202e],
	[0x2060, 0x206f],
	[0x3164, 0x3164],
	[0xfe00, 0xfe0f],
	[0xfeff, 0xfeff],
	[0xffa0, 0xffa0],
];

/**
 * What is wrong with the API token as the node would send it, in words that show no piece of it:
 * a character an Authorization header cannot carry as pasted (a line break, a control or an invisible
 * character, a space inside it, a letter outside ASCII). n8n's HTTP client would send such a token
 * changed, or not at all, and the text redaction looks for would not be the text sent. Also n8n's own
 * placeholder for a saved password, which n8n hands a test in place of the token when it has not read
 * the saved value.
 */
export function apiTokenProblem(token: string): string | undefined {
	if (token.includes(CREDENTIAL_BLANKING_VALUE))
		return "The API Token is n8n's placeholder for a saved secret, not the token itself: nothing was sent. Save the credential, close it and open it again, then test it again (or enter the token again).";
	const at = [...token].findIndex((character) => !/^[\x21-\x7e]$/.test(character));
	if (at === -1) return undefined;
	const character = [...token][at];
	const code = character.codePointAt(0) ?? 0;
	let what: string;
	if (/[\n\r\u2028\u2029\u0085]/.test(character)) what = 'a line break';
	else if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) what = 'a control character';
	else if (INVISIBLE.some(([from, to]) => code >= from && code <= to))
		what = 'an invisible character';
	else if (/\s/.test(character)) what = 'a space';
	else what = 'a character outside ASCII';
	return `The API Token holds ${what} inside it (at character ${at + 1} of ${[...token].length}): nothing was sent with it. Open the "Inventory API" credential and paste the token again as your administrator gave it, on one line.`;
}
