/**
 * Jest's globalSetup: the suites load the package from dist/, so a suite run alone after an edit would
 * silently test the previous build. When a source of the package changed after dist/ was built (or
 * dist/ is missing), this builds it first, and stops the run with the build's errors if it fails.
 * `npm test` has just built, so there it only compares modification times.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const DIST = join(ROOT, 'dist');
/** What `n8n-node build` compiles (tsconfig.json's include) and its configuration. */
const SOURCES = ['nodes', 'credentials', 'tsconfig.json'];

/** Modification times of a path and of everything under it; folders count (a deleted file changes its folder's). */
function modificationTimes(path: string, withFolders: boolean): number[] {
	const stats = statSync(path);
	if (!stats.isDirectory()) return [stats.mtimeMs];
	const inside = readdirSync(path).flatMap((name) =>
		modificationTimes(join(path, name), withFolders),
	);
	return withFolders ? [stats.mtimeMs, ...inside] : inside;
}

/** When dist/ was built: its oldest file (`n8n-node build` empties it first); undefined when missing or empty. */
function builtAt(): number | undefined {
	try {
		const times = modificationTimes(DIST, false);
		return times.length > 0 ? Math.min(...times) : undefined;
	} catch {
		return undefined;
	}
}

export default function freshDist(): void {
	const built = builtAt();
	const changed = Math.max(
		...SOURCES.flatMap((source) => modificationTimes(join(ROOT, source), true)),
	);
	if (built !== undefined && built >= changed) return;
	const why =
		built === undefined ? 'dist/ is missing' : 'the package source changed after dist/ was built';
	console.log(
		`\n${why}: running npm run build before the tests, which load the package from dist/`,
	);
	const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
	if (build.status !== 0) {
		throw new Error(
			`${why}, and npm run build failed (its errors are above). The tests load the package from dist/: fix the build, then run them again.`,
		);
	}
}
