import { CID } from 'multiformats/cid';
import { systemClock, unixSeconds, type Clock } from '../../base/clock.js';
import { NotFoundError } from '../../base/errors.js';
import { diffTrees } from '../../content/directory/diff-trees.js';
import { EMPTY_DIRECTORY_CID } from '../../content/directory/index.js';
import type { ReadBlockstore } from '../../content/read/index.js';
import type { Store } from '../../store/repositories/index.js';
import type { JournalOp, SyncFolderRow } from '../../store/repositories/sync.js';
import { foldPath } from '../coalescer.js';
import { restoreStamp } from '../restore-name.js';
import { putFolderOp, type ApplyContext } from './apply-context.js';
import { applyRemovals } from './apply-removals.js';
import { applyWrites, keepFolderTimes } from './apply-writes.js';
import { folderDisk, relParent, removeLeftovers, type FolderDisk } from './folder-disk.js';
import { folderIgnore, type FolderIgnore } from './folder-ignore.js';
import { folderWriteError, requireFolder } from './follow-errors.js';
import { checkLocalPath, describeLocalChanges, scanLocalChanges, type LocalChange, type LocalChangeKind } from './local-changes.js';
import { systemTrash, type Trash } from './trash.js';
import { heldVersionTree, versionTree, type VersionTree } from './version-tree.js';
import { checkVersionPaths, splitVersionPaths } from './version-paths.js';

/**
 * The applier of a followed folder (issue 24): writes a version (a UnixFS root whose blocks are held) into
 * the folder, safely. How to call it (follow-runner.ts):
 *
 *   const result = await applyFollowedVersion({
 *     folderId, store, blocks,          // the sync_folders row (mode follow), the Store, the Blocks
 *     root: newRoot,                    // the version to write; its blocks all held (fetched, and pinned or leased)
 *     source: 'k51…abc' | 'gateway.host',  // for names beside local changes: "name (from <source>, YYYY-MM-DD HHMM).ext"
 *     movePin: (newRoot, oldRoot) => …, // as the reconciler's: pin newRoot, unpin oldRoot (undefined the first time)
 *     localChanges: row's previous list of paths (optional), scanAll: true on the first apply after a start,
 *     signal, onProgress,               // trash, clock, windowsNames: defaults are the system's
 *   });
 *   // result.localChanges → the folder's local_changes; result.written / result.removed → its progress.
 *
 * What it does, with the folder's row as the state: the last applied root is the row's `root_cid` ('' before
 * the first copy), the manifest its sync entries (path → the version's CID, and for each file the applier
 * wrote the size, mtime and inode it left). Steps: (1) the intent `{old root, new root, no ops}` written as the
 * folder's sync journal, before the disk is touched; (2) the two trees diffed (content/directory/diff-trees.ts:
 * only what changed is read), and every name the version would write checked; (3) removals: what the version
 * no longer has goes to the OS trash (trash.ts) when the applier wrote it (apply-removals.ts); (4) writes: new
 * and changed files written under `.pinfold-follow-<id>.tmp`, fsynced and renamed into place, folders made,
 * mtimes from UnixFS metadata kept (apply-writes.ts); (5) the journal rewritten with the manifest's ops, the pin
 * moved, and the journal committed (commitSyncJournal: entries, root, totals, and the version recorded in the
 * folder's history, all in one transaction). The row's state, error, follow_seq and local_changes are the
 * caller's to set from the result.
 *
 * Local data is never lost: a file is replaced or removed only when it holds bytes the applier wrote (its
 * recorded stat, else its bytes compared). A local change (a changed, added or replaced file, a link or a
 * file where the version has a folder) keeps its name: the incoming file goes beside it, and it is listed.
 * A file deleted locally that the version changed is written again. Ignored paths are never touched nor listed.
 *
 * Crash safety: a kill at any point leaves no torn file under a real name (temporary names only), and the
 * journal of step 1 says an apply was under way. The next call (with the same root or a newer one) finds it,
 * removes the temporary files of the folders concerned, counts what the interrupted apply may have written as
 * the applier's own, and converges: run it again after a restart before anything else touches the folder.
 * Never commit such a journal any other way (the reconciler's recoverJournal is for sync folders).
 *
 * Errors: FollowApplyError (follow-errors.ts) for a full disk, a folder gone or unwritable, a version holding
 * a name this machine cannot write; NotFoundError when the version's blocks are not all held; AbortError on
 * `signal`. Nothing half-written is left under a real name, temporary files are removed, the journal stays.
 * Discard (`discardLocalChanges`, discard.ts) writes the followed version over the local changes.
 */

