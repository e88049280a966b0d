import type { SyncEntry } from '../store/repositories/sync.js';
import type { RawEvent } from './coalescer.js';

/**
 * What a scan found, against the stored state, as raw events for the coalescer. Pure: the scanner
 * reads the disk and asks these for the events each finding stands for. Scan events carry `at: 0`
 * (a scan's batch is flushed, never timed).
 */

export interface FoundFile {
  size: number;
  mtimeMs: number;
  ino: number;
}

/** A stored file that is unchanged on disk: same spelling, size and mtime (its bytes are not read again). */
export function isUnchanged(stored: SyncEntry | undefined, rel: string, now: { size: number; mtimeMs: number }): boolean {
  return stored?.kind === 'file' && stored.size === now.size && stored.mtimeMs === now.mtimeMs && stored.path === rel;
}

/** The delete of a stored entry; a file's carries its stored identity, so a rename pairs into a move. */
export function unlinkOf(stored: SyncEntry): RawEvent {
  if (stored.kind === 'dir') return { kind: 'unlinkDir', path: stored.path, at: 0 };
  return { kind: 'unlink', path: stored.path, at: 0, size: stored.size, mtimeMs: stored.mtimeMs, ino: stored.ino };
}

/** A readable file found at `rel`, against what is stored under its key. */
export function foundFileEvents(stored: SyncEntry | undefined, rel: string, found: FoundFile): RawEvent[] {
  const stat = { size: found.size, mtimeMs: found.mtimeMs, ino: found.ino };
  const add: RawEvent = { kind: 'add', path: rel, at: 0, ...stat };
  if (!stored) return [add];
  if (stored.kind === 'dir') return [unlinkOf(stored), add];
  if (isUnchanged(stored, rel, found)) return [];
  // Respelled (a case-only rename): the old spelling goes, the new one is read.
  if (stored.path !== rel) return [unlinkOf(stored), add];
  return [{ kind: 'change', path: rel, at: 0, ...stat }];
}

/** A folder found at `rel`, against what is stored under its key. */
export function foundFolderEvents(stored: SyncEntry | undefined, rel: string): RawEvent[] {
  const addDir: RawEvent = { kind: 'addDir', path: rel, at: 0 };
  if (!stored || stored.path !== rel) {
    return stored ? [{ kind: stored.kind === 'dir' ? 'unlinkDir' : 'unlink', path: stored.path, at: 0 }, addDir] : [addDir];
  }
  if (stored.kind === 'file') return [unlinkOf(stored), addDir];
  return [];
}

export interface MissingScope {
  /** Keys found on disk (or kept: unreadable files keep their last published version). */
  seen: ReadonlySet<string>;
  /** The scanned folder's key ('' = the whole folder): stored entries outside it are not judged. */
  subtreeKey: string;
  /** Keys of folders that could not be read: what is stored below them is unknown, not gone. */
  unknownBelow: readonly string[];
}

/** Stored entries the scan did not find: each is deleted. */
export function missingEvents(entries: ReadonlyMap<string, SyncEntry>, scope: MissingScope): RawEvent[] {
  const isBelow = (key: string, dir: string): boolean => dir === '' || key.startsWith(`${dir}/`);
  const events: RawEvent[] = [];
  for (const [key, stored] of entries) {
    if (scope.seen.has(key) || !isBelow(key, scope.subtreeKey)) continue;
    if (scope.unknownBelow.some((dir) => isBelow(key, dir))) continue;
    events.push(unlinkOf(stored));
  }
  return events;
}
