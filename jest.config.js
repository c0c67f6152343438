/** @type {import('jest').Config} */
module.exports = {
	preset: 'ts-jest',
	// Node's, with each test's console output (n8n's logger included) shown only when the test fails.
	testEnvironment: '<rootDir>/test/harness/quiet-environment.js',
	roots: ['<rootDir>/test', '<rootDir>/sandbox/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/test/e2e/'],
	// The e2e suites' n8n user folders (npm run n8n / n8n:queue keep theirs) and the installed n8n
	// hosts hold package.json copies of their own.
	modulePathIgnorePatterns: [
		'<rootDir>/test/e2e/.work/',
		'<rootDir>/test/e2e/.host/',
		'<rootDir>/test/e2e/.host-n8n1/',
	],
	// ts-jest only transpiles (tsconfig.test.json's isolatedModules): the tests' types are checked by
	// `npm run lint` (tsc --noEmit -p tsconfig.test.json).
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
	},
	testTimeout: 60000,
	// Every core (jest's default leaves one free): many suites spend their time waiting on sockets and
	// timers, not on a core.
	maxWorkers: '100%',
	// The suites load the package from dist/: a suite run alone after an edit rebuilds it first.
	globalSetup: '<rootDir>/test/harness/fresh-dist.ts',
};