export type { LocalChange, LocalChangeKind } from './local-changes.js';
export { FollowApplyError, type FollowApplyProblem } from './follow-errors.js';
export { systemTrash, noTrash, type Trash } from './trash.js';
export { discardLocalChanges, type DiscardInit, type DiscardResult } from './discard.js';

export interface FollowApplyProgress {
  phase: 'removing' | 'writing' | 'checking';
  filesDone: number;
  filesTotal: number;
  currentFile: string;
}

export interface FollowApplyInit {
  /** The followed folder's sync_folders row. */
  folderId: string;
  /** The row, its entries (the manifest) and its journal. */
  store: Pick<Store, 'sync'>;
  blocks: ReadBlockstore;
  /** The version to write (a UnixFS directory), its blocks held. */
  root: string;
  /** The folder's source as the names beside local changes carry it (restore-name.ts's besideSourceLabel cleans it). */
  source: string;
  /** Pins `newRoot` and unpins `oldRoot` (undefined on the first copy); idempotent, like the reconciler's. */
  movePin(newRoot: string, oldRoot: string | undefined): Promise<void>;
  /** The local changes listed after the last apply (paths): checked again. */
  localChanges?: readonly string[];
  /** Walk the whole folder for local changes (always done on the first copy). */
  scanAll?: boolean;
  /** Where removed files go (default: the system's, trash.ts). */
  trash?: Trash;
  clock?: Clock;
  /** Refuse names Windows cannot hold; by default on Windows only. */
  windowsNames?: boolean;
  signal?: AbortSignal;
  onProgress?: (progress: FollowApplyProgress) => void;
}

export interface FollowApplyResult {
  /** The root the folder now holds (the row's root_cid). */
  root: string;
  /** The manifest's changes, as committed. */
  ops: JournalOp[];
  /** Where the folder differs from the version, sorted by path. */
  localChanges: LocalChange[];
  /** Files written (copies beside local changes included). */
  written: number;
  /** Files and folders moved to the trash (or deleted where there is none). */
  removed: number;
}

async function requireRow(store: Pick<Store, 'sync'>, folderId: string): Promise<SyncFolderRow> {
  const folder = await store.sync.getSyncFolder(folderId);
  if (!folder) throw new NotFoundError(`sync folder not found: ${folderId}`);
  return folder;
}

/** What the folder's journal says of an apply under way. */
interface Interrupted {
  /** Its target, when its blocks are still held. */
  tree: VersionTree | undefined;
  /** When it began: the names it wrote beside local changes carry this time. */
  createdAt: number;
  sameTarget: boolean;
}

async function interruptedApply(init: FollowApplyInit, folder: SyncFolderRow): Promise<Interrupted | undefined> {
  const journal = await init.store.sync.getSyncJournal(folder.id);
  if (!journal) return undefined;
  // A journal of another starting point is no apply of this state: nothing to learn from it.
  if (journal.oldRoot !== folder.rootCid) {
    await init.store.sync.discardSyncJournal(folder.id);
    return undefined;
  }
  const sameTarget = journal.newRoot === init.root;
  const tree = sameTarget ? undefined : await heldVersionTree(init.blocks, journal.newRoot, init.signal);
  return { tree, createdAt: journal.createdAt, sameTarget };
}

/** Every folder above a changed path that the version has: the manifest learns its new CID. */
async function recordFolders(ctx: ApplyContext, paths: readonly string[]): Promise<void> {
  const done = new Set<string>();
  for (const rel of paths) {
    for (let folder = relParent(rel); folder !== '' && !done.has(folder); folder = relParent(folder)) {
      done.add(folder);
      const node = await ctx.to.nodeAt(folder);
      if (node?.kind === 'dir') putFolderOp(ctx, folder, node.cid);
    }
  }
}

interface Pass {
  ops: JournalOp[];
  /** Paths found differing on the way: checked again once the manifest is committed. */
  found: string[];
  written: number;
  removed: number;
}

