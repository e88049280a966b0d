import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { repoRoot } from './arch-rules.js';

/**
 * The checker of the documents' relative links, apart from the test so that it runs over the repository
 * and over known-bad documents alike. Paths are repository-relative with forward slashes.
 */
export interface DocFile {
  readonly path: string;
  readonly text: string;
}

/** README.md and every markdown file of docs/: the documents that link to each other. */
export function repositoryDocs(): DocFile[] {
  const paths = [
    'README.md',
    ...readdirSync(join(repoRoot, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];
  return paths.map((path) => ({ path, text: readFileSync(join(repoRoot, path), 'utf8') }));
}

/** The text without fenced code blocks and code spans: a `[x](y)` written there is an example, not a link. */
function withoutCode(text: string): string {
  const prose = text.split('\n').reduce<{ inFence: boolean; lines: string[] }>(
    (state, line) => {
      if (/^\s*(```|~~~)/.test(line)) return { inFence: !state.inFence, lines: [...state.lines, ''] };
      return { inFence: state.inFence, lines: [...state.lines, state.inFence ? '' : line] };
    },
    { inFence: false, lines: [] },
  );
  return prose.lines.join('\n').replace(/(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, '');
}

/** Every inline link's and image's target, `[text](target)` or `[text](target "title")`; link text may wrap. */
export function linkTargets(text: string): string[] {
  return [...withoutCode(text).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1] as string);
}

/** A relative link: no scheme (`https:`, `mailto:`) and no protocol-relative `//host`. */
const isRelative = (target: string): boolean => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('//');

/**
 * The anchors a markdown file's headings get, as GitHub makes them: the heading's text without its markup,
 * lower case, punctuation dropped, spaces as hyphens, a repeated one numbered (`-1`, `-2`).
 */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let inFence = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const heading = inFence ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const plain = (heading[1] as string).replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*_~]/g, '');
    const slug = plain
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/**
 * What is wrong with the relative links of `docs`: a link to a file that does not exist, or to an anchor
 * that no heading of its markdown file makes. A target is looked for among `docs` first, then on disk.
 */
export function brokenLinks(docs: readonly DocFile[]): string[] {
  const byPath = new Map(docs.map((doc) => [doc.path, doc.text]));
  const textOf = (path: string): string | undefined => {
    const known = byPath.get(path);
    if (known !== undefined) return known;
    const onDisk = join(repoRoot, path);
    if (!existsSync(onDisk)) return undefined;
    return statSync(onDisk).isDirectory() ? '' : readFileSync(onDisk, 'utf8');
  };
  const problems: string[] = [];
  for (const doc of docs) {
    for (const target of linkTargets(doc.text).filter(isRelative)) {
      const [file = '', anchor] = target.split('#', 2);
      const path = file === '' ? doc.path : posix.normalize(posix.join(dirname(doc.path), decodeURIComponent(file)));
      const text = path.startsWith('../') ? undefined : textOf(path.replace(/\/$/, ''));
      if (text === undefined) problems.push(`${doc.path}: ${target} names ${path}, which does not exist`);
      else if (anchor !== undefined && !(path.endsWith('.md') && headingAnchors(text).has(decodeURIComponent(anchor))))
        problems.push(`${doc.path}: ${target} names #${anchor}, which no heading of ${path} makes`);
    }
  }
  return problems;
}
