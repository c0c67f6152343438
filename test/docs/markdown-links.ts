import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

import { proseLines, type ProseLine } from './page-text';

/*
 * The relative links of the repository's Markdown files, and whether they resolve: the target file
 * exists (relative to the Markdown file), and an anchor names a heading of the target by GitHub's
 * rules. External links (http:, https:, mailto:, ...) are not followed.
 */

export interface MarkdownLink {
	file: string; // the Markdown file, relative to the root
	line: number;
	target: string; // as written
}

export interface BrokenLink extends MarkdownLink {
	reason: string;
}

/** Folders never searched: installed, generated, or the e2e hosts' n8n installs. */
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'build', 'coverage']);

/** Every Markdown file under root, relative paths with '/', sorted. Dot-folders other than .github are skipped. */
export function findMarkdownFiles(root: string): string[] {
	const found: string[] = [];
	const walk = (folder: string): void => {
		for (const entry of readdirSync(folder, { withFileTypes: true })) {
			const path = join(folder, entry.name);
			const rel = relative(root, path).split(sep).join('/');
			if (entry.isDirectory()) {
				if (SKIPPED_FOLDERS.has(entry.name)) continue;
				if (entry.name.startsWith('.') && entry.name !== '.github') continue;
				if (/^test\/e2e\/\.host/.test(rel)) continue;
				walk(path);
			} else if ((entry.isFile() || entry.isSymbolicLink()) && /\.md$/i.test(entry.name)) {
				found.push(rel);
			}
		}
	};
	walk(root);
	return found.sort();
}

/** The lines outside fenced code blocks, with inline code blanked out (its length kept). */
function proseLinesWithoutCode(markdown: string): ProseLine[] {
	return proseLines(markdown).map(({ line, text }) => ({ line, text: blankInlineCode(text) }));
}

function blankInlineCode(text: string): string {
	return text.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (span) => ' '.repeat(span.length));
}

/** GitHub's heading slug: lower case, punctuation dropped except '-' and '_', spaces to '-'. */
export function githubSlug(headingText: string): string {
	return renderedHeadingText(headingText)
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
		.replace(/ /g, '-');
}

/** The text GitHub renders for a heading: code spans keep their content, links their text, emphasis goes. */
function renderedHeadingText(heading: string): string {
	const parts = heading.split(/(`+[^`]*`+)/);
	return parts
		.map((part) => {
			if (part.startsWith('`')) return part.replace(/^`+|`+$/g, '');
			return part
				.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
				.replace(/\*+/g, '')
				.replace(/(^|[^\p{L}\p{N}_])_+([^_]+?)_+(?=[^\p{L}\p{N}_]|$)/gu, '$1$2');
		})
		.join('')
		.trim();
}

/** The anchors of a Markdown file's headings, with GitHub's -1, -2 for repeated slugs. */
export function headingAnchors(markdown: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	// Inline code stays: a heading's code span is part of its anchor.
	for (const { text } of proseLines(markdown)) {
		const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
		if (!heading) continue;
		const slug = githubSlug(heading[1]);
		const count = seen.get(slug) ?? 0;
		seen.set(slug, count + 1);
		anchors.add(count === 0 ? slug : `${slug}-${count}`);
	}
	return anchors;
}

/** The relative links of one Markdown file: inline links and images, and reference definitions. */
export function relativeLinks(file: string, markdown: string): MarkdownLink[] {
	const links: MarkdownLink[] = [];
	for (const { line, text } of proseLinesWithoutCode(markdown)) {
		const targets: string[] = [];
		for (const match of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
			targets.push(match[1]);
		}
		const definition = /^\s{0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/.exec(text);
		if (definition) targets.push(definition[1]);
		for (const target of targets) {
			if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue;
			links.push({ file, line, target });
		}
	}
	return links;
}

/** The links among `files` (relative to root) that do not resolve. */
export function brokenLinks(root: string, files: string[]): BrokenLink[] {
	const anchorCache = new Map<string, Set<string>>();
	const anchorsOf = (path: string): Set<string> => {
		let anchors = anchorCache.get(path);
		if (!anchors) {
			anchors = headingAnchors(readFileSync(path, 'utf8'));
			anchorCache.set(path, anchors);
		}
		return anchors;
	};
	const broken: BrokenLink[] = [];
	for (const file of files) {
		const source = resolve(root, file);
		for (const link of relativeLinks(file, readFileSync(source, 'utf8'))) {
			const hashAt = link.target.indexOf('#');
			const pathPart = hashAt === -1 ? link.target : link.target.slice(0, hashAt);
			const anchor = hashAt === -1 ? null : decodeURIComponent(link.target.slice(hashAt + 1));
			const target =
				pathPart === '' ? source : resolve(dirname(source), decodeURIComponent(pathPart));
			if (!existsSync(target)) {
				broken.push({ ...link, reason: `no file ${relative(root, target).split(sep).join('/')}` });
				continue;
			}
			if (anchor === null || anchor === '') continue;
			if (statSync(target).isDirectory() || !/\.md$/i.test(target)) {
				broken.push({ ...link, reason: 'an anchor into a file that is not Markdown' });
				continue;
			}
			if (!anchorsOf(target).has(anchor)) {
				broken.push({
					...link,
					reason: `no heading with anchor #${anchor} in ${relative(root, target).split(sep).join('/')}`,
				});
			}
		}
	}
	return broken;
}
