import { constants, type BigIntStats, type Dirent } from 'node:fs';
import { access, lstat, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { SyncEntry } from '../store/repositories/sync.js';
import { foldPath, type RawEvent } from './coalescer.js';
import { IGNORE_FILE, loadIgnoreFile, type IgnoreRules } from './ignore-rules.js';
import { foundFileEvents, foundFolderEvents, isUnchanged, missingEvents, type FoundFile } from './scan-diff.js';

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
  const caseInsensitive = options.caseInsensitive ?? false;
  const scan: FolderScan = {
    options,
    key: (p) => foldPath(p, caseInsensitive),
    events: [],
    unreadable: [],
    seen: new Set(),
    unknownBelow: [],
    files: 0,
    bytes: 0,
    dirs: 0,
  };
  const subtree = options.subtree ?? '';
  await walk(scan, subtree);
  const missing = missingEvents(options.entries, { seen: scan.seen, subtreeKey: scan.key(subtree), unknownBelow: scan.unknownBelow });
  scan.events.push(...missing);
  return { events: scan.events, unreadable: scan.unreadable, files: scan.files, bytes: scan.bytes };
}

/** One scan's findings so far, which the walk's steps add to. */
interface FolderScan {
  readonly options: ScanOptions;
  readonly key: (rel: string) => string;
  readonly events: RawEvent[];
  readonly unreadable: Unreadable[];
  /** Keys found on disk, or kept (a file that cannot be read keeps its last published version). */
  readonly seen: Set<string>;
  /** Keys of folders that could not be read. */
  readonly unknownBelow: string[];
  files: number;
  bytes: number;
  dirs: number;
}

/** Reads `relDir` (its ignore file first), judges its files, then walks its folders, depth first. */
async function walk(scan: FolderScan, relDir: string): Promise<void> {
  const { root, rules, signal } = scan.options;
  signal?.throwIfAborted();
  let dirents: Dirent[];
  try {
    dirents = await readdir(path.join(root, ...relDir.split('/').filter(Boolean)), { withFileTypes: true });
  } catch (error) {
    if (relDir !== '') scan.unreadable.push({ path: relDir, reason: describeFsError(error) });
    scan.unknownBelow.push(scan.key(relDir));
    return;
  }
  scan.dirs++;
  if (dirents.some((d) => d.name === IGNORE_FILE && !d.isDirectory())) {
    if (!(await loadIgnoreFile(rules, root, relDir))) {
      scan.unreadable.push({ path: join(relDir, IGNORE_FILE), reason: 'ignore file cannot be read' });
    }
  } else rules.setIgnoreFile(relDir, undefined);

  const subdirs: string[] = [];
  const candidates: string[] = [];
  for (const dirent of dirents) {
    const rel = join(relDir, dirent.name);
    if (dirent.isSymbolicLink()) continue;
    if (dirent.isDirectory()) {
      if (!rules.isIgnored(rel, true)) subdirs.push(rel);
    } else if (!rules.isIgnored(rel, false)) candidates.push(rel);
  }
  for (let i = 0; i < candidates.length; i += STAT_CONCURRENCY) {
    signal?.throwIfAborted();
    await judgeFiles(scan, candidates.slice(i, i + STAT_CONCURRENCY));
    scan.options.onProgress?.({ files: scan.files, dirs: scan.dirs });
  }
  for (const rel of subdirs) {
    const key = scan.key(rel);
    scan.seen.add(key);
    scan.events.push(...foundFolderEvents(scan.options.entries.get(key), rel));
    await walk(scan, rel);
  }
}

/** Stats the files `rels` at once and records what each stands for against the stored state. */
async function judgeFiles(scan: FolderScan, rels: readonly string[]): Promise<void> {
  const { root, entries } = scan.options;
  const stats = await Promise.all(
    rels.map((rel) => statFile(path.join(root, ...rel.split('/')), (info) => isUnchanged(entries.get(scan.key(rel)), rel, info))),
  );
  rels.forEach((rel, index) => {
    const result = stats[index];
    if (!result) return;
    const key = scan.key(rel);
    if ('error' in result) {
      if (result.error === 'gone') return;
      scan.unreadable.push({ path: rel, reason: result.error });
      // A file we cannot read keeps its last published version rather than vanishing.
      scan.seen.add(key);
      return;
    }
    scan.seen.add(key);
    scan.files++;
    scan.bytes += result.size;
    scan.events.push(...foundFileEvents(entries.get(key), rel, result));
  });
}

type FileStatResult = FoundFile | { error: string };

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
