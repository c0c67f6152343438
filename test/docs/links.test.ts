import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { inventoryCredentialType } from '../harness/engine';

import {
	brokenLinks,
	findMarkdownFiles,
	githubSlug,
	headingAnchors,
	relativeLinks,
} from './markdown-links';

/*
 * The README is the whole documentation on npm and in n8n's listing, and it sends readers to docs/ for
 * depth; docs/ link to each other, to the sandbox and e2e READMEs and back. Every relative link and
 * anchor in the repository's Markdown must lead somewhere.
 */
const root = join(__dirname, '..', '..');

describe('Markdown links', () => {
	const files = findMarkdownFiles(root);

	test('finds the documentation', () => {
		expect(files).toEqual(
			expect.arrayContaining([
				'README.md',
				'CHANGELOG.md',
				'docs/api.md',
				'docs/development.md',
				'docs/idempotency.md',
				'sandbox/README.md',
				'test/e2e/README.md',
			]),
		);
		expect(files.some((file) => file.includes('node_modules') || file.startsWith('dist/'))).toBe(
			false,
		);
	});

	test('every relative link and anchor resolves', () => {
		const broken = brokenLinks(root, files).map(
			(link) => `${link.file}:${link.line} (${link.target}): ${link.reason}`,
		);
		expect(broken).toEqual([]);
	});
});

/*
 * n8n's editor (2.40, NodeSettings) opens the node's documentation as the codex's primaryDocumentation
 * URL + `?utm_source=…`: behind a `#fragment` those parameters would end up inside the fragment. The
 * credential's URL is opened as given; it follows the same rule. Each URL must name a page of this
 * repository, without a fragment, that exists.
 */
describe('documentation URLs the editor opens', () => {
	const repoPage =
		/^https:\/\/github\.com\/n8n-nodes-inventory\/n8n-nodes-inventory\/blob\/main\/([^#?]+)$/;
	const codex = JSON.parse(
		readFileSync(join(root, 'dist', 'nodes', 'Inventory', 'Inventory.node.json'), 'utf8'),
	) as { resources: Record<string, Array<{ url: string }>> };
	const urls = [
		inventoryCredentialType.documentationUrl,
		...Object.values(codex.resources).flatMap((links) => links.map((link) => link.url)),
	];

	test.each(urls)('%s is a page of the repository without a fragment', (url) => {
		const page = repoPage.exec(url ?? '')?.[1];
		expect(page).toBeDefined();
		expect(existsSync(join(root, page!))).toBe(true);
	});
});

describe('the link checker', () => {
	test("slugs headings as GitHub does: lower case, punctuation dropped except '-' and '_'", () => {
		expect(githubSlug('Scaling out: queue mode')).toBe('scaling-out-queue-mode');
		expect(githubSlug('What is exactly-once, and with which key')).toBe(
			'what-is-exactly-once-and-with-which-key',
		);
		expect(githubSlug('The demo: `npm run demo`')).toBe('the-demo-npm-run-demo');
		expect(
			githubSlug('Inspection and control: `/_sandbox/*` (NOT part of the Inventory API)'),
		).toBe('inspection-and-control-_sandbox-not-part-of-the-inventory-api');
		expect(githubSlug('**Retry execution** and _tool calls_')).toBe(
			'retry-execution-and-tool-calls',
		);
		expect(githubSlug('See [the API](api.md) first')).toBe('see-the-api-first');
	});

	test('numbers repeated headings -1, -2 and ignores headings in code fences', () => {
		const anchors = headingAnchors(
			['# Usage', '## Notes', '```sh', '# not a heading', '```', '## Notes', '### Notes'].join(
				'\n',
			),
		);
		expect([...anchors]).toEqual(['usage', 'notes', 'notes-1', 'notes-2']);
	});

	test('skips external links and links in code', () => {
		const links = relativeLinks(
			'x.md',
			[
				'[a](https://example.com) [b](mailto:x@example.com) `[c](c.md)` [d](d.md#e "title")',
				'```',
				'[f](f.md)',
				'```',
				'![g](img/g.png) [h](#h)',
				'[i]: i.md',
			].join('\n'),
		);
		expect(links.map((link) => `${link.line}:${link.target}`)).toEqual([
			'1:d.md#e',
			'5:img/g.png',
			'5:#h',
			'6:i.md',
		]);
	});

	test('reports a missing file, a missing anchor and a heading that is not there', () => {
		const dir = mkdtempSync(join(tmpdir(), 'links-'));
		try {
			mkdirSync(join(dir, 'docs'));
			writeFileSync(
				join(dir, 'docs', 'a.md'),
				'# A\n\n## Two words\n\n[back](../README.md#intro)\n',
			);
			writeFileSync(
				join(dir, 'README.md'),
				[
					'# Intro',
					'[ok](docs/a.md#two-words) [ok too](#intro) [file only](docs/a.md)',
					'[missing file](docs/b.md) [missing anchor](docs/a.md#three-words) [here](#outro)',
				].join('\n'),
			);
			const broken = brokenLinks(dir, findMarkdownFiles(dir));
			expect(
				broken.map((link) => `${link.file}:${link.line} ${link.target}: ${link.reason}`),
			).toEqual([
				'README.md:3 docs/b.md: no file docs/b.md',
				'README.md:3 docs/a.md#three-words: no heading with anchor #three-words in docs/a.md',
				'README.md:3 #outro: no heading with anchor #outro in README.md',
			]);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
