/**
 * The node's form as n8n's tooling reads it: every parameter the editor shows is a plain
 * `INodeProperties` literal that eslint-plugin-n8n-nodes-base recognises as a node parameter (its
 * own `isNodeParameter`: an object literal with displayName, name, type and default) and reads as
 * the editor shows it (a description may be a template of exported text constants, a range stated
 * from its check's numbers: the lint reads the text around them, this test the whole); where a list
 * is not inline (shared option lists, the fields of a collection), what the plugin's sorting rules
 * would ask is checked here instead.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import type { TSESTree } from '@typescript-eslint/utils';
import { id } from 'eslint-plugin-n8n-nodes-base/dist/lib/ast/identifiers';
import {
	Workflow,
	type INode,
	type INodeProperties,
	type INodePropertyCollection,
	type INodePropertyOptions,
} from 'n8n-workflow';
import { parser } from 'typescript-eslint';

import { fromDist, INVENTORY_TYPE, inventoryNodeType, packageRoot } from '../harness/engine';
import { sourceFiles } from '../harness/source-files';

const root = packageRoot();

/** Each resource's operations map, as the router reads it. */
const routedOperations = (
	fromDist('./nodes/Inventory/actions/router.js') as { operations: Record<string, object> }
).operations;

/** The Operation dropdown of each resource. */
const operationDropdowns = inventoryNodeType.description.properties.filter(
	({ name }) => name === 'operation',
);

/** A parameter literal as the lint reads it: its keys whose values are written as literals. */
interface Literal {
	file: string;
	values: Record<string, unknown>;
}

function walk(node: unknown, visit: (node: TSESTree.Node) => void): void {
	if (Array.isArray(node)) {
		for (const child of node) walk(child, visit);
		return;
	}
	if (typeof node !== 'object' || node === null || !('type' in node)) return;
	visit(node as TSESTree.Node);
	for (const [key, child] of Object.entries(node)) if (key !== 'parent') walk(child, visit);
}

/**
 * The text constants the built node's modules export, by name; a name two modules export with
 * different texts stands for none.
 */
function exportedTexts(): Map<string, string | undefined> {
	const texts = new Map<string, string | undefined>();
	for (const path of sourceFiles(join(root, 'nodes'))) {
		const built = `./${relative(root, path).replace(/\.ts$/, '.js')}`;
		for (const [name, value] of Object.entries(fromDist(built) as Record<string, unknown>))
			if (typeof value === 'string')
				texts.set(name, texts.has(name) && texts.get(name) !== value ? undefined : value);
	}
	return texts;
}

/**
 * A description or hint written as a template of exported constants (`\`Salvage value, ${AMOUNT_RANGE}\``,
 * its range stated from the constant its check uses): its text, the lint reading the text around
 * them; undefined for any other template.
 */
function templateText(template: TSESTree.TemplateLiteral, texts: Map<string, string | undefined>) {
	const parts = template.expressions.map((expression) =>
		expression.type === 'Identifier' ? texts.get(expression.name) : undefined,
	);
	if (parts.includes(undefined)) return undefined;
	return template.quasis
		.map((quasi, index) => `${quasi.value.cooked}${parts[index] ?? ''}`)
		.join('');
}

function parameterLiterals(): Literal[] {
	const texts = exportedTexts();
	const literals: Literal[] = [];
	for (const path of sourceFiles(join(root, 'nodes'))) {
		const { ast } = parser.parseForESLint(readFileSync(path, 'utf8'));
		walk(ast, (node) => {
			if (node.type !== 'ObjectExpression' || !id.isNodeParameter(node)) return;
			const values: Record<string, unknown> = {};
			for (const property of node.properties) {
				if (property.type !== 'Property' || property.key.type !== 'Identifier') continue;
				if (property.value.type === 'Literal') values[property.key.name] = property.value.value;
				if (
					property.value.type === 'TemplateLiteral' &&
					(property.key.name === 'description' || property.key.name === 'hint')
				)
					values[property.key.name] = templateText(property.value, texts);
			}
			literals.push({ file: relative(root, path), values });
		});
	}
	return literals;
}

/** Every parameter the editor can show: top level, in collections, in fixed collections' sections. */
function formParameters(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => {
		const nested = (property.options ?? []).flatMap((option) => {
			if ('values' in option) return formParameters((option as INodePropertyCollection).values);
			if ('displayName' in option && 'type' in option)
				return formParameters([option as INodeProperties]);
			return [];
		});
		return [property, ...nested];
	});
}

/** What the lint reads of a parameter, and the editor shows: its literal texts. */
const SHOWN = ['displayName', 'name', 'type', 'description', 'hint', 'placeholder'] as const;

const parameters = formParameters(inventoryNodeType.description.properties);
const literals = parameterLiterals();

function literalOf(parameter: INodeProperties): Literal | undefined {
	return literals.find(({ values }) =>
		SHOWN.every((key) => values[key] === (parameter as unknown as Record<string, unknown>)[key]),
	);
}

