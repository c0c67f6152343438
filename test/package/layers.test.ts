import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { sourceFiles } from '../harness/source-files';

/*
 * The node's folders are layers (docs/development.md, Layout): a file imports from its own folder
 * and from layers below it, never from a layer above or beside it.
 */
const nodeDir = join(__dirname, '..', '..', 'nodes', 'Inventory');

/** Each folder's layer; the node file (the folder's root) stands above them all. */
const LAYERS: Readonly<Record<string, number>> = {
	'.': 5,
	actions: 4,
	idempotency: 3,
	values: 2,
	transport: 2,
	scheduling: 1,
	model: 0,
};

/** A file's folder: the first folder under nodes/Inventory, `.` for the node file. */
function folderOf(path: string): string {
	const parts = relative(nodeDir, path).split('/');
	return parts.length === 1 ? '.' : parts[0];
}

interface Import {
	from: string;
	to: string;
}

function relativeImports(): Import[] {
	return sourceFiles(nodeDir).flatMap((path) =>
		[...readFileSync(path, 'utf8').matchAll(/\bfrom\s+'(\.{1,2}\/[^']+)'/g)].map(([, spec]) => {
			const target = resolve(dirname(path), spec);
			const isFolder = existsSync(target) && statSync(target).isDirectory();
			return {
				from: relative(nodeDir, path),
				to: relative(nodeDir, isFolder ? join(target, 'index') : target),
			};
		}),
	);
}

describe('the node folders are layers', () => {
	const imports = relativeImports();

	test('every folder of the node is a known layer', () => {
		const folders = new Set(sourceFiles(nodeDir).map(folderOf));
		expect([...folders].sort()).toEqual(Object.keys(LAYERS).sort());
	});

	test('no file imports from a layer above or beside its own', () => {
		expect(imports.length).toBeGreaterThan(50);
		const upward = imports.filter(({ from, to }) => {
			const own = folderOf(join(nodeDir, from));
			const target = folderOf(join(nodeDir, to));
			return own !== target && LAYERS[target] >= LAYERS[own];
		});
		expect(upward).toEqual([]);
	});
});
