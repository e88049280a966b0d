import { constants, type BigIntStats, type Dirent } from 'node:fs';
import { access, lstat, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { SyncEntry } from '../store/repositories/sync.js';
import { foldPath, type RawEvent } from './coalescer.js';
import { IGNORE_FILE, loadIgnoreFile, type IgnoreRules } from './ignore-rules.js';

/**
 * A full scan: compares the folder on disk with the last published state by size + mtime and
 * reports the difference as raw events for the coalescer (flush it to get the batch). Unchanged
 * files are only stat'ed, never read. Deletes carry the stored size/mtime/inode so a file renamed
 * while Pinfold was stopped pairs into a move instead of being read again.
 *
 * Symlinks are not followed and not synced: following them could leave the folder or loop.
 */

export interface Unreadable {
  path: string;
  reason: string;
}

export interface ScanOptions {
  root: string;
  rules: IgnoreRules;
  /** The stored state, keyed by `pathKey` (see {@link foldPath}). */
  entries: ReadonlyMap<string, SyncEntry>;
  caseInsensitive?: boolean;
  /** Limit the scan to this folder ('' or undefined: everything), e.g. after its ignore file changed. */
  subtree?: string;
  signal?: AbortSignal;
  onProgress?: (progress: { files: number; dirs: number }) => void;
}

export interface ScanResult {
  events: RawEvent[];
  unreadable: Unreadable[];
  /** Files and bytes on disk that sync (not ignored, readable). */
  files: number;
  bytes: number;
}

const STAT_CONCURRENCY = 64;

export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return `permission denied (${code})`;
    case 'ENOENT':
      return 'no longer exists (ENOENT)';
    case 'EISDIR':
      return 'is a folder (EISDIR)';
    case 'EBUSY':
      return 'locked by another program (EBUSY)';
    case 'ELOOP':
      return 'too many symbolic links (ELOOP)';
    default:
      return code ? `cannot be read (${code})` : error instanceof Error ? error.message : 'cannot be read';
  }
}

export async function scanFolder(options: ScanOptions): Promise<ScanResult> {
  const { root, rules, entries, signal } = options;
  const caseInsensitive = options.caseInsensitive ?? false;
  const key = (p: string): string => foldPath(p, caseInsensitive);
  const subtree = options.subtree ?? '';
  const events: RawEvent[] = [];
  const unreadable: Unreadable[] = [];
  const seen = new Set<string>();
  const unknownBelow: string[] = [];
  let files = 0;
  let bytes = 0;
  let dirs = 0;

  const walk = async (relDir: string): Promise<void> => {
    signal?.throwIfAborted();
    const absDir = path.join(root, ...relDir.split('/').filter(Boolean));
    let dirents: Dirent[];
    try {
      dirents = await readdir(absDir, { withFileTypes: true });
    } catch (error) {
      if (relDir !== '') unreadable.push({ path: relDir, reason: describeFsError(error) });
      unknownBelow.push(key(relDir));
      return;
    }
    dirs++;
    if (dirents.some((d) => d.name === IGNORE_FILE && !d.isDirectory())) {
      if (!(await loadIgnoreFile(rules, root, relDir))) {
        unreadable.push({ path: join(relDir, IGNORE_FILE), reason: 'ignore file cannot be read' });
      }
    } else rules.setIgnoreFile(relDir, undefined);

    const subdirs: string[] = [];
    const candidates: string[] = [];
    for (const dirent of dirents) {
      const rel = join(relDir, dirent.name);
      if (dirent.isSymbolicLink()) continue;
      if (dirent.isDirectory()) {
        if (rules.isIgnored(rel, true)) continue;
        subdirs.push(rel);
      } else if (!rules.isIgnored(rel, false)) candidates.push(rel);
    }

    for (let i = 0; i < candidates.length; i += STAT_CONCURRENCY) {
      signal?.throwIfAborted();
      const slice = candidates.slice(i, i + STAT_CONCURRENCY);
      const stats = await Promise.all(
        slice.map((rel) => {
          const stored = entries.get(key(rel));
          return statFile(path.join(root, ...rel.split('/')), (info) => isUnchanged(stored, rel, info));
        }),
      );
      slice.forEach((rel, index) => {
        const result = stats[index];
        if (!result) return;
        const k = key(rel);
        const stored = entries.get(k);
        if ('error' in result) {
          if (result.error !== 'gone') unreadable.push({ path: rel, reason: result.error });
          // A file we cannot read keeps its last published version rather than vanishing.
          if (result.error !== 'gone') seen.add(k);
          return;
        }
        seen.add(k);
        files++;
        bytes += result.size;
        const stat = { size: result.size, mtimeMs: result.mtimeMs, ino: result.ino };
        if (!stored) events.push({ kind: 'add', path: rel, at: 0, ...stat });
        else if (stored.kind === 'dir') {
          events.push({ kind: 'unlinkDir', path: stored.path, at: 0 });
          events.push({ kind: 'add', path: rel, at: 0, ...stat });
        } else if (!isUnchanged(stored, rel, result)) {
          if (stored.path !== rel) {
            events.push({ kind: 'unlink', path: stored.path, at: 0, size: stored.size, mtimeMs: stored.mtimeMs, ino: stored.ino });
            events.push({ kind: 'add', path: rel, at: 0, ...stat });
          } else events.push({ kind: 'change', path: rel, at: 0, ...stat });
        }
      });
      options.onProgress?.({ files, dirs });
    }

    for (const rel of subdirs) {
      const k = key(rel);
      const stored = entries.get(k);
      seen.add(k);
      if (!stored || stored.path !== rel) {
        if (stored) events.push({ kind: stored.kind === 'dir' ? 'unlinkDir' : 'unlink', path: stored.path, at: 0 });
        events.push({ kind: 'addDir', path: rel, at: 0 });
      } else if (stored.kind === 'file') {
        events.push({ kind: 'unlink', path: stored.path, at: 0, size: stored.size, mtimeMs: stored.mtimeMs, ino: stored.ino });
        events.push({ kind: 'addDir', path: rel, at: 0 });
      }
      await walk(rel);
    }
  };

  await walk(subtree);

  const subtreeKey = key(subtree);
  const inScope = (k: string): boolean => subtreeKey === '' || k.startsWith(`${subtreeKey}/`);
  const isBelow = (k: string, dir: string): boolean => dir === '' || k.startsWith(`${dir}/`);
  for (const [k, stored] of entries) {
    if (seen.has(k) || !inScope(k)) continue;
    if (unknownBelow.some((dir) => isBelow(k, dir))) continue;
    if (stored.kind === 'dir') events.push({ kind: 'unlinkDir', path: stored.path, at: 0 });
    else events.push({ kind: 'unlink', path: stored.path, at: 0, size: stored.size, mtimeMs: stored.mtimeMs, ino: stored.ino });
  }
  return { events, unreadable, files, bytes };
}

