import { mkdir, unlink } from 'node:fs/promises';
import { CID } from 'multiformats/cid';
import { systemClock, unixSeconds, type Clock } from '../../base/clock.js';
import { ConflictError, NotFoundError } from '../../base/errors.js';
import type { ReadBlockstore } from '../../content/read/index.js';
import type { Store } from '../../store/repositories/index.js';
import type { JournalOp } from '../../store/repositories/sync.js';
import { foldPath } from '../coalescer.js';
import { sameContent, writeVersionFile } from '../restore-write.js';
import { besideCopiesOf, followTempName, folderDisk, relParent, type FolderDisk } from './folder-disk.js';
import { folderIgnore } from './folder-ignore.js';
import { FollowApplyError, folderWriteError, requireFolder } from './follow-errors.js';
import { checkLocalPath, describeLocalChanges, scanLocalChanges, type LocalChange, type LocalChangeKind } from './local-changes.js';
import { systemTrash, type Trash } from './trash.js';
import { versionTree, type VersionTree } from './version-tree.js';

/**
 * Discard (issue 24: "the user can discard them (restore the followed version)"): each local change of a
 * followed folder is moved to the trash and the followed version's file or folder written in its place;
 * the copies the applier wrote beside it go to the trash too. Local data is never deleted: where there is
 * no trash (trash.ts), the discard stops with FollowApplyError('no-trash') before touching the change, and
 * a copy beside it is deleted only when it holds exactly the version's bytes. A folder whose update was
 * interrupted is refused (409) until the update has run again (follow-applier.ts).
 */

export interface DiscardInit {
  folderId: string;
  store: Pick<Store, 'sync'>;
  blocks: ReadBlockstore;
  /** The local changes to discard (paths of the folder); all of them (a full scan) when not given. */
  paths?: readonly string[];
  trash?: Trash;
  clock?: Clock;
  signal?: AbortSignal;
}

export interface DiscardResult {
  /** Files of the version written. */
  written: number;
  /** Local changes and copies beside them moved to the trash (or deleted, for copies of the version's bytes). */
  trashed: number;
  /** What still differs afterwards (among the paths discarded; everything, after a full discard). */
  localChanges: LocalChange[];
}

interface DiscardContext {
  disk: FolderDisk;
  to: VersionTree;
  blocks: ReadBlockstore;
  trash: Trash;
  keyOf(rel: string): string;
  signal: AbortSignal | undefined;
  ops: JournalOp[];
  counts: { written: number; trashed: number };
}

const depthThenName = (a: string, b: string): number => a.split('/').length - b.split('/').length || (a < b ? -1 : a > b ? 1 : 0);

/** The folders above `rel` as real folders (made when missing); false when something local is in the way. */
async function placeParents(ctx: DiscardContext, rel: string): Promise<boolean> {
  const parent = relParent(rel);
  if (parent === '') return true;
  if (!(await placeParents(ctx, parent))) return false;
  const state = await ctx.disk.stateOf(parent);
  if (state.kind === 'dir') return true;
  if (state.kind !== 'absent') return false;
  await mkdir(ctx.disk.abs(parent));
  const node = await ctx.to.nodeAt(parent);
  if (node?.kind === 'dir') ctx.ops.push(folderOp(ctx, parent, node.cid));
  return true;
}

function folderOp(ctx: DiscardContext, rel: string, cid: CID): JournalOp {
  return { op: 'put', pathKey: ctx.keyOf(rel), path: rel, kind: 'dir', size: 0, mtimeMs: 0, ino: 0, cid: cid.toString() };
}

/** The version's entry at `rel` written where nothing is (a file, or a folder with all it holds). */
async function writeVersionEntry(ctx: DiscardContext, rel: string): Promise<void> {
  ctx.signal?.throwIfAborted();
  const node = await ctx.to.nodeAt(rel);
  if (node === undefined || node.kind === 'other') return;
  if ((await ctx.disk.stateOf(rel)).kind !== 'absent' || !(await placeParents(ctx, rel))) return;
  if (node.kind === 'file') {
    const written = await writeVersionFile(ctx.blocks, node.cid, ctx.disk.abs(rel), { tempName: followTempName, keepMtime: true, signal: ctx.signal });
    ctx.ops.push({ op: 'put', pathKey: ctx.keyOf(rel), path: rel, kind: 'file', ...written, cid: node.cid.toString() });
    ctx.counts.written++;
    return;
  }
  await mkdir(ctx.disk.abs(rel));
  ctx.ops.push(folderOp(ctx, rel, node.cid));
  for (const name of (await ctx.to.childrenOf(rel)).keys()) await writeVersionEntry(ctx, `${rel}/${name}`);
}

