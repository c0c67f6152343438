import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

import { inventoryCredentialType, inventoryNodeType } from '../harness/engine';

import {
	ALL_PAGES,
	boldSpans,
	codeSpans,
	paragraphs,
	plainText,
	readPage,
	root,
	tables,
	USER_PAGES,
	type PageText,
} from './page-text';

/*
 * Every parameter, option and choice a page names in bold exists in the node's description (or the
 * credential's) with that label, and a default a page states is the description's default. A bold
 * span is a name when it is written in Title Case ("Options → Date Order", "Each Row Once, Keyed by
 * Columns"); a bold span that ends in "." or ":" is a paragraph's lead-in, and lower-case bold is
 * emphasis. Code spans in camelCase (`repeatCheck`, `keyColumns`) name the node's parameters and
 * fields: each occurs in the node's source.
 */

interface Label {
	label: string;
	property?: INodeProperties;
	value?: unknown;
}

/** Every label the editor shows for the node and its credential: parameters, options, choices. */
function labels(): Label[] {
	const found: Label[] = [];
	const walk = (properties: INodeProperties[]): void => {
		for (const property of properties) {
			found.push({ label: property.displayName, property });
			for (const option of property.options ?? []) {
				if ('values' in option) {
					const collection = option as INodePropertyCollection;
					found.push({ label: collection.displayName });
					walk(collection.values);
				} else if ('displayName' in option && 'type' in option) {
					walk([option as INodeProperties]);
				} else {
					const choice = option as INodePropertyOptions;
					found.push({ label: choice.name, property, value: choice.value });
				}
			}
		}
	};
	walk(inventoryNodeType.description.properties);
	walk(inventoryCredentialType.properties);
	found.push(
		{ label: inventoryNodeType.description.displayName },
		{ label: `${inventoryNodeType.description.displayName} Tool` },
		{ label: inventoryCredentialType.displayName },
	);
	return found;
}

/** The names of the example workflows' nodes, which pages name in bold when they walk through them. */
function exampleNodeNames(): string[] {
	const folder = join(root, 'examples');
	return readdirSync(folder)
		.filter((file) => file.endsWith('.json'))
		.flatMap((file) => {
			const workflow = JSON.parse(readFileSync(join(folder, file), 'utf8')) as {
				nodes: Array<{ name: string }>;
			};
			return workflow.nodes.map((node) => node.name);
		});
}

/**
 * n8n's own names, which pages name where a user clicks or picks them: the editor's menus and
 * settings, n8n's nodes and their operations. They are n8n's, not this package's, so no test of
 * ours can load them; keep the list to what the pages use.
 */
const N8N_NAMES = [
	// The editor: node settings, buttons, menus.
	'Settings',
	'On Error',
	'Stop Workflow',
	'Continue',
	'Continue (using error output)',
	'Continue On Fail',
	'Retry On Fail',
	'Execute Once',
	'Execute step',
	'Execute workflow',
	'Retry execution',
	'Retry',
	'Stop',
	'Test',
	'Expression',
	'Create',
	'Credential',
	'Overview',
	'Credentials',
	'Community Nodes',
	'Install',
	'Import from File…',
	'⋯',
	'+',
	// n8n's nodes and their options.
	'Manual Trigger',
	'Code',
	'Webhook',
	'n8n Form Trigger',
	'Google Sheets',
	'Read/Write Files from Disk',
	'Extract From File',
	'File(s) Selector',
	'Options',
	'Exclude Byte Order Mark (BOM)',
	'AI Agent',
	'OpenAI Chat Model',
	'MCP Server Trigger',
	'HTTP Request',
];

const known = labels();
const NAMES = new Set([...known.map((entry) => entry.label), ...exampleNodeNames(), ...N8N_NAMES]);

/** Small words Title Case leaves in lower case. */
const SMALL = new Set(
	'a an and as at by for from in its of on or per the to using with'.split(' '),
);

function isTitleCase(text: string): boolean {
	const words = text
		.replace(/\([^)]*\)/g, '')
		.split(/[\s,]+/)
		.filter((word) => /^\p{L}/u.test(word));
	return (
		words.length > 0 &&
		words.every((word, index) => /^\p{Lu}/u.test(word) || (index > 0 && SMALL.has(word)))
	);
}

/** Whether a segment is a label: exactly, or the part of a choice before its comma ("Each Row Once"). */
function isName(segment: string): boolean {
	if (NAMES.has(segment)) return true;
	// A label's unit may be left out in prose: "Retry Delay" for "Retry Delay (Ms)".
	if ([...NAMES].some((name) => name.replace(/ \([^)]*\)$/, '') === segment)) return true;
	return known.some((entry) => entry.label.startsWith(`${segment}, `));
}