type FileStatResult = { size: number; mtimeMs: number; ino: number } | { error: string };

function isUnchanged(stored: SyncEntry | undefined, rel: string, now: { size: number; mtimeMs: number }): boolean {
  return stored?.kind === 'file' && stored.size === now.size && stored.mtimeMs === now.mtimeMs && stored.path === rel;
}

/**
 * lstat, plus a read-permission check for a file that will not be read (`unchanged`), so a file
 * that became unreadable is still reported. A file that will be imported needs no check: the
 * import opens it and reports it if it cannot (one syscall less per new file on a first scan).
 */
async function statFile(abs: string, unchanged: (info: { size: number; mtimeMs: number }) => boolean): Promise<FileStatResult> {
  let info;
  try {
    info = await lstat(abs);
  } catch (error) {
    return { error: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : describeFsError(error) };
  }
  if (info.isSymbolicLink()) return { error: 'gone' };
  if (!info.isFile()) return { error: 'not a regular file' };
  if (unchanged(info)) {
    try {
      await access(abs, constants.R_OK);
    } catch (error) {
      return { error: describeFsError(error) };
    }
  }
  return { size: info.size, mtimeMs: info.mtimeMs, ino: info.ino };
}

function join(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`;
}

export type RootCheck = { ok: true; deviceId: string } | { ok: false; reason: string };

/**
 * The unmounted-drive rule: a folder whose root is gone, is no longer a folder, or sits on another
 * device than when it was added (the mount point is now an empty folder of the parent disk) must
 * pause with this reason instead of syncing an empty root. `expectedDeviceId` '' accepts any device.
 */
export async function checkFolderRoot(root: string, expectedDeviceId: string): Promise<RootCheck> {
  let info: BigIntStats;
  try {
    info = await stat(root, { bigint: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, reason: 'folder not found (drive unmounted or folder deleted)' };
    return { ok: false, reason: `folder ${describeFsError(error)}` };
  }
  if (!info.isDirectory()) return { ok: false, reason: 'path is no longer a folder' };
  const deviceId = info.dev.toString();
  if (expectedDeviceId !== '' && deviceId !== expectedDeviceId) {
    return { ok: false, reason: 'folder is on a different device than when it was added (drive unmounted?)' };
  }
  try {
    await access(root, constants.R_OK | constants.X_OK);
  } catch (error) {
    return { ok: false, reason: `folder ${describeFsError(error)}` };
  }
  return { ok: true, deviceId };
}

/**
 * Whether the file system holding `root` ignores case: stats `root` with one letter of its path
 * flipped. Falls back to the platform's usual answer when no segment has a letter.
 */
export async function detectCaseInsensitive(root: string): Promise<boolean> {
  const resolved = path.resolve(root);
  const original = await stat(resolved, { bigint: true });
  const flipped = flipLastLetter(resolved);
  if (flipped === undefined) return process.platform === 'darwin' || process.platform === 'win32';
  try {
    const other = await stat(flipped, { bigint: true });
    return other.ino === original.ino && other.dev === original.dev;
  } catch {
    return false;
  }
}

function flipLastLetter(p: string): string | undefined {
  for (let i = p.length - 1; i >= 0; i--) {
    const ch = p.charAt(i);
    const upper = ch.toUpperCase();
    const lower = ch.toLowerCase();
    if (upper !== lower) return p.slice(0, i) + (ch === upper ? lower : upper) + p.slice(i + 1);
  }
  return undefined;
}
