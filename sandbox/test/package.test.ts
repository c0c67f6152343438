import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import axios from 'axios';

import { TOKENS } from '../../test/fixtures';

/*
 * The sandbox as its users get it from npm: packed in sandbox/ (its prepack compiles dist/), installed
 * from the tarball into an empty folder without the registry, and its bin and its programmatic API run
 * from there, where nothing else of this repository can be reached.
 */
const sandboxDir = join(__dirname, '..');
const repositoryRoot = join(sandboxDir, '..');
const manifest = JSON.parse(readFileSync(join(sandboxDir, 'package.json'), 'utf8'));
const NAME = 'n8n-nodes-inventory-sandbox';

const work = mkdtempSync(join(tmpdir(), 'inventory-sandbox-pack-'));
const app = join(work, 'app');
const installed = join(app, 'node_modules', NAME);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * npm run by `npm test` hands its settings to child processes as npm_* variables (this repository's
 * ignore-scripts and its folder as the prefix among them): the sandbox is packed and installed as a
 * user's npm would do it, without them.
 */
function npm(args: string[], cwd: string): string {
	const env = Object.fromEntries(
		Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)),
	);
	return execFileSync('npm', args, {
		cwd,
		env,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
		timeout: 180_000,
	});
}

let packedFiles: string[];
let tarball: string;

beforeAll(() => {
	const output = npm(['pack', '--json', '--pack-destination', work], sandboxDir);
	const [packed] = JSON.parse(output.slice(output.indexOf('['))) as Array<{
		filename: string;
		files: Array<{ path: string }>;
	}>;
	packedFiles = packed.files.map((file) => file.path).sort();
	tarball = join(work, packed.filename);
	mkdirSync(app);
	npm(['install', tarball, '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], app);
	// As long as its npm commands may take: packing compiles the sandbox, slow on a loaded machine.
}, 180_000);

describe('the sandbox package', () => {
	test('holds the compiled sandbox, its seed, README, licence and package.json: no source, no test', () => {
		expect(packedFiles.filter((file) => !file.startsWith('dist/'))).toEqual([
			'LICENSE.md',
			'README.md',
			'package.json',
			'seed.json',
		]);
		expect(
			packedFiles.filter((file) => file.startsWith('dist/') && !/\.(js|d\.ts)$/.test(file)),
		).toEqual([]);
		expect(packedFiles).toEqual(
			expect.arrayContaining(['dist/cli.js', 'dist/index.js', 'dist/index.d.ts']),
		);
	});

	test('declares its bin, main and types, and no dependency of any kind', () => {
		const packedManifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
		expect(packedManifest.name).toBe(NAME);
		expect(packedManifest.version).toBe(manifest.version);
		expect(packedManifest.bin).toEqual({ [NAME]: 'dist/cli.js' });
		expect([packedManifest.main, packedManifest.types]).toEqual([
			'dist/index.js',
			'dist/index.d.ts',
		]);
		for (const field of [
			'dependencies',
			'peerDependencies',
			'optionalDependencies',
			'bundleDependencies',
		])
			expect(packedManifest[field]).toBeUndefined();
		// installed offline: nothing came with it
		expect(
			readdirSync(join(app, 'node_modules')).filter((entry) => !entry.startsWith('.')),
		).toEqual([NAME]);
	});

	test('its bin starts, answers an API request with a demo token from its own seed, and stops on SIGTERM', async () => {
		const bin = join(app, 'node_modules', '.bin', NAME);
		const child: ChildProcess = spawn(bin, ['--port', '0', '--quiet'], {
			cwd: app,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
		try {
			let stdout = '';
			const banner = await new Promise<string>((resolve, reject) => {
				child.stdout?.on('data', (chunk: Buffer) => {
					stdout += chunk.toString();
					if (stdout.includes('Press Ctrl+C to stop.')) resolve(stdout);
				});
				void exited.then((code) => reject(new Error(`the bin exited (${code}): ${stdout}`)));
			});
			const baseUrl = /base URL\s+(\S+)/.exec(banner)?.[1];
			expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
			expect(/seed file\s+(\S+)/.exec(banner)?.[1]).toBe(join(installed, 'seed.json'));
			expect(banner).toContain(TOKENS.fullAccess);

			const response = await axios.post(
				`${baseUrl}/api/v1/assets/1001/todos`,
				{ name: 'Tag and label', due_date: '2026-12-31' },
				{
					headers: {
						Authorization: `Bearer ${TOKENS.fullAccess}`,
						Accept: 'application/json',
						'Idempotency-Key': randomUUID(),
					},
					validateStatus: () => true,
				},
			);
			expect(response.status).toBe(201);
			expect(response.data.data).toMatchObject({
				asset_id: 1001,
				todo: { name: 'Tag and label', due_date: '2026-12-31', is_complete: false },
			});
		} finally {
			child.kill('SIGTERM');
		}
		expect(await exited).toBe(0);
	});

	test('its programmatic API runs from the installed package, and its types hold (a wrong option does not compile)', () => {
		writeFileSync(
			join(app, 'consumer.ts'),
			`import { DEFAULT_SEED_FILE, startSandbox, type SandboxHandle, type SandboxOptions } from '${NAME}';

// @ts-expect-error the port is a number: unused (an error) if the package had no types
export const wrong: SandboxOptions = { port: '8080' };

async function todo(sandbox: SandboxHandle, key: string): Promise<number> {
	const response = await fetch(\`\${sandbox.baseUrl}/api/v1/assets/1001/todos\`, {
		method: 'POST',
		headers: {
			Authorization: 'Bearer ${TOKENS.fullAccess}',
			'Content-Type': 'application/json',
			'Idempotency-Key': key,
		},
		body: JSON.stringify({ name: 'Tag and label' }),
	});
	return response.status;
}

async function main(): Promise<void> {
	const sandbox = await startSandbox({ port: 0, log: false, rateLimit: { ratePerSecond: 1, burst: 1 } });
	const statuses = [
		await todo(sandbox, '0b7e6d9a-1c2f-4e3a-8b5d-6f7a8b9c0d1e'),
		await todo(sandbox, '1c8f7e0b-2d3a-4f4b-9c6e-7a8b9c0d1e2f'),
	];
	const state = sandbox.state();
	await sandbox.close();
	console.log(JSON.stringify({
		seedFile: DEFAULT_SEED_FILE,
		statuses,
		todos: state.todos.map((t) => t.name),
		rateLimited: state.counters.rateLimited,
	}));
}

void main();
`,
		);
		writeFileSync(
			join(app, 'tsconfig.json'),
			JSON.stringify({
				compilerOptions: {
					strict: true,
					target: 'es2022',
					module: 'commonjs',
					moduleResolution: 'node',
					lib: ['es2022', 'dom'],
					types: [],
					outDir: 'out',
				},
				files: ['consumer.ts'],
			}),
		);
		execFileSync(
			process.execPath,
			[join(repositoryRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', app],
			{ cwd: app, encoding: 'utf8' },
		);
		const printed = execFileSync(process.execPath, [join(app, 'out', 'consumer.js')], {
			cwd: app,
			encoding: 'utf8',
			timeout: 30_000,
		});
		expect(JSON.parse(printed)).toEqual({
			seedFile: join(installed, 'seed.json'),
			statuses: [201, 429],
			todos: ['Tag and label'],
			rateLimited: 1,
		});
	});
});
