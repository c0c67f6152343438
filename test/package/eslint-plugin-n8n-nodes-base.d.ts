// The lint plugin ships no types; form.test.ts uses only its node-parameter test.
declare module 'eslint-plugin-n8n-nodes-base/dist/lib/ast/identifiers' {
	import type { TSESTree } from '@typescript-eslint/utils';

	export const id: { isNodeParameter(node: TSESTree.ObjectExpression): boolean };
}
