// Lints the repository's development code (the sandbox, tests and their harness, benchmarks and scripts) with n8n's
// own community-node config, unchanged, plus one override: the rules about what a published node may do
// inside n8n (n8n Cloud's runtime: no Node built-ins, no process/timers globals, no console, no child
// processes, "usable as tool") are off there. An HTTP simulator, CLIs, benchmarks and test harnesses run
// on Node itself and never inside n8n. The package's own code is linted by eslint.config.mjs (n8n's
// default, as `n8n-node lint` requires) with every rule on.
import { config } from '@n8n/node-cli/eslint';

export const DEV_CODE = ['sandbox/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'];

export default [
	...config,
	{
		files: DEV_CODE,
		rules: {
			'@n8n/community-nodes/no-restricted-imports': 'off',
			'@n8n/community-nodes/no-restricted-globals': 'off',
			'@n8n/community-nodes/no-dangerous-functions': 'off',
			'@n8n/community-nodes/node-usable-as-tool': 'off',
			'no-console': 'off',
		},
	},
];
