import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The TypeScript files below a folder, at any depth: what the package tests read the node's source from. */
export function sourceFiles(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const path = join(folder, name);
		if (statSync(path).isDirectory()) return sourceFiles(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}
