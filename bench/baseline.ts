/**
 * Another build of the Inventory node, from a git revision ("today", before a change), loaded into
 * the same engine under its own type name, so one process can run both and compare them.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { INodeType } from 'n8n-workflow';

import { INVENTORY_TYPE, packageRoot, registerNodeType } from '../test/harness/engine';

/** The node before issue 16 (per-record order, automatic concurrency). */
export const DEFAULT_BASELINE_REF = '2574db3';

/**
 * Builds `ref`'s node (tsc of its nodes/ and credentials/ into build/baseline/<ref>/dist, once) and
 * registers it; resolves to its node type name.
 */
export function loadBaselineNode(ref: string): string {
	const root = packageRoot();
	const sha = execFileSync('git', ['-C', root, 'rev-parse', '--short', ref], {
		encoding: 'utf8',
	}).trim();
	const dir = join(root, 'build', 'baseline', sha);
	const nodeFile = join(dir, 'dist', 'nodes', 'Inventory', 'Inventory.node.js');
	if (!existsSync(nodeFile)) {
		mkdirSync(dir, { recursive: true });
		const archive = execFileSync('git', [
			'-C',
			root,
			'archive',
			sha,
			'tsconfig.json',
			'nodes',
			'credentials',
		]);
		execFileSync('tar', ['-x', '-C', dir], { input: archive });
		execFileSync(process.execPath, [
			join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
			'-p',
			join(dir, 'tsconfig.json'),
		]);
	}
	const { Inventory } = createRequire(__filename)(nodeFile) as { Inventory: new () => INodeType };
	const type = `${INVENTORY_TYPE}Baseline`;
	registerNodeType(type, new Inventory());
	return type;
}
