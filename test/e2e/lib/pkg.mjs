// Build and `npm pack` this package, and install the tarball into an n8n user folder's community
// nodes folder ($N8N_USER_FOLDER/.n8n/nodes) the way n8n holds packages it installs itself.
import fs from 'node:fs';
import path from 'node:path';

import { hostNodeEnv } from './host.mjs';
import { REPO_DIR, WORK_DIR, cleanEnv, mustRun } from './util.mjs';

export const PACKAGE_NAME = JSON.parse(
	fs.readFileSync(path.join(REPO_DIR, 'package.json'), 'utf8'),
).name;

/** `npm run build` (n8n-node build: tsc, then the icons into dist/). */
export async function buildPackage() {
	await mustRun('npm', ['run', 'build'], { cwd: REPO_DIR, timeoutMs: 10 * 60_000 });
}

/** Builds the package and packs it: what every runner installs into n8n. */
export async function buildAndPackPackage() {
	await buildPackage();
	return await packPackage();
}

/**
 * `npm pack` of the package buildPackage built (no install scripts run); returns the tarball's path.
 * Each run packs into a folder of its own: WORK_DIR is shared by every checkout on the machine, and
 * a tarball in one shared folder was overwritten by another checkout's run between this run's pack
 * and its install (seen: a queue-mode run installed another branch's build).
 */
export async function packPackage() {
	const dest = path.join(WORK_DIR, `pack-${process.pid}`);
	fs.rmSync(dest, { recursive: true, force: true });
	fs.mkdirSync(dest, { recursive: true });
	// Installed copies are unpacked, so the tarball is needed only while this process runs.
	process.once('exit', () => fs.rmSync(dest, { recursive: true, force: true }));
	const r = await mustRun(
		'npm',
		['pack', '--json', '--ignore-scripts', '--pack-destination', dest],
		{
			cwd: REPO_DIR,
			timeoutMs: 10 * 60_000,
		},
	);
	const info = JSON.parse(r.stdout.slice(r.stdout.indexOf('[')));
	const tgz = path.join(dest, info[0].filename);
	if (!fs.existsSync(tgz)) throw new Error(`npm pack did not write ${tgz}`);
	return { tgz, files: info[0].files.map((f) => f.path), size: info[0].size };
}

/** Links this checkout into <userFolder>/.n8n/nodes as the installed package (for `npm run dev`). */
export function linkIntoNodesFolder(nodesDir) {
	const link = path.join(nodesDir, 'node_modules', PACKAGE_NAME);
	fs.mkdirSync(path.dirname(link), { recursive: true });
	fs.rmSync(link, { recursive: true, force: true });
	fs.symlinkSync(REPO_DIR, link, 'dir');
	recordInNodesPackage(
		nodesDir,
		JSON.parse(fs.readFileSync(path.join(REPO_DIR, 'package.json'), 'utf8')).version,
	);
	return link;
}

/**
 * Installs the tarball into <userFolder>/.n8n/nodes.
 *
 * mode 'n8n' (default) does what n8n 2.40's own installer does for Settings > Community Nodes
 * (CommunityPackagesService.downloadPackage): unpack into nodes/node_modules/<name>, drop dev, peer
 * and optional dependencies from its package.json, `npm install --install-strategy=shallow
 * --ignore-scripts=true --package-lock=false` inside it, and record it in nodes/package.json.
 * mode 'npm' is the manual way of n8n's docs: `npm i <tgz>` in the nodes folder.
 */
export async function installIntoNodesFolder(
	tgz,
	nodesDir,
	{ mode = process.env.E2E_INSTALL_MODE ?? 'n8n' } = {},
) {
	fs.mkdirSync(nodesDir, { recursive: true });
	if (mode === 'npm') {
		recordInNodesPackage(nodesDir);
		// As on a user's machine, with the Node that runs n8n: npm also installs the peer
		// dependency n8n-workflow there, whose isolated-vm builds only against Node 24.
		await mustRun('npm', ['install', tgz, '--no-audit', '--no-fund'], {
			cwd: nodesDir,
			env: hostNodeEnv(),
			timeoutMs: 10 * 60_000,
		});
		return path.join(nodesDir, 'node_modules', PACKAGE_NAME);
	}
	const pkgDir = path.join(nodesDir, 'node_modules', PACKAGE_NAME);
	fs.rmSync(pkgDir, { recursive: true, force: true });
	fs.mkdirSync(pkgDir, { recursive: true });
	await mustRun('tar', ['-xzf', tgz, '-C', pkgDir, '--strip-components=1'], { timeoutMs: 60_000 });
	const pj = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
	const kept = { ...pj };
	for (const field of ['devDependencies', 'peerDependencies', 'optionalDependencies'])
		delete kept[field];
	fs.writeFileSync(path.join(pkgDir, 'package.json'), JSON.stringify(kept, null, 2));
	await mustRun(
		'npm',
		[
			'install',
			'--audit=false',
			'--fund=false',
			'--bin-links=false',
			'--install-strategy=shallow',
			'--ignore-scripts=true',
			'--package-lock=false',
		],
		{ cwd: pkgDir, env: cleanEnv(), timeoutMs: 10 * 60_000 },
	);
	recordInNodesPackage(nodesDir, pj.version);
	return pkgDir;
}

/** nodes/package.json, where n8n lists the community packages it holds (with `version`, this one). */
function recordInNodesPackage(nodesDir, version) {
	const pkgJsonPath = path.join(nodesDir, 'package.json');
	const nodesPkg = fs.existsSync(pkgJsonPath)
		? JSON.parse(fs.readFileSync(pkgJsonPath, 'utf8'))
		: { name: 'installed-nodes', private: true, dependencies: {} };
	if (version)
		nodesPkg.dependencies = { ...(nodesPkg.dependencies ?? {}), [PACKAGE_NAME]: version };
	fs.writeFileSync(pkgJsonPath, JSON.stringify(nodesPkg, null, 2));
}
