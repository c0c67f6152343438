import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

import { codeSpans, readPage, root } from './page-text';

/*
 * The development page's map of the code stays true: every TypeScript file it names (a path, or a
 * name inside the folder its row is about) is a file of the repository, so a file renamed or folded
 * into another fails here until the page says where it went.
 */

/** The repository's TypeScript files, by their path from the root. */
function typeScriptFiles(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		if (name === 'node_modules' || name.startsWith('.') || name === 'dist' || name === 'build')
			return [];
		const path = join(folder, name);
		if (statSync(path).isDirectory()) return typeScriptFiles(path);
		return path.endsWith('.ts') ? [relative(root, path)] : [];
	});
}

describe("docs/development.md's map of the code", () => {
	const files = typeScriptFiles(root);
	const named = [
		...new Set(
			codeSpans(readPage('docs/development.md')).filter(
				(span) => /^[\w/-][\w./-]*\.ts$/.test(span) && !span.includes('*'),
			),
		),
	];

	test('names TypeScript files at all', () => {
		expect(named.length).toBeGreaterThan(40);
	});

	test('every TypeScript file it names exists', () => {
		const missing = named.filter(
			(name) => !files.some((file) => file === name || file.endsWith(`/${name}`)),
		);
		expect(missing).toEqual([]);
	});
});
