/**
 * No message names an option, field or choice the node does not have. Every text the node can show
 * (the string and template literals of `nodes/` and `credentials/`: messages, descriptions, hints)
 * is searched for the names it uses: a phrase of capitalised words (`Date Order`, `Max Retry Wait`)
 * and a quoted text (`Repeat Protection "Each Row Once, Keyed by an Expression"`). A quoted name is
 * a label of the node's form or of n8n's own, exactly; an unquoted one is a label or part of one
 * (`Each Row Once`). What is neither is listed below with why, so a new name of a removed option
 * (an "Idempotency Key" option) fails here until the text or the form is corrected.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import type {
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';
import ts from 'typescript';

import { inventoryCredentialType, inventoryNodeType, packageRoot } from '../harness/engine';
import { sourceFiles } from '../harness/source-files';

const root = packageRoot();

/** Every text literal of the package's source, by file: strings, and template parts between `${}`. */
function literalTexts(): Array<{ file: string; text: string }> {
	const texts: Array<{ file: string; text: string }> = [];
	for (const path of [
		...sourceFiles(join(root, 'nodes')),
		...sourceFiles(join(root, 'credentials')),
	]) {
		const file = relative(root, path);
		const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest);
		const visit = (node: ts.Node): void => {
			if (
				ts.isStringLiteral(node) ||
				ts.isNoSubstitutionTemplateLiteral(node) ||
				ts.isTemplateHead(node) ||
				ts.isTemplateMiddle(node) ||
				ts.isTemplateTail(node)
			)
				texts.push({ file, text: node.text });
			ts.forEachChild(node, visit);
		};
		visit(source);
	}
	return texts;
}

/** Every label the editor shows for the node and its credential: parameters, choices, sections, buttons. */
function formLabels(properties: INodeProperties[]): string[] {
	return properties.flatMap((property) => {
		const own = [property.displayName];
		if (property.placeholder && /collection/i.test(property.type)) own.push(property.placeholder);
		const nested = (property.options ?? []).flatMap((option) => {
			if ('values' in option) {
				const section = option as INodePropertyCollection;
				return [section.displayName, ...formLabels(section.values)];
			}
			if ('displayName' in option && 'type' in option)
				return formLabels([option as INodeProperties]);
			return [(option as INodePropertyOptions).name];
		});
		return [...own, ...nested];
	});
}

const description: INodeTypeDescription = inventoryNodeType.description;
const LABELS = new Set([
	description.displayName,
	...formLabels(description.properties),
	inventoryCredentialType.displayName,
	...formLabels(inventoryCredentialType.properties),
]);

/**
 * Names that are not the node's, each for its reason. n8n's own labels are named so in n8n's editor
 * (n8n 2.40.7); the others name no setting at all.
 */
const NOT_THE_NODES = new Map<string, string>([
	['On Error', "n8n's node setting"],
	['Continue (using error output)', "a choice of n8n's On Error setting"],
	['Retry On Fail', "n8n's node setting"],
	['Expression', "n8n's Fixed / Expression switch above a field"],
	['Manual Trigger', "n8n's trigger node"],
	['Inventory API', "the product's API (and the credential's name)"],
	['Subscription Inventory API', 'the product: the Asset and Subscription Inventory API'],
	['Bearer ', "the Authorization header's scheme, which a pasted token may start with"],
	['Numeric ID', 'a sentence start: "Numeric ID of …"'],
	['ACME Hardware Ltd', 'an example value (a placeholder)'],
	['SN-1234', 'an example value (a placeholder)'],
	['Tag and label', 'an example value (a to-do name)'],
	['Invalid DateTime', "Luxon's text for an invalid DateTime"],
	['Invalid UUID', 'an internal error of the key derivation'],
	['MM-dd HH', 'a Luxon format'],
]);

/** Words that start a sentence before a name: "The Event Date sent …", "The Repeat Protection …". */
const SENTENCE_START = /^(?:The|Set|Its) /;