async function writeVersion(
  init: FollowApplyInit,
  folder: SyncFolderRow,
  disk: FolderDisk,
  ignore: FolderIgnore,
  interrupted: Interrupted | undefined,
): Promise<Pass> {
  const { sync } = init.store;
  const { blocks, signal } = init;
  const clock = init.clock ?? systemClock;
  const keyOf = (rel: string): string => foldPath(rel, folder.caseInsensitive);
  const createdAt = interrupted?.sameTarget === true ? interrupted.createdAt : unixSeconds(clock);
  const fromRoot = folder.rootCid === '' ? EMPTY_DIRECTORY_CID : CID.parse(folder.rootCid);
  const to = versionTree(blocks, CID.parse(init.root), signal);
  const read = { blockstore: blocks, signal };
  const diffs = [await diffTrees(read, fromRoot, to.root, 'version')];
  if (interrupted?.tree) diffs.push(await diffTrees(read, fromRoot, interrupted.tree.root, 'version'));
  const changed = [...new Set(diffs.flatMap((diff) => [...diff.added, ...diff.modified, ...diff.removed]))].sort();
  const split = await splitVersionPaths(to, changed);
  checkVersionPaths(split, init.windowsNames ?? process.platform === 'win32');
  // The intent, before the disk is touched: a kill from here on is found by the next apply.
  await sync.writeSyncJournal({ folderId: folder.id, oldRoot: folder.rootCid, newRoot: init.root, createdAt, ops: [] });

  if (interrupted !== undefined) {
    for (const parent of new Set(changed.map((rel) => relParent(rel.replace(/\/$/, ''))))) {
      if ((await disk.stateOf(parent)).kind === 'dir') await removeLeftovers(disk.abs(parent));
    }
  }

  const filesTotal = split.removeFiles.length + split.writeFiles.length;
  let filesDone = 0;
  let phase: FollowApplyProgress['phase'] = 'removing';
  const ctx: ApplyContext = {
    disk,
    ignore,
    blocks,
    to,
    interrupted: interrupted?.tree,
    entry: (rel) => sync.getSyncEntry(folder.id, keyOf(rel)),
    keyOf,
    trash: init.trash ?? systemTrash(),
    source: init.source,
    stamp: restoreStamp(createdAt, -new Date(createdAt * 1000).getTimezoneOffset()),
    signal,
    removals: [],
    folders: new Map(),
    files: new Map(),
    changes: new Map<string, LocalChangeKind>(),
    counts: { written: 0, removed: 0 },
    onFile: (rel) => init.onProgress?.({ phase, filesDone: filesDone++, filesTotal, currentFile: rel }),
  };
  await applyRemovals(ctx, split.removeFiles, split.removeFolders);
  phase = 'writing';
  await applyWrites(ctx, split.writeFiles, split.writeFolders);
  await recordFolders(ctx, changed);
  await keepFolderTimes(ctx);

  const ops = [...ctx.removals, ...ctx.folders.values(), ...ctx.files.values()];
  await sync.writeSyncJournal({ folderId: folder.id, oldRoot: folder.rootCid, newRoot: init.root, createdAt, ops });
  if (init.root !== folder.rootCid) await init.movePin(init.root, folder.rootCid === '' ? undefined : folder.rootCid);
  await sync.commitSyncJournal(folder.id, init.root, unixSeconds(clock));
  return { ops, found: [...ctx.changes.keys()], written: ctx.counts.written, removed: ctx.counts.removed };
}

/** Writes the version `init.root` into the followed folder; see the top of this file. */
export async function applyFollowedVersion(init: FollowApplyInit): Promise<FollowApplyResult> {
  const folder = await requireRow(init.store, init.folderId);
  await requireFolder(folder.path);
  const disk = folderDisk(folder.path);
  const ignore = folderIgnore(folder.path, { patterns: folder.ignorePatterns, caseInsensitive: folder.caseInsensitive });
  const keyOf = (rel: string): string => foldPath(rel, folder.caseInsensitive);
  try {
    const interrupted = await interruptedApply(init, folder);
    const pass: Pass =
      folder.rootCid === init.root && interrupted === undefined
        ? { ops: [], found: [], written: 0, removed: 0 }
        : await writeVersion(init, folder, disk, ignore, interrupted);

    init.onProgress?.({ phase: 'checking', filesDone: 0, filesTotal: 0, currentFile: '' });
    const checkDisk = folderDisk(folder.path);
    const check = {
      disk: checkDisk,
      ignore,
      blocks: init.blocks,
      entry: (rel: string) => init.store.sync.getSyncEntry(folder.id, keyOf(rel)),
      signal: init.signal,
    };
    let kinds: Map<string, LocalChangeKind>;
    if (init.scanAll === true || folder.rootCid === '') {
      kinds = await scanLocalChanges(check, await init.store.sync.listSyncEntries(folder.id), keyOf);
    } else {
      kinds = new Map();
      for (const rel of new Set([...pass.found, ...(init.localChanges ?? [])])) {
        const change = await checkLocalPath(check, rel);
        if (change !== undefined) kinds.set(rel, change);
      }
    }
    return {
      root: init.root,
      ops: pass.ops,
      localChanges: await describeLocalChanges(checkDisk, kinds),
      written: pass.written,
      removed: pass.removed,
    };
  } catch (error) {
    throw await folderWriteError(error, folder.path);
  }
}
