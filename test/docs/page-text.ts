import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/*
 * What the doc tests read of a page: its prose (fenced code left out), its Markdown tables, and the
 * names, code spans and messages it states. Pages are read as they are written for their readers;
 * nothing here asks for a format of its own.
 */

export const root = join(__dirname, '..', '..');

/** The users' pages: what they state about the node is checked against the code. */
export const USER_PAGES = [
	'README.md',
	'docs/agent-tool.md',
	'docs/api.md',
	'docs/credentials.md',
	'docs/fix-failed-rows.md',
	'docs/idempotency.md',
	'docs/queue-mode.md',
	'docs/retries-and-concurrency.md',
	'docs/sandbox-and-demo.md',
	'docs/spreadsheets.md',
	'docs/your-organization.md',
];

/** Every page a reader may open: the users' pages, the maintainers' and the release notes. */
export const ALL_PAGES = [
	...USER_PAGES,
	'CHANGELOG.md',
	'docs/development.md',
	'docs/performance.md',
	'sandbox/README.md',
];

export function readPage(page: string): string {
	return readFileSync(join(root, page), 'utf8');
}

export interface ProseLine {
	line: number;
	text: string;
}

/** A text found on a page, and its line there. */
export interface PageText extends ProseLine {
	page: string;
}

/** The lines outside fenced code blocks. */
export function proseLines(markdown: string): ProseLine[] {
	const result: ProseLine[] = [];
	let fence: string | null = null;
	markdown.split(/\r?\n/).forEach((text, index) => {
		const opening = /^\s{0,3}(`{3,}|~{3,})/.exec(text);
		if (fence !== null) {
			if (opening && opening[1][0] === fence[0] && opening[1].length >= fence.length) fence = null;
			return;
		}
		if (opening) {
			fence = opening[1];
			return;
		}
		result.push({ line: index + 1, text });
	});
	return result;
}

/** The paragraphs of the prose (lines joined by a space; a blank line, heading or table ends one). */
export function paragraphs(markdown: string): ProseLine[] {
	const result: ProseLine[] = [];
	let current: ProseLine | undefined;
	for (const { line, text } of proseLines(markdown)) {
		const breaks = text.trim() === '' || /^\s*(#|\|)/.test(text) || /^\s*([-*]|\d+\.)\s/.test(text);
		if (breaks) {
			if (current) result.push(current);
			current = text.trim() === '' ? undefined : { line, text: text.trim() };
			if (/^\s*(#|\|)/.test(text)) {
				result.push({ line, text: text.trim() });
				current = undefined;
			}
			continue;
		}
		if (current) current.text += ` ${text.trim()}`;
		else current = { line, text: text.trim() };
	}
	if (current) result.push(current);
	return result;
}

export interface Table {
	line: number;
	header: string[];
	rows: Array<{ line: number; cells: string[] }>;
}

function cellsOf(row: string): string[] {
	// A `|` inside a code span is not a cell border.
	const cells: string[] = [];
	let cell = '';
	let inCode = false;
	const body = row.trim().replace(/^\|/, '').replace(/\|$/, '');
	for (let i = 0; i < body.length; i++) {
		const char = body[i];
		if (char === '`') inCode = !inCode;
		if (char === '\\' && body[i + 1] === '|') {
			cell += '|';
			i++;
			continue;
		}
		if (char === '|' && !inCode) {
			cells.push(cell.trim());
			cell = '';
			continue;
		}
		cell += char;
	}
	cells.push(cell.trim());
	return cells;
}

/** The Markdown tables of a page, with their header cells and rows. */
export function tables(markdown: string): Table[] {
	const found: Table[] = [];
	const lines = proseLines(markdown);
	for (let i = 0; i + 1 < lines.length; i++) {
		const head = lines[i];
		const rule = lines[i + 1];
		if (!/^\s*\|/.test(head.text) || !/^\s*\|[\s:|-]+\|\s*$/.test(rule.text)) continue;
		const table: Table = { line: head.line, header: cellsOf(head.text), rows: [] };
		let j = i + 2;
		while (
			j < lines.length &&
			/^\s*\|/.test(lines[j].text) &&
			lines[j].line === lines[j - 1].line + 1
		) {
			table.rows.push({ line: lines[j].line, cells: cellsOf(lines[j].text) });
			j++;
		}
		found.push(table);
		i = j - 1;
	}
	return found;
}

/** A code span: its backticks, and its content as group 2. */
const CODE_SPAN = /(`+)([\s\S]*?[^`])\1(?!`)/g;

/** The contents of the code spans of a text, in order. */
export function codeSpans(text: string): string[] {
	return [...text.matchAll(CODE_SPAN)].map((match) => match[2].trim());
}

/** Text without code spans (each one a placeholder), so that `**` or `_` inside code is not markup. */
export function withoutCode(text: string): string {
	return text.replace(CODE_SPAN, '\u0000');
}

/** Text with its code spans blanked out, each by as many spaces: positions stay those of the text. */
export function codeBlanked(text: string): string {
	return text.replace(CODE_SPAN, (span) => ' '.repeat(span.length));
}

/** The bold spans of a text, outside code, with whether each opens its line or list item (a lead-in). */
export function boldSpans(text: string): Array<{ text: string; leadIn: boolean }> {
	const plain = withoutCode(text);
	return [...plain.matchAll(/\*\*([^*]+?)\*\*/g)].map((match) => ({
		text: match[1].trim(),
		leadIn: /^\s*(([-*]|\d+\.)\s+)?$/.test(plain.slice(0, match.index)),
	}));
}

/** A cell or text as read: emphasis and code marks dropped. */
export function plainText(text: string): string {
	return text
		.replace(/\*\*/g, '')
		.replace(/(^|[^\p{L}\p{N}_])_([^_]+)_(?=[^\p{L}\p{N}_]|$)/gu, '$1$2')
		.replace(/`/g, '')
		.trim();
}

/** The nearest heading or bold lead-in above a line: what a table is about. */
export function headingAbove(markdown: string, line: number): string {
	const lines = markdown
		.split(/\r?\n/)
		.slice(0, line - 1)
		.reverse();
	for (const text of lines) {
		const heading = /^#{1,6}\s+(.*)$/.exec(text);
		if (heading) return heading[1];
	}
	return '';
}