function boldNames(): PageText[] {
	const found: PageText[] = [];
	// The sandbox's README names the sandbox's demo organizations and tokens, not the node's.
	for (const page of ALL_PAGES.filter((page) => !page.startsWith('sandbox/'))) {
		for (const { line, text } of paragraphs(readPage(page))) {
			for (const span of boldSpans(text)) {
				const name = span.text.replace(/\s+/g, ' ');
				if (/[.:]$/.test(name) || name.includes('\u0000')) continue;
				if (!isTitleCase(name)) continue;
				found.push({ page, line, text: name });
			}
		}
	}
	return found;
}

describe('names a page gives in bold are the node’s, its credential’s or n8n’s', () => {
	const named = boldNames();

	test('the pages name parameters in bold', () => {
		expect(named.length).toBeGreaterThan(50);
	});

	test('every bold name exists with that label', () => {
		const unknown = named
			.filter(({ text }) => !text.split('→').every((segment) => isName(segment.trim())))
			.map(({ page, line, text }) => `${page}:${line} **${text}**`);
		expect(unknown).toEqual([]);
	});
});

function sourceText(folder: string): string {
	return readdirSync(folder)
		.map((name) => join(folder, name))
		.map((path) =>
			statSync(path).isDirectory()
				? sourceText(path)
				: path.endsWith('.ts')
					? readFileSync(path, 'utf8')
					: '',
		)
		.join('\n');
}

describe('camelCase names a page gives in code exist in the node', () => {
	// The node's source, and the example workflows (a page walking through one names its columns).
	const examples = readdirSync(join(root, 'examples'))
		.map((file) => readFileSync(join(root, 'examples', file), 'utf8'))
		.join('\n');
	const source = [
		sourceText(join(root, 'nodes')),
		sourceText(join(root, 'credentials')),
		examples,
	].join('\n');
	const identifiers = new Set(source.match(/[A-Za-z_$][\w$]*/g) ?? []);

	test('every camelCase field or parameter named in code is in the source', () => {
		const missing: string[] = [];
		for (const page of USER_PAGES) {
			for (const { line, text } of paragraphs(readPage(page))) {
				for (const span of codeSpans(text)) {
					for (const part of span.split('.')) {
						if (!/^[a-z]+(?:[A-Z][a-z0-9]*)+$/.test(part)) continue;
						if (!identifiers.has(part)) missing.push(`${page}:${line} \`${span}\``);
					}
				}
			}
		}
		expect(missing).toEqual([]);
	});
});

describe('defaults a page states are the description’s defaults', () => {
	const byLabel = (label: string): Label | undefined =>
		known.find((entry) => entry.label === label && entry.property);

	test('a table with a Default column gives each option’s default', () => {
		const wrong: string[] = [];
		let checked = 0;
		for (const page of USER_PAGES) {
			for (const table of tables(readPage(page))) {
				const column = table.header.findIndex((cell) => plainText(cell) === 'Default');
				if (column < 0) continue;
				for (const row of table.rows) {
					const label = plainText(row.cells[0]);
					const entry = byLabel(label);
					if (!entry?.property) {
						wrong.push(`${page}:${row.line}: no parameter "${label}"`);
						continue;
					}
					const stated = /^-?\d[\d,]*/.exec(plainText(row.cells[column]))?.[0];
					if (stated === undefined) continue;
					checked++;
					if (Number(stated.replace(/,/g, '')) !== entry.property.default)
						wrong.push(
							`${page}:${row.line}: ${label} defaults to ${String(entry.property.default)}, the page says ${stated}`,
						);
				}
			}
		}
		expect(wrong).toEqual([]);
		expect(checked).toBeGreaterThan(0);
	});

	test('a choice a page calls "the default" is its parameter’s default', () => {
		const wrong: string[] = [];
		let checked = 0;
		for (const page of ALL_PAGES) {
			for (const { line, text } of paragraphs(readPage(page))) {
				const said = text.matchAll(
					/(?:\*\*([^*]+)\*\*|(?<![\p{L}\p{N}])_([^_]+)_(?![\p{L}\p{N}]))[^.;(]{0,20}?\((?:the |its )?default\b/gu,
				);
				for (const match of said) {
					const label = (match[1] ?? match[2]).split('→').pop()!.trim();
					const choices = known.filter(
						(entry) => entry.label === label && entry.value !== undefined,
					);
					if (choices.length === 0) continue;
					checked++;
					if (!choices.some((choice) => choice.property!.default === choice.value))
						wrong.push(`${page}:${line}: "${label}" is not its parameter's default`);
				}
			}
		}
		expect(wrong).toEqual([]);
		expect(checked).toBeGreaterThan(0);
	});
});
