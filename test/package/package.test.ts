import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * What n8n's verification looks at: the published tarball (what it holds, n8n's community-package
 * scanner over it and over the source) and the GitHub workflows that publish it with provenance.
 * `npm test` builds first, so dist/ is this checkout's build.
 */
const root = join(__dirname, '..', '..');
const checkScript = join(__dirname, 'check.mjs');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const workflows = ['ci.yml', 'publish.yml'].map((name) => join(root, '.github', 'workflows', name));

interface PackedFile {
	path: string;
}
interface ScanResult {
	passed: boolean;
	message: string | null;
	details: string | null;
}
interface ActionlintFinding {
	file: string;
	line: number;
	message: string;
}

function runCheck<T>(...args: string[]): T {
	// Without jest's NODE_ENV=test, which puts n8n's lint rules into their own test mode (every file
	// counts as a trigger node and a credential there).
	const env = { ...process.env };
	delete env.NODE_ENV;
	return JSON.parse(
		execFileSync(process.execPath, [checkScript, ...args], {
			cwd: root,
			env,
			encoding: 'utf8',
			timeout: 120_000,
		}),
	) as T;
}

const work = mkdtempSync(join(tmpdir(), 'inventory-pack-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let packedFiles: string[];
let unpacked: string;

beforeAll(() => {
	const output = execFileSync(
		'npm',
		['pack', '--json', '--ignore-scripts', '--pack-destination', work],
		{
			cwd: root,
			encoding: 'utf8',
		},
	);
	const [packed] = JSON.parse(output.slice(output.indexOf('['))) as Array<{
		filename: string;
		files: PackedFile[];
	}>;
	packedFiles = packed.files.map((file) => file.path).sort();
	unpacked = join(work, 'package');
	execFileSync('tar', ['-xzf', join(work, packed.filename), '-C', work]);
});

describe('the packed tarball', () => {
	test('holds the built node and credential, the licence, the changelog, the README and package.json: nothing else', () => {
		expect(packedFiles.filter((file) => !file.startsWith('dist/'))).toEqual([
			'CHANGELOG.md',
			'LICENSE.md',
			'README.md',
			'package.json',
		]);
		const misplaced = packedFiles.filter(
			(file) => file.startsWith('dist/') && !/^dist\/(nodes|credentials)\//.test(file),
		);
		expect(misplaced).toEqual([]);
		// Only what n8n loads: compiled JavaScript, the codex JSON and the icons (no maps, declarations or build info).
		expect(
			packedFiles.filter((file) => file.startsWith('dist/') && !/\.(js|json|svg)$/.test(file)),
		).toEqual([]);
	});

	test("holds every file its package.json names, and the node's icons and codex", () => {
		const named: string[] = [...manifest.n8n.nodes, ...manifest.n8n.credentials];
		if (manifest.main) named.push(manifest.main);
		expect(named.filter((file) => !packedFiles.includes(file))).toEqual([]);
		expect(packedFiles).toEqual(
			expect.arrayContaining([
				'dist/nodes/Inventory/inventory.svg',
				'dist/nodes/Inventory/inventory.dark.svg',
				'dist/nodes/Inventory/Inventory.node.json',
			]),
		);
	});

	test('declares no runtime dependency and n8n-workflow as its only peer', () => {
		const packedManifest = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8'));
		expect(packedManifest.dependencies).toBeUndefined();
		expect(packedManifest.peerDependencies).toEqual({ 'n8n-workflow': '*' });
		expect(packedManifest.n8n).toEqual(manifest.n8n);
	});

	test("passes n8n's community-package scanner, over the tarball and over the source", () => {
		expect(runCheck<ScanResult>('scan', unpacked)).toEqual({
			passed: true,
			message: null,
			details: null,
		});
		expect(runCheck<ScanResult>('scan', root, 'source')).toEqual({
			passed: true,
			message: null,
			details: null,
		});
	});

	test('the scanner would catch a runtime dependency (so the pass above means something)', () => {
		const tampered = join(work, 'tampered');
		cpSync(unpacked, tampered, { recursive: true });
		const tamperedManifest = JSON.parse(readFileSync(join(tampered, 'package.json'), 'utf8'));
		writeFileSync(
			join(tampered, 'package.json'),
			JSON.stringify({ ...tamperedManifest, dependencies: { axios: '^1.0.0' } }, null, 2),
		);
		const result = runCheck<ScanResult>('scan', tampered);
		expect(result.passed).toBe(false);
		expect(result.details).toContain('@n8n/community-nodes/no-runtime-dependencies');
	});
});

describe('the GitHub workflows', () => {
	test('exist and pass actionlint', () => {
		for (const file of workflows) expect(existsSync(file)).toBe(true);
		expect(runCheck<ActionlintFinding[]>('actionlint', ...workflows)).toEqual([]);
	});

	test('actionlint reports a broken workflow (so the pass above means something)', () => {
		const broken = join(work, 'broken.yml');
		writeFileSync(
			broken,
			'on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout\n',
		);
		expect(runCheck<ActionlintFinding[]>('actionlint', broken)).toEqual([
			expect.objectContaining({
				file: broken,
				line: 6,
				message: expect.stringContaining('ref is missing'),
			}),
		]);
	});

	test('publish runs n8n-node release from a tag with an OIDC token for provenance', () => {
		const publish = readFileSync(workflows[1], 'utf8');
		expect(publish).toMatch(/^ {6}id-token: write$/m);
		expect(publish).toMatch(/^ {4}tags:\n(?: +#.*\n)* +- '\*\.\*\.\*'$/m);
		expect(publish).toContain('npm run release');
		expect(publish).toContain('NPM_TOKEN: ${{ secrets.NPM_TOKEN }}');
		expect(manifest.scripts.release).toBe('n8n-node release');
	});

	test('publish also publishes the sandbox package from sandbox/, with the same version and provenance', () => {
		const publish = readFileSync(workflows[1], 'utf8');
		const sandboxStep = publish.slice(publish.indexOf('- name: Publish the sandbox'));
		expect(sandboxStep).toMatch(/^ {8}working-directory: sandbox$/m);
		expect(sandboxStep).toContain(
			`npm pkg set version="$(node -p "require('../package.json').version")"`,
		);
		expect(sandboxStep).toContain('npm publish --provenance --access public');
		expect(publish.indexOf('npm run release')).toBeLessThan(publish.indexOf(sandboxStep));
	});

	test('CI runs lint, build and the tests on pull requests', () => {
		const ci = readFileSync(workflows[0], 'utf8');
		expect(ci).toMatch(/^on:\n {2}pull_request:$/m);
		for (const step of ['npm ci', 'npm run lint', 'npm run build', 'npm test'])
			expect(ci).toContain(`run: ${step}\n`);
	});
});
