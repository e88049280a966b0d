import { readFile } from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { SYNC_DEFAULT_IGNORES } from '../../shared/api-types.js';
import { BadInputError } from '../base/errors.js';

/**
 * Which paths of a sync folder are not synced: the contract's default junk, the patterns given at
 * `sync/add`, and `.pinfoldignore` files (gitignore syntax) in any folder, each applying to its own
 * subtree. Levels are evaluated like git does: junk, then the add-time patterns, then the ignore
 * files from the root down, the last matching rule winning (so a deeper `!keep.tmp` can bring back
 * junk), and nothing inside an ignored folder can come back.
 */

/** Contract section 9 (shared with the window, which lists them on a folder's page). */
export const DEFAULT_JUNK: readonly string[] = SYNC_DEFAULT_IGNORES;

export const IGNORE_FILE = '.pinfoldignore';

/**
 * A restore (restore.ts) writes each file under a temporary name beside its place and renames it there
 * when complete; such a name is never synced, whatever the patterns say, so a half-written file is not.
 */
export function restoreTempName(id: string): string {
  return `.pinfold-restore-${id}.tmp`;
}
const RESTORE_TEMP = /(^|\/)\.pinfold-restore-[0-9a-f-]+\.tmp$/;

const MAX_PATTERN_LENGTH = 1024;

export interface IgnoreRulesInit {
  /** Patterns from `sync/add` (validated with {@link validateIgnorePatterns}). */
  patterns?: readonly string[];
  caseInsensitive?: boolean;
}

export interface IgnoreRules {
  /** `relPath` is relative to the folder root, `/`-separated. The root itself is never ignored. */
  isIgnored(relPath: string, isDir: boolean): boolean;
  /** Sets (or with undefined, drops) the `.pinfoldignore` text of folder `relDir` ('' = root). */
  setIgnoreFile(relDir: string, text: string | undefined): void;
  /** Folders that currently have an ignore file. */
  ignoreFileDirs(): string[];
}

export function isIgnoreFile(relPath: string): boolean {
  return relPath === IGNORE_FILE || relPath.endsWith(`/${IGNORE_FILE}`);
}

/**
 * Checks the patterns of `ignore` (sync/add, sync/ignore) as patterns: each one line of gitignore syntax, not
 * empty, not absurdly long; throws BadInputError naming the pattern. The list's shape (an array of at most
 * 1000 texts) is the request schema's (http/input/sync-input.ts).
 */
export function validateIgnorePatterns(patterns: readonly string[]): string[] {
  return patterns.map((pattern, index) => {
    if (pattern.trim() === '') throw new BadInputError(`ignore[${index}] is empty`);
    if (pattern.length > MAX_PATTERN_LENGTH) throw new BadInputError(`ignore[${index}] is longer than ${MAX_PATTERN_LENGTH}`);
    if (/[\n\r\0]/.test(pattern)) throw new BadInputError(`ignore[${index}] must be one pattern without line breaks or NUL`);
    return pattern;
  });
}

export function createIgnoreRules(init: IgnoreRulesInit = {}): IgnoreRules {
  const caseInsensitive = init.caseInsensitive ?? false;
  const make = (): Ignore => ignore({ ignorecase: caseInsensitive });
  const junk = make().add([...DEFAULT_JUNK]);
  const given = make().add([...(init.patterns ?? [])]);
  const files = new Map<string, Ignore>();
  const fold = (p: string): string => (caseInsensitive ? p.normalize('NFC').toLowerCase() : p);

  const test = (matcher: Ignore, rel: string, state: boolean): boolean => {
    const result = matcher.test(rel);
    if (result.ignored) return true;
    if (result.unignored) return false;
    return state;
  };

  // One path on its own; ancestors are checked by the caller.
  const matchOne = (relPath: string, isDir: boolean): boolean => {
    const suffix = isDir ? '/' : '';
    let state = test(junk, relPath + suffix, false);
    state = test(given, relPath + suffix, state);
    if (files.size === 0) return state;
    const segments = relPath.split('/');
    for (let depth = 0; depth < segments.length; depth++) {
      const dir = segments.slice(0, depth).join('/');
      const matcher = files.get(fold(dir));
      if (!matcher) continue;
      state = test(matcher, segments.slice(depth).join('/') + suffix, state);
    }
    return state;
  };

  return {
    isIgnored(relPath, isDir) {
      if (relPath === '') return false;
      if (!isDir && RESTORE_TEMP.test(relPath)) return true;
      const segments = relPath.split('/');
      for (let i = 1; i < segments.length; i++) {
        if (matchOne(segments.slice(0, i).join('/'), true)) return true;
      }
      return matchOne(relPath, isDir);
    },
    setIgnoreFile(relDir, text) {
      if (text === undefined) files.delete(fold(relDir));
      else files.set(fold(relDir), make().add(text));
    },
    ignoreFileDirs() {
      return [...files.keys()];
    },
  };
}

/**
 * Reads `<root>/<relDir>/.pinfoldignore` into `rules` (dropping it when the file is gone).
 * Returns false when it exists but cannot be read, so the caller can report it.
 */
export async function loadIgnoreFile(rules: IgnoreRules, root: string, relDir: string): Promise<boolean> {
  const file = path.join(root, ...relDir.split('/').filter(Boolean), IGNORE_FILE);
  try {
    rules.setIgnoreFile(relDir, await readFile(file, 'utf8'));
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    rules.setIgnoreFile(relDir, undefined);
    return code === 'ENOENT' || code === 'ENOTDIR';
  }
}
