import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeProperties, INodePropertyCollection } from 'n8n-workflow';

import { inventoryNodeType } from '../harness/engine';

import {
	ALL_PAGES,
	codeBlanked,
	codeSpans,
	paragraphs,
	readPage,
	root,
	USER_PAGES,
	type PageText,
} from './page-text';
import { sourceFiles } from '../harness/source-files';

/*
 * Every message a page quotes is one the code can produce, every npm script a page names exists, and
 * the package's version is the CHANGELOG's newest release.
 *
 * A quoted message is an italic quote (_"Asset … was not found"_) or a code span that ends with the
 * item it names (`Cost must … [item 1]`). Its fixed fragments must occur in the node's source: the
 * quote is cut at what a message fills in (an ellipsis, a number, a quoted value, a field's label,
 * `[item N]`), and each fragment of three words or more must be written, as it is, in a string of
 * nodes/ or credentials/ (strings joined with `+` read as one).
 */

/** What a template fills in (`${…}`), as one word of the corpus. */
const MARK = '\u0001';

/** A word as compared: the quotes, commas and brackets around it dropped. */
function bare(word: string): string {
	if (word === MARK) return word;
	return word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
}

/**
 * The node's source (and the example workflows, whose texts pages quote) as a list of words, strings
 * joined with `+` read as one; each `${…}` of a template is one MARK, what the message fills in.
 */
