import { lstatSync } from 'node:fs';
import path from 'node:path';
import type { CID } from 'multiformats/cid';
import { NotFoundError } from '../../base/errors.js';
import { inspectNode, type ReadBlockstore } from '../../content/read/index.js';
import type { JournalOp, SyncEntry } from '../../store/repositories/sync.js';
import { sameStat } from '../coalescer.js';
import { sameContent, writeVersionFile, type WrittenFile } from '../restore-write.js';
import { followTempName, type DiskState, type FolderDisk } from './folder-disk.js';
import type { FolderIgnore } from './folder-ignore.js';
import type { LocalChangeKind } from './local-changes.js';
import type { Trash } from './trash.js';
import type { VersionTree } from './version-tree.js';

/** What the removal and the write steps of one apply share (apply-removals.ts, apply-writes.ts). */
export interface ApplyContext {
  disk: FolderDisk;
  ignore: FolderIgnore;
  blocks: ReadBlockstore;
  /** The version being written. */
  to: VersionTree;
  /** An interrupted apply's target (its blocks held): what it may have written is the applier's own too. */
  interrupted: VersionTree | undefined;
  /** The manifest's entry at a path (as committed before this apply). */
  entry(rel: string): Promise<SyncEntry | undefined>;
  keyOf(rel: string): string;
  trash: Trash;
  /** The followed folder's source, for the names written beside local changes. */
  source: string;
  /** `YYYY-MM-DD HHMM` of this apply, for the names written beside local changes. */
  stamp: string;
  signal: AbortSignal | undefined;
  /** Entry ops for the manifest: removals first, then folders, then files (commitSyncJournal applies them in order). */
  removals: JournalOp[];
  folders: Map<string, JournalOp>;
  files: Map<string, JournalOp>;
  changes: Map<string, LocalChangeKind>;
  counts: { written: number; removed: number };
  onFile(rel: string): void;
}

/**
 * The stat of a manifest entry the applier could not write (a local change holds its place, an ignore rule
 * covers it): no file ever has it (mtime before the epoch), so the disk never matches it and a later check
 * compares bytes. The entry still says what the version has there.
 */
export const NEVER_WRITTEN = { mtimeMs: -1, ino: 0 } as const;

export function removalOp(ctx: ApplyContext, rel: string, kind: SyncEntry['kind']): void {
  ctx.removals.push({ op: 'delete_tree', pathKey: ctx.keyOf(rel), path: rel, kind });
}

export function putFolderOp(ctx: ApplyContext, rel: string, cid: CID): void {
  const pathKey = ctx.keyOf(rel);
  ctx.folders.set(pathKey, { op: 'put', pathKey, path: rel, kind: 'dir', size: 0, mtimeMs: 0, ino: 0, cid: cid.toString() });
}

export function putFileOp(ctx: ApplyContext, rel: string, cid: CID, stat: WrittenFile): void {
  const pathKey = ctx.keyOf(rel);
  ctx.files.set(pathKey, { op: 'put', pathKey, path: rel, kind: 'file', size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino, cid: cid.toString() });
}

/** The version's file at `rel` recorded without a file of ours on the disk (see NEVER_WRITTEN). */
export async function putUnwrittenFileOp(ctx: ApplyContext, rel: string, cid: CID): Promise<void> {
  const info = await inspectNode(ctx.blocks, cid, { signal: ctx.signal });
  putFileOp(ctx, rel, cid, { size: info.size, ...NEVER_WRITTEN });
}

export async function writeFile(ctx: ApplyContext, cid: CID, rel: string): Promise<WrittenFile> {
  const written = await writeVersionFile(ctx.blocks, cid, ctx.disk.abs(rel), { tempName: followTempName, keepMtime: true, signal: ctx.signal });
  ctx.counts.written++;
  return written;
}

/** A name in the folder at `absDir` is taken by anything, a dangling link included. */
export function nameTaken(absDir: string): (name: string) => boolean {
  return (name) => {
    try {
      lstatSync(path.join(absDir, name));
      return true;
    } catch {
      return false;
    }
  };
}

/**
 * The CID among `candidates` whose bytes the file at `rel` holds (a stat the manifest recorded counts as
 * its entry's CID), or undefined: then the file is not one the applier wrote, and is never replaced.
 */
export async function heldVersionOf(ctx: ApplyContext, rel: string, state: DiskState, candidates: readonly (CID | undefined)[]): Promise<CID | undefined> {
  if (state.kind !== 'file') return undefined;
  const entry = await ctx.entry(rel);
  // The file as the applier left it: its entry's bytes, without reading them.
  const recorded = entry?.kind === 'file' && sameStat(state.stat, entry) ? entry.cid : undefined;
  const known = candidates.filter((cid): cid is CID => cid !== undefined);
  const unread = known.find((cid) => cid.toString() === recorded);
  if (unread !== undefined) return unread;
  const seen = new Set<string>();
  for (const cid of known) {
    if (seen.has(cid.toString())) continue;
    seen.add(cid.toString());
    if (await holdsBytesOf(ctx, rel, state.stat.size, cid)) return cid;
  }
  return undefined;
}

/** Whether the file at `rel` holds the bytes of `cid`; false when the version's blocks are no longer held. */
export async function holdsBytesOf(ctx: ApplyContext, rel: string, size: number, cid: CID): Promise<boolean> {
  try {
    return await sameContent(ctx.blocks, ctx.disk.abs(rel), size, cid, ctx.signal);
  } catch (error) {
    if (error instanceof NotFoundError) return false;
    throw error;
  }
}

/** The CID the interrupted apply's version has at `rel`, when it has a file there. */
export async function interruptedFileAt(ctx: ApplyContext, rel: string): Promise<CID | undefined> {
  const node = await ctx.interrupted?.nodeAt(rel);
  return node?.kind === 'file' ? node.cid : undefined;
}