describe("the form as n8n's lint reads it", () => {
	test('every parameter the editor shows is a literal the lint recognises, with the texts shown', () => {
		const unseen = parameters.filter((parameter) => !literalOf(parameter));
		expect(parameters.length).toBeGreaterThan(0);
		expect(unseen.map(({ name, displayName }) => `${name} (${displayName})`)).toEqual([]);
	});

	test('collections list their fields, and option lists their options, by name (as the lint asks of inline lists)', () => {
		for (const parameter of parameters) {
			const names = (parameter.options ?? []).map((option) =>
				'displayName' in option ? option.displayName : (option as INodePropertyOptions).name,
			);
			if (parameter.type === 'collection' || parameter.type === 'options')
				expect([parameter.name, names]).toEqual([
					parameter.name,
					[...names].sort((a, b) => a.localeCompare(b)),
				]);
		}
	});

	test('a number or choice that fills the request starts empty: nothing is sent that the user did not choose', () => {
		// n8n saves no parameter left at its default and stores a field added to a collection with its
		// default, so a default would be sent as if chosen. The node's own options keep theirs.
		const requestFields = formParameters(
			inventoryNodeType.description.properties.filter(
				({ name, displayOptions }) => name !== 'options' && displayOptions?.show?.operation,
			),
		);
		const shown = (type: string) =>
			requestFields
				.filter((parameter) => parameter.type === type)
				.map(({ name, default: byDefault, placeholder }) => ({
					name,
					byDefault,
					placeholder: placeholder?.replace(/\d[\d.]*/, 'N'),
				}));
		// Amounts and counts are text fields, read by the node's own rules: an n8n number input reads
		// `12,50` as 1250 before the node sees it.
		expect(shown('number')).toEqual([]);
		const amountsAndCounts = [
			// Record Acquisition: Additional Fields with the Payment entry
			...['cost', 'financeAmount', 'payment', 'numberOfPayments', 'price', 'salvageValue'],
			// Update Billing: Cost, License Count with Per License, and under Additional Fields
			...['cost', 'licenseCount', 'licenseCount'],
		];
		const numbers = shown('string').filter(({ name }) => amountsAndCounts.includes(name));
		expect(numbers.map(({ name }) => name)).toEqual(amountsAndCounts);
		expect(
			numbers.filter(({ byDefault, placeholder }) => byDefault !== '' || placeholder !== 'e.g. N'),
		).toEqual([]);
		// A custom field pair's Type says how its Value is sent; it sends nothing of its own.
		const choices = shown('options').filter(({ name }) => name !== 'type');
		expect(choices.map(({ name, byDefault }) => [name, byDefault])).toEqual([
			// Record Acquisition: the Payment entry; then Update Billing
			['billingFrequency', ''],
			['priceModel', ''],
			['billingFrequency', ''],
		]);
		const options = inventoryNodeType.description.properties.filter(
			({ name }) => name === 'options',
		);
		const behaviourNumbers = formParameters(options).filter(({ type }) => type === 'number');
		expect(behaviourNumbers.length).toBeGreaterThan(0);
		expect(behaviourNumbers.filter(({ default: d }) => typeof d !== 'number')).toEqual([]);
	});

	test("each resource's Operation dropdown lists exactly the operations its map routes", () => {
		const listed = Object.fromEntries(
			operationDropdowns.map(({ displayOptions, options }) => [
				String(displayOptions?.show?.resource?.[0]),
				(options as INodePropertyOptions[]).map(({ value }) => String(value)).sort(),
			]),
		);
		const routed = Object.fromEntries(
			Object.entries(routedOperations).map(([resource, map]) => [
				resource,
				Object.keys(map).sort(),
			]),
		);
		expect(listed).toEqual(routed);
	});

	test('the canvas subtitle is the name the Operation dropdown shows for the chosen operation', () => {
		const subtitle = String(inventoryNodeType.description.subtitle);
		const nodeTypes = {
			getByName: () => inventoryNodeType,
			getByNameAndVersion: () => inventoryNodeType,
			getKnownTypes: () => ({}),
		};
		const shown = operationDropdowns.flatMap(({ displayOptions, options }) =>
			(options as INodePropertyOptions[]).map(({ value }) => {
				const node: INode = {
					id: 'subtitle',
					name: 'Inventory',
					type: INVENTORY_TYPE,
					typeVersion: 1,
					position: [0, 0],
					parameters: { resource: String(displayOptions?.show?.resource?.[0]), operation: value },
				};
				const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
				return workflow.expression.getSimpleParameterValue(node, subtitle, 'internal', {});
			}),
		);
		expect(shown).toEqual(
			operationDropdowns.flatMap(({ options }) =>
				(options as INodePropertyOptions[]).map(({ name }) => name),
			),
		);
	});
});
