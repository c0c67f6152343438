import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * `npm run release` keeps the hand-written CHANGELOG.md: no changelog generator runs, and the
 * release stops when the CHANGELOG's newest section is not the version being released.
 */
const root = join(__dirname, '..', '..');
const releaseScript = join(root, 'scripts', 'release.mjs');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
	scripts: Record<string, string>;
};
const changelogGenerators = /auto-changelog|release-it|conventional-changelog|changesets/;

describe('the release', () => {
	test('npm run release is scripts/release.mjs, and no script runs a changelog generator', () => {
		expect(manifest.scripts.release).toBe('node scripts/release.mjs');
		const generating = Object.entries(manifest.scripts).filter(([, command]) =>
			changelogGenerators.test(command),
		);
		expect(generating).toEqual([]);
		const code = readFileSync(releaseScript, 'utf8').replace(/^\s*\/\/.*$/gm, '');
		expect(code).not.toMatch(/writeFile|changelog -p|npx|release-it/);
	});

	test('in GitHub Actions, the n8n-node release it hands over to lints, builds and publishes, writing no changelog', () => {
		// n8n-node release runs release-it with `npx auto-changelog -p` on a machine, and only
		// lint, build and npm publish in GitHub Actions: an upgrade of @n8n/node-cli that changes
		// that would show here.
		const cli = readFileSync(
			join(root, 'node_modules', '@n8n', 'node-cli', 'dist', 'commands', 'release.js'),
			'utf8',
		);
		const ciBranch = /if \(isCI\) \{([\s\S]*?)return;/.exec(cli)?.[1];
		expect(ciBranch).toBeDefined();
		expect(ciBranch).toMatch(/'publish'/);
		expect(ciBranch).not.toMatch(/changelog|release-it/i);
	});

	test('a CHANGELOG whose newest section is another version stops the release before anything runs', () => {
		const work = mkdtempSync(join(tmpdir(), 'inventory-release-'));
		try {
			mkdirSync(join(work, 'sandbox'));
			for (const file of ['package.json', 'package-lock.json', 'sandbox/package.json']) {
				copyFileSync(join(root, file), join(work, file));
			}
			const changelog = `# Changelog\n\n## 9.9.9\n\nNotes.\n\n${readFileSync(join(root, 'CHANGELOG.md'), 'utf8')}`;
			writeFileSync(join(work, 'CHANGELOG.md'), changelog);
			const result = spawnSync(process.execPath, [releaseScript, '--dry-run'], {
				cwd: work,
				encoding: 'utf8',
				env: { ...process.env, GITHUB_ACTIONS: '' },
			});
			expect(result.status).toBe(1);
			expect(result.stderr).toContain('CHANGELOG.md is 9.9.9');
			expect(result.stdout).not.toContain('> npm');
			expect(readFileSync(join(work, 'CHANGELOG.md'), 'utf8')).toBe(changelog);
		} finally {
			rmSync(work, { recursive: true, force: true });
		}
	});
});
