#!/usr/bin/env node
// `npm run release`: releases the version that package.json, sandbox/package.json and the newest
// section of the hand-written CHANGELOG.md agree on. It never writes the CHANGELOG: the release
// notes are written for users, by hand, before the release (n8n-node release's release-it run would
// bump the version and write `npx auto-changelog -p`, the git log, over them).
//
// On a maintainer's machine: checks the versions, that the tag is new, that main is clean and pushed;
// runs lint, the jest suites (build included) and `npm pack --dry-run`; then tags the version and
// pushes the tag, which .github/workflows/publish.yml publishes with npm provenance.
// `npm run release -- --dry-run` does every check and run and prints the git commands it would run,
// tagging, pushing and publishing nothing; it goes on past a git check that fails and lists it.
//
// In GitHub Actions (GITHUB_ACTIONS set, the tag's publish job): checks the versions and that the tag
// is the version, then runs n8n-node release, which there only lints, builds and runs
// `npm publish` with provenance (RELEASE_MODE, which its prepublishOnly check wants).
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = process.cwd();
const dryRun = process.argv.includes('--dry-run');
const inCi = Boolean(process.env.GITHUB_ACTIONS);

function fail(message) {
	console.error(`release: ${message}`);
	process.exit(1);
}

function say(message) {
	console.log(`release: ${message}`);
}

function run(command, args) {
	console.log(`\n> ${command} ${args.join(' ')}`);
	const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
	if (result.status !== 0) fail(`\`${command} ${args.join(' ')}\` failed: nothing was released.`);
}

function git(...args) {
	return execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
}

function gitOk(...args) {
	return spawnSync('git', args, { cwd: root, stdio: 'ignore' }).status === 0;
}

function readJson(file) {
	return JSON.parse(readFileSync(join(root, file), 'utf8'));
}

// 1. One version: package.json, package-lock.json, sandbox/package.json, the CHANGELOG's newest.
const version = readJson('package.json').version;
const others = {
	'package-lock.json': readJson('package-lock.json').version,
	'sandbox/package.json': readJson('sandbox/package.json').version,
	'CHANGELOG.md': /^## (\d+\.\d+\.\d+\S*)/m.exec(
		readFileSync(join(root, 'CHANGELOG.md'), 'utf8'),
	)?.[1],
};
const differing = Object.entries(others).filter(([, other]) => other !== version);
if (differing.length > 0) {
	fail(
		`package.json is ${version}, but ${differing
			.map(([file, other]) => `${file} ${other === undefined ? 'has no version' : `is ${other}`}`)
			.join(', ')}. Write the release's notes under "## ${version}" at the top of CHANGELOG.md ` +
			`and give package.json, package-lock.json and sandbox/package.json that version.`,
	);
}
say(
	`version ${version}: package.json, package-lock.json, sandbox/package.json and CHANGELOG.md agree.`,
);

// 2. In GitHub Actions, on the tag: n8n's own publishing step.
if (inCi) {
	const tag = process.env.GITHUB_REF_TYPE === 'tag' ? process.env.GITHUB_REF_NAME : undefined;
	if (tag !== version) fail(`the job runs on ${tag ?? 'no tag'}, not on the tag ${version}.`);
	run('n8n-node', ['release']);
	process.exit(0);
}

// 3. On a maintainer's machine: the state of git.
const blockers = [];
const branch = git('rev-parse', '--abbrev-ref', 'HEAD');
if (branch !== 'main') blockers.push(`the branch is ${branch}, not main`);
if (git('status', '--porcelain') !== '') blockers.push('the working tree has uncommitted changes');
if (git('tag', '--list', version) !== '') blockers.push(`the tag ${version} exists already`);
const remote = gitOk('config', `branch.${branch}.remote`)
	? git('config', `branch.${branch}.remote`)
	: undefined;
if (remote === undefined) blockers.push(`${branch} has no upstream branch to push to`);
else if (git('rev-parse', 'HEAD') !== git('rev-parse', '@{u}'))
	blockers.push(`${branch} is not where its upstream is (push or pull first)`);
if (blockers.length > 0 && !dryRun) fail(`not released: ${blockers.join('; ')}.`);

// 4. What the release would ship, checked as CI checks it.
run('npm', ['run', 'lint']);
run('npm', ['test']);
run('npm', ['pack', '--dry-run']);

// 5. The tag, which publishes.
const tagCommands = [
	['git', 'tag', '--annotate', version, '--message', version],
	['git', 'push', remote ?? 'origin', version],
];
if (dryRun) {
	console.log('');
	say(`dry run: nothing tagged, pushed or published. A release would run:`);
	for (const command of tagCommands) console.log(`  ${command.join(' ')}`);
	if (blockers.length > 0) say(`and would stop first, because ${blockers.join('; ')}.`);
	process.exit(0);
}
for (const [command, ...args] of tagCommands) run(command, args);
say(
	`tagged and pushed ${version}: .github/workflows/publish.yml now publishes n8n-nodes-inventory ` +
		`and n8n-nodes-inventory-sandbox ${version} with provenance.`,
);
