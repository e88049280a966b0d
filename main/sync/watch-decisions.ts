import type { Stats } from 'node:fs';
import path from 'node:path';
import { IGNORE_FILE, isIgnoreFile, type IgnoreRules } from './ignore-rules.js';

/**
 * The watcher's decisions, apart from chokidar and the file system: what one lstat of a name means,
 * which names chokidar watches, and where paths sit. Pure; the watcher's units perform the steps.
 */

/** What an lstat saw at a name (`missing`: nothing there). */
export type SeenKind = 'missing' | 'symlink' | 'dir' | 'file' | 'other';

export function seenKindOf(info: Pick<Stats, 'isSymbolicLink' | 'isDirectory' | 'isFile'> | undefined): SeenKind {
  if (info === undefined) return 'missing';
  if (info.isSymbolicLink()) return 'symlink';
  if (info.isDirectory()) return 'dir';
  return info.isFile() ? 'file' : 'other';
}

/** What a folder event naming an entry calls for, once an lstat told what is there. */
export type LookStep =
  /** Gone: reported deleted, even if this session never saw it written (a scanned file may be in a batch). */
  | 'unlink'
  /** A symlink in its place: not synced, so the file it replaced is deleted, if one was known. */
  | 'unlink-if-known'
  /** A folder: chokidar reports it (addDir); any pending write of a file there is forgotten. */
  | 'forget'
  /** Neither file nor folder (a FIFO, a socket): forgotten and reported unreadable. */
  | 'not-regular'
  /** A file written: held until it stays still. */
  | 'written'
  /** A watched folder vanished: chokidar reports it (unlinkDir). */
  | 'nothing';

/** `wasDir`: the name was a watched folder when the event came; `isDirNow`: it is one after the lstat. */
export function lookStep(seen: SeenKind, wasDir: boolean, isDirNow: boolean): LookStep {
  switch (seen) {
    case 'missing':
      return wasDir || isDirNow ? 'nothing' : 'unlink';
    case 'symlink':
      return 'unlink-if-known';
    case 'dir':
      return 'forget';
    case 'other':
      return 'not-regular';
    case 'file':
      return 'written';
  }
}

/** Whether a look at `rel` must re-read the ignore file there (changed, created or deleted). */
export const ignoreFileTouched = (rel: string, seen: SeenKind): boolean => isIgnoreFile(rel) && seen !== 'dir';

/** What a poll's lstat of a pending file calls for: a symlink or folder in its place drops it silently. */
export function pollStep(seen: SeenKind): 'drop' | 'not-regular' | 'check' {
  if (seen === 'missing' || seen === 'symlink' || seen === 'dir') return 'drop';
  return seen === 'other' ? 'not-regular' : 'check';
}

/** The kind a still file is reported as: added, unless this session already reported it (written again meanwhile). */
export const reportedKind = (pending: 'add' | 'change', reportedBefore: boolean): 'add' | 'change' =>
  pending === 'add' && reportedBefore ? 'change' : pending;

/**
 * chokidar's `ignored`: folders only (a folder's own watch sees every file in it, see watcher.ts),
 * never outside the root, and no folder the rules ignore. `rel` undefined: outside the root.
 */
export function chokidarIgnores(rules: IgnoreRules, rel: string | undefined, stats?: Pick<Stats, 'isDirectory'>): boolean {
  if (rel === undefined) return true;
  if (rel === '') return false;
  if (stats !== undefined && !stats.isDirectory()) return true;
  return rules.isIgnored(rel, stats?.isDirectory() ?? false);
}

/** The folder an ignore file at `rel` rules. */
export const ignoreFileDir = (rel: string): string => (rel === IGNORE_FILE ? '' : rel.slice(0, -(IGNORE_FILE.length + 1)));

/** `rel` is the folder `dir` or inside it. */
export const isWithin = (dir: string, rel: string): boolean => rel === dir || rel.startsWith(`${dir}/`);

export const childPath = (dir: string, name: string): string => (dir === '' ? name : `${dir}/${name}`);

/** `abs` relative to `root`, `/`-separated ('' = the root), or undefined outside it. */
export function relativeIn(root: string, abs: string): string | undefined {
  const rel = path.relative(root, abs);
  if (rel === '') return '';
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  return rel.split(path.sep).join('/');
}