async function trashLocal(ctx: DiscardContext, rel: string): Promise<void> {
  if (!(await ctx.trash.moveToTrash(ctx.disk.abs(rel)))) {
    throw new FollowApplyError('no-trash', `there is no trash on this machine for ${ctx.disk.abs(rel)}; local changes are never deleted, so it was kept`);
  }
  ctx.disk.forget(rel);
  ctx.counts.trashed++;
}

/** The copies written beside `rel`: to the trash; without one, deleted only when they hold the version's bytes. */
async function dropBesideCopies(ctx: DiscardContext, rel: string): Promise<void> {
  const node = await ctx.to.nodeAt(rel);
  for (const copy of await besideCopiesOf(ctx.disk, rel)) {
    if (await ctx.trash.moveToTrash(ctx.disk.abs(copy))) {
      ctx.counts.trashed++;
      continue;
    }
    const state = await ctx.disk.stateOf(copy);
    if (node?.kind !== 'file' || state.kind !== 'file') continue;
    if (await sameContent(ctx.blocks, ctx.disk.abs(copy), state.stat.size, node.cid, ctx.signal)) {
      await unlink(ctx.disk.abs(copy));
      ctx.counts.trashed++;
    }
  }
}

/** Writes the followed version over the folder's local changes; see the top of this file. */
export async function discardLocalChanges(init: DiscardInit): Promise<DiscardResult> {
  const { sync } = init.store;
  const folder = await sync.getSyncFolder(init.folderId);
  if (!folder) throw new NotFoundError(`sync folder not found: ${init.folderId}`);
  if (folder.rootCid === '') throw new ConflictError('the folder holds no followed version yet: nothing to discard against');
  if (await sync.getSyncJournal(folder.id)) throw new ConflictError('an update of the folder is being applied; discard once it is done');
  await requireFolder(folder.path);
  const keyOf = (rel: string): string => foldPath(rel, folder.caseInsensitive);
  const disk = folderDisk(folder.path);
  const ignore = folderIgnore(folder.path, { patterns: folder.ignorePatterns, caseInsensitive: folder.caseInsensitive });
  const entry = (rel: string) => sync.getSyncEntry(folder.id, keyOf(rel));
  const check = { disk, ignore, blocks: init.blocks, entry, signal: init.signal };
  const ctx: DiscardContext = {
    disk,
    to: versionTree(init.blocks, CID.parse(folder.rootCid), init.signal),
    blocks: init.blocks,
    trash: init.trash ?? systemTrash(),
    keyOf,
    signal: init.signal,
    ops: [],
    counts: { written: 0, trashed: 0 },
  };
  try {
    const changes = new Map<string, LocalChangeKind>();
    if (init.paths === undefined) {
      for (const [rel, change] of await scanLocalChanges(check, await sync.listSyncEntries(folder.id), keyOf)) changes.set(rel, change);
    } else {
      for (const rel of init.paths) {
        const change = await checkLocalPath(check, rel);
        if (change !== undefined) changes.set(rel, change);
      }
    }
    for (const rel of [...changes.keys()].sort(depthThenName)) {
      const state = await disk.stateOf(rel);
      if (state.kind === 'blocked') continue;
      if (state.kind !== 'absent') await trashLocal(ctx, rel);
      await writeVersionEntry(ctx, rel);
      await dropBesideCopies(ctx, rel);
    }
    if (ctx.ops.length > 0) {
      const now = unixSeconds(init.clock ?? systemClock);
      await sync.writeSyncJournal({ folderId: folder.id, oldRoot: folder.rootCid, newRoot: folder.rootCid, createdAt: now, ops: ctx.ops });
      await sync.commitSyncJournal(folder.id, folder.rootCid, now);
    }
    const after = folderDisk(folder.path);
    const recheck = { ...check, disk: after };
    const left = new Map<string, LocalChangeKind>();
    if (init.paths === undefined) {
      for (const [rel, change] of await scanLocalChanges(recheck, await sync.listSyncEntries(folder.id), keyOf)) left.set(rel, change);
    } else {
      for (const rel of changes.keys()) {
        const change = await checkLocalPath(recheck, rel);
        if (change !== undefined) left.set(rel, change);
      }
    }
    return { written: ctx.counts.written, trashed: ctx.counts.trashed, localChanges: await describeLocalChanges(after, left) };
  } catch (error) {
    throw await folderWriteError(error, folder.path);
  }
}
