import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import jsoncParser from 'jsonc-eslint-parser';
import tseslint from 'typescript-eslint';

const n8nNodesBasePlugin = { 'n8n-nodes-base': n8nNodesBase };

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', 'sandbox/**', 'test/**', 'bench/**', 'scripts/**', '**/*.js', '**/*.mjs'] },
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
		extends: [tseslint.configs.recommended],
		languageOptions: {
			parserOptions: { project: ['./tsconfig.json'], sourceType: 'module' },
		},
	},
	{
		...n8nCommunityNodesPlugin.configs.recommended,
		files: ['nodes/**/*.ts', 'credentials/**/*.ts', 'package.json'],
	},
	{
		files: ['package.json'],
		languageOptions: { parser: jsoncParser },
		plugins: n8nNodesBasePlugin,
		rules: n8nNodesBase.configs.community.rules,
	},
	{
		files: ['credentials/**/*.ts'],
		plugins: n8nNodesBasePlugin,
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// The same two exceptions as n8n's own community-node lint config (@n8n/node-cli): they
			// contradict the rules of @n8n/eslint-plugin-community-nodes.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		plugins: n8nNodesBasePlugin,
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			// As in @n8n/node-cli's config: NodeConnectionTypes replaces the 'main' literals these expect.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
);
