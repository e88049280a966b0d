import { readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { CID } from 'multiformats/cid';
import type { ReadBlockstore } from '../../content/read/index.js';
import type { SyncEntry } from '../../store/repositories/sync.js';
import { sameStat } from '../coalescer.js';
import { isFromSourceName } from '../restore-name.js';
import { sameContent } from '../restore-write.js';
import { besideCopiesOf, isFollowTemp, relName, type DiskState, type FolderDisk } from './folder-disk.js';
import type { FolderIgnore } from './folder-ignore.js';

/**
 * Where a followed folder differs from the version it follows (issue 24: "the folder shows 'local changes'
 * with the list"), judged against its manifest: the folder's sync entries, which say what the version has
 * at each path (its CID) and, for a file the applier wrote, the size, mtime and inode it wrote it with.
 * - `modified`: the version has the path, the disk holds something else there (other bytes, a folder, a link);
 * - `added`: the disk holds something at a path the version does not have;
 * - `deleted`: the version has the path, the disk has nothing there.
 * A file whose size, mtime or inode changed but whose bytes are the version's is no change. Ignored paths,
 * the applier's temporary files and the copies it wrote beside local changes are never listed.
 */

export type LocalChangeKind = 'modified' | 'added' | 'deleted';

export interface LocalChange {
  /** Relative to the folder, `/`-separated. */
  path: string;
  change: LocalChangeKind;
  /** The incoming versions written beside it (`name (from <source>, <stamp>).ext`), relative to the folder. */
  beside: string[];
}

export interface LocalChangeContext {
  disk: FolderDisk;
  ignore: FolderIgnore;
  blocks: ReadBlockstore;
  /** The manifest's entry at a path. */
  entry(rel: string): Promise<SyncEntry | undefined>;
  signal?: AbortSignal;
}

/** Whether a name on the disk is the applier's own (a temporary file, a copy beside a local change). */
export function isApplierName(name: string): boolean {
  return isFollowTemp(name) || isFromSourceName(name);
}

/** The file on the disk holds the entry's bytes: the stat it was written with, else its content. */
async function holdsEntry(ctx: LocalChangeContext, rel: string, state: DiskState, entry: SyncEntry): Promise<boolean> {
  if (state.kind !== 'file') return false;
  if (sameStat(state.stat, entry)) return true;
  if (state.stat.size !== entry.size) return false;
  return sameContent(ctx.blocks, ctx.disk.abs(rel), state.stat.size, CID.parse(entry.cid), ctx.signal).catch(() => false);
}

/** Whether the folder at `rel` holds anything not ignored and not the applier's (else it is kept only for those). */
async function holdsLocalData(ctx: LocalChangeContext, rel: string): Promise<boolean> {
  for (const dirent of await readdir(ctx.disk.abs(rel), { withFileTypes: true })) {
    const child = `${rel}/${dirent.name}`;
    if (isApplierName(dirent.name) || (await ctx.ignore.isIgnored(child, dirent.isDirectory()))) continue;
    if (!dirent.isDirectory() || (await holdsLocalData(ctx, child))) return true;
  }
  return false;
}

/** How the disk differs from the manifest at `rel`, or undefined when it does not (or the path is not listed). */
export async function checkLocalPath(ctx: LocalChangeContext, rel: string): Promise<LocalChangeKind | undefined> {
  if (isApplierName(relName(rel))) return undefined;
  const [entry, state] = await Promise.all([ctx.entry(rel), ctx.disk.stateOf(rel)]);
  const present = state.kind !== 'absent' && state.kind !== 'blocked';
  if (await ctx.ignore.isIgnored(rel, present ? state.kind === 'dir' : entry?.kind === 'dir')) return undefined;
  if (entry === undefined) {
    if (state.kind === 'dir') return (await holdsLocalData(ctx, rel)) ? 'added' : undefined;
    return present ? 'added' : undefined;
  }
  if (!present) return 'deleted';
  if (entry.kind === 'dir') return state.kind === 'dir' ? undefined : 'modified';
  return (await holdsEntry(ctx, rel, state, entry)) ? undefined : 'modified';
}

/** `changes` as the list the folder shows: sorted by path, each with the copies written beside it. */
export async function describeLocalChanges(disk: FolderDisk, changes: ReadonlyMap<string, LocalChangeKind>): Promise<LocalChange[]> {
  const listed: LocalChange[] = [];
  for (const [rel, change] of [...changes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    listed.push({ path: rel, change, beside: await besideCopiesOf(disk, rel) });
  }
  return listed;
}

const isWithin = (rel: string, folder: string): boolean => rel === folder || rel.startsWith(`${folder}/`);

function hasListedFolderAbove(changes: ReadonlyMap<string, LocalChangeKind>, rel: string): boolean {
  for (let at = rel.lastIndexOf('/'); at > 0; at = rel.lastIndexOf('/', at - 1)) if (changes.has(rel.slice(0, at))) return true;
  return false;
}

/**
 * Every local change of the folder: the disk walked (ignored folders are not entered; a folder the version
 * does not have is listed once, not file by file) and every entry of the manifest looked for. Leftover
 * temporary files of a killed apply are removed on the way.
 */
export async function scanLocalChanges(
  ctx: LocalChangeContext,
  entries: readonly SyncEntry[],
  keyOf: (rel: string) => string,
): Promise<Map<string, LocalChangeKind>> {
  const byKey = new Map(entries.map((entry) => [entry.pathKey, entry]));
  const changes = new Map<string, LocalChangeKind>();
  const seen = new Set<string>();
  const walk = async (relDir: string): Promise<void> => {
    ctx.signal?.throwIfAborted();
    const dirents = await readdir(ctx.disk.abs(relDir), { withFileTypes: true });
    for (const dirent of dirents) {
      const rel = relDir === '' ? dirent.name : `${relDir}/${dirent.name}`;
      if (isFollowTemp(dirent.name)) {
        await unlink(path.join(ctx.disk.abs(relDir), dirent.name)).catch(() => undefined);
        continue;
      }
      if (isFromSourceName(dirent.name)) continue;
      if (await ctx.ignore.isIgnored(rel, dirent.isDirectory())) continue;
      const key = keyOf(rel);
      seen.add(key);
      const entry = byKey.get(key);
      if (dirent.isDirectory() && entry?.kind === 'dir') {
        await walk(rel);
        continue;
      }
      const change = await checkLocalPath(ctx, rel);
      if (change !== undefined) changes.set(rel, change);
    }
  };
  await walk('');
  const sorted = [...entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  let missingFolder: string | undefined;
  for (const entry of sorted) {
    if (seen.has(entry.pathKey)) continue;
    // Below a folder that is listed already (missing, or something else in its place): not again.
    if (missingFolder !== undefined && isWithin(entry.path, missingFolder)) continue;
    if (hasListedFolderAbove(changes, entry.path)) continue;
    if (await ctx.ignore.isIgnored(entry.path, entry.kind === 'dir')) continue;
    changes.set(entry.path, 'deleted');
    if (entry.kind === 'dir') missingFolder = entry.path;
  }
  return changes;
}