function messageCorpus(): string[] {
	const examples = readdirSync(join(root, 'examples')).map((file) =>
		readFileSync(join(root, 'examples', file), 'utf8'),
	);
	return [...sourceFiles(join(root, 'nodes')), ...sourceFiles(join(root, 'credentials'))]
		.map((path) => readFileSync(path, 'utf8'))
		.concat(examples)
		.join('\n')
		.replace(/(['"`])\s*\+\s*\1/g, '')
		.replace(/\\(['"`])/g, '$1')
		.replace(/\$\{((?:[^{}]|\{[^{}]*\})*)\}/g, (_expression, inside: string) => {
			// What the template fills in; the strings written inside it (a ternary's texts) stay.
			const strings = (inside.match(/'[^']*'|`[^`]*`|"[^"]*"/g) ?? []).map((text) =>
				text.slice(1, -1),
			);
			return ` ${[MARK, ...strings.flatMap((text) => [text, MARK])].join(' ')} `;
		})
		.split(/\s+/)
		.map(bare)
		.filter((word) => word !== '');
}

/**
 * Whether the words of a fragment follow one another in the corpus, where a MARK may stand for any
 * number of them (a value the message fills in), and may skip to a MARK shortly after it (the other
 * texts of a ternary); at least a third of the words, and two, are written as they are.
 */
function inCorpus(fragment: string, corpus: string[], starts: Map<string, number[]>): boolean {
	const words = fragment
		.split(' ')
		.map(bare)
		.filter((word) => word !== '');
	const literal = Math.max(2, Math.ceil(words.length / 3));
	const failed = new Set<string>();
	const from = (i: number, j: number, matched: number): boolean => {
		if (i === words.length) return matched >= literal;
		if (j >= corpus.length) return false;
		const state = `${i}:${j}:${matched}`;
		if (failed.has(state)) return false;
		let found = false;
		if (corpus[j] === words[i]) found = from(i + 1, j + 1, matched + 1);
		else if (corpus[j] === MARK) {
			for (let k = i; k <= words.length && !found; k++) found = from(k, j + 1, matched);
			for (let next = j + 1; next <= j + 8 && next < corpus.length && !found; next++) {
				if (corpus[next] === MARK) found = from(i, next, matched);
			}
		}
		if (!found) failed.add(state);
		return found;
	};
	const candidates = [...(starts.get(words[0]) ?? []), ...(starts.get(MARK) ?? [])];
	return candidates.some((j) => from(0, j, 0));
}

/**
 * Messages of n8n itself, which the pages quote where the user meets them (n8n's Read/Write Files
 * from Disk node and its editor): not ours to produce, so not in our source.
 */
const N8N_MESSAGES = [
	'No file(s) found',
	'Access to the file is not allowed.',
	'Parameter "Price Model" is required.',
];

/** The labels a message fills in (a field's name), longest first. */
function labels(): string[] {
	const found = new Set<string>(['Asset', 'Subscription', 'Inventory']);
	const walk = (properties: INodeProperties[]): void => {
		for (const property of properties) {
			found.add(property.displayName);
			for (const option of property.options ?? []) {
				if ('values' in option) walk((option as INodePropertyCollection).values);
				else if ('displayName' in option && 'type' in option) walk([option as INodeProperties]);
			}
		}
	};
	walk(inventoryNodeType.description.properties);
	return [...found].sort((a, b) => b.length - a.length);
}

/** The operations' actions, as the nodes panel shows them. */
function actions(): string[] {
	return inventoryNodeType.description.properties
		.filter((property) => property.name === 'operation')
		.flatMap((property) => (property.options ?? []) as Array<{ action?: string }>)
		.map((option) => option.action ?? '');
}

function quotes(): PageText[] {
	const found: PageText[] = [];
	for (const page of ALL_PAGES) {
		for (const { line, text } of paragraphs(readPage(page))) {
			const outsideCode = codeBlanked(text);
			for (const match of outsideCode.matchAll(/(?<![\p{L}\p{N}])_"(.+?)"_(?![\p{L}\p{N}])/gu)) {
				found.push({
					page,
					line,
					text: text.slice(match.index + 2, match.index + 2 + match[1].length),
				});
			}
			for (const span of codeSpans(text)) {
				if (/\S.*\[item \d+\]$/.test(span)) found.push({ page, line, text: span });
			}
		}
	}
	return found;
}

const PLACEHOLDER = '\u0002';

/** The fixed fragments of a quoted message: what the code writes as it is. */
function fragments(quote: string, fieldLabels: string[]): string[] {
	let text = quote.replace(/\s+/g, ' ');
	for (const label of fieldLabels) text = text.split(label).join(PLACEHOLDER);
	text = text
		.replace(/\[item \d+\]/g, PLACEHOLDER)
		.replace(/…|\.\.\./g, PLACEHOLDER)
		.replace(/"[^"]*"|\([^)]*\d[^)]*\)/g, PLACEHOLDER)
		.replace(/\S*\d\S*/g, PLACEHOLDER);
	return text
		.split(PLACEHOLDER)
		.map((part) =>
			part
				.trim()
				.replace(/^[,.:;)]\s*/, '')
				.replace(/\s*[,:;(]$/, '')
				.trim(),
		)
		.filter((part) => part.split(' ').length >= 3);
}

describe('messages the pages quote are the code’s', () => {
	const corpus = messageCorpus();
	const starts = new Map<string, number[]>();
	corpus.forEach((word, index) => starts.set(word, [...(starts.get(word) ?? []), index]));
	const fieldLabels = labels();
	const all = quotes();

	test('the pages quote messages', () => {
		expect(all.length).toBeGreaterThan(10);
	});

	test.each(all.map((quote) => [`${quote.page}:${quote.line} "${quote.text}"`, quote] as const))(
		'%s',
		(_name, quote) => {
			if (N8N_MESSAGES.includes(quote.text)) return;
			// n8n describes a tool as its operation's action and " in <node>" (Tool Description: Set
			// Automatically): the action must be one of the node's.
			const tool = new RegExp(`^(.+) in ${inventoryNodeType.description.displayName}$`).exec(
				quote.text,
			);
			if (tool) {
				expect(actions()).toContain(tool[1]);
				return;
			}
			const missing = fragments(quote.text, fieldLabels).filter(
				(fragment) => !inCorpus(fragment, corpus, starts),
			);
			expect(missing).toEqual([]);
		},
	);
});

describe('npm scripts the pages name exist', () => {
	const scripts = (
		JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
			scripts: Record<string, string>;
		}
	).scripts;
	const sandboxScripts =
		(
			JSON.parse(readFileSync(join(root, 'sandbox', 'package.json'), 'utf8')) as {
				scripts?: Record<string, string>;
			}
		).scripts ?? {};

	test('every `npm run <script>` and `npm test` names a script of package.json', () => {
		const missing: string[] = [];
		let named = 0;
		for (const page of [
			...ALL_PAGES,
			'docs/development.md',
			'test/README.md',
			'test/e2e/README.md',
		]) {
			const markdown = readPage(page);
			for (const match of markdown.matchAll(/npm (?:run ([\w:.-]+)|(test)\b)/g)) {
				const script = match[1] ?? match[2];
				named++;
				const own = page.startsWith('sandbox/') ? sandboxScripts : scripts;
				if (!(script in own)) missing.push(`${page}: npm run ${script}`);
			}
		}
		expect(missing).toEqual([]);
		expect(named).toBeGreaterThan(10);
	});
});

describe('the version', () => {
	const changelog = readPage('CHANGELOG.md');
	const newest = /^## (\d+\.\d+\.\d+)\b/m.exec(changelog)?.[1];

	test('package.json and the sandbox’s package.json are the CHANGELOG’s newest release', () => {
		expect(newest).toBeDefined();
		const version = (file: string): string =>
			(JSON.parse(readFileSync(join(root, file), 'utf8')) as { version: string }).version;
		expect({ node: version('package.json'), sandbox: version('sandbox/package.json') }).toEqual({
			node: newest,
			sandbox: newest,
		});
	});

	test('the users’ pages name no other release of the package', () => {
		const others: string[] = [];
		for (const page of USER_PAGES) {
			for (const match of readPage(page).matchAll(/n8n-nodes-inventory@(\d+\.\d+\.\d+)/g)) {
				if (match[1] !== newest) others.push(`${page}: ${match[0]}`);
			}
		}
		expect(others).toEqual([]);
	});
});