/** Capitalised words in a row, with a parenthesised part a label has ("Retry Delay (Ms)"). */
const PHRASE = /[A-Z][\w-]*(?: (?:[A-Z][\w-]*|\([A-Z][\w ]*\)|(?:(?:of|by|an) )+[A-Z][\w-]*))+/g;
const QUOTED = /"([^"]+)"/g;

interface NameUse {
	name: string;
	quoted: boolean;
}

/** The names a text uses. */
function namesIn(text: string): NameUse[] {
	const uses: NameUse[] = [];
	for (const [, quoted] of text.matchAll(QUOTED))
		if (/^[A-Z]/.test(quoted)) uses.push({ name: quoted, quoted: true });
	for (const [phrase] of text.replace(QUOTED, '""').matchAll(PHRASE))
		uses.push({ name: phrase, quoted: false });
	return uses;
}

/** A label's words, commas aside: "Each Row Once, Keyed by Columns" holds "Each Row Once". */
const partOfLabel = (name: string) =>
	[...LABELS].some((label) => ` ${label.replace(/,/g, '')} `.includes(` ${name} `));

/** Whether a name is the node's (or n8n's, or no setting's): exactly, or unquoted as part of a label. */
function isKnown({ name, quoted }: NameUse): boolean {
	if (LABELS.has(name) || NOT_THE_NODES.has(name)) return true;
	if (quoted) return false;
	const withoutStart = name.replace(SENTENCE_START, '');
	// One capitalised word after "The" is a word, not a phrase ("The Idempotency-Key").
	if (withoutStart !== name)
		return !withoutStart.includes(' ') || isKnown({ name: withoutStart, quoted });
	return partOfLabel(name);
}

describe('names the node uses in its texts', () => {
	const texts = literalTexts();
	const uses = texts.flatMap(({ file, text }) => namesIn(text).map((use) => ({ file, ...use })));

	test('every name a message, description or hint uses is a label of the form, or listed as not the node’s', () => {
		const unknown = uses
			.filter((use) => !isKnown(use))
			.map(({ file, name, quoted }) => `${file}: ${quoted ? `"${name}"` : name}`);
		expect([...new Set(unknown)]).toEqual([]);
	});

	test('the names are collected: the option names messages use are among them', () => {
		const names = new Set(uses.map(({ name }) => name));
		for (const name of [
			'Date Order',
			'Key Columns',
			'Row Key',
			'Max Retries',
			'Each Row Once, Keyed by an Expression',
			'Continue (using error output)',
			'Ignore SSL Issues (Insecure)',
		])
			expect(names).toContain(name);
	});

	test('every name listed as not the node’s is one a text uses, and none is a label of the form', () => {
		const names = new Set(uses.map(({ name }) => name));
		for (const name of NOT_THE_NODES.keys()) {
			expect([name, names.has(name)]).toEqual([name, true]);
			expect([name, LABELS.has(name) && name !== 'Inventory API']).toEqual([name, false]);
		}
	});

	test.each([
		['an option the node does not have', 'set the Idempotency Key option', 'Idempotency Key'],
		['a quoted part of a choice', 'choose Repeat Protection "Each Row Once"', 'Each Row Once'],
		['an old label', "Lower the node's Max Concurrency option", 'Max Concurrency'],
		['a choice misspelled', 'set Options → Date Order to Day-First Order', 'Day-First Order'],
	])('%s is caught: %s', (_case, text, name) => {
		expect(
			namesIn(text)
				.filter((use) => !isKnown(use))
				.map((use) => use.name),
		).toEqual([name]);
	});

	test.each([
		['an option', 'set Options → Date Order to Day First', ['Date Order', 'Day First']],
		[
			'a choice, quoted whole',
			'Repeat Protection "Only Retries of This Execution"',
			['Only Retries of This Execution', 'Repeat Protection'],
		],
		[
			'an option and a part of a label',
			'raise Max Retries / Max Retry Wait',
			['Max Retries', 'Max Retry Wait'],
		],
	])('%s passes: %s', (_case, text, names) => {
		const found = namesIn(text);
		expect(found.filter((use) => !isKnown(use))).toEqual([]);
		expect(found.map((use) => use.name)).toEqual(names);
	});
});
