/** Text in messages (values/shownText.ts showText): an invisible character is escaped, never shown as nothing. */
import { shownTextHelpers } from '../node/package-modules';

const { showText, describeValue } = shownTextHelpers;

test('invisible characters are escaped, visible ones kept', () => {
	expect(showText('\ufeffpo_number')).toBe('\\uFEFFpo_number');
	expect(showText('a\u00a0b\u200bc\td\r\n')).toBe('a\\u00A0b\\u200Bc\\u0009d\\u000D\\u000A');
	expect(showText('Müller 日本 – €5 ok')).toBe('Müller 日本 – €5 ok');
});

test('a value in a message shows its invisible characters', () => {
	expect(describeValue('\ufeff1001')).toBe('"\\uFEFF1001"');
	expect(describeValue(' 12 ')).toBe('" 12 "');
});
