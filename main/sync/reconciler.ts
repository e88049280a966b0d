import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { NotFoundError } from '../base/errors.js';
import { systemClock, unixSeconds, type Clock } from '../base/clock.js';
import { EMPTY_DIRECTORY_CID } from '../content/directory/index.js';
import type { Store } from '../store/repositories/index.js';
import type { SyncEntry } from '../store/repositories/sync.js';
import { BatchProgress, type SyncProgress } from './batch-progress.js';
import { foldPath, type Change, type FileStat, type RawEvent } from './coalescer.js';
import { importOne, READ_CHUNK, type FileImporter, type ImportJob, type ImportOutcome } from './file-import.js';
import { forEachPooled, Gate } from './import-pool.js';
import type { Unreadable } from './scanner.js';
import { operationOf, TreeEdit, type DirOperation } from './tree-edit.js';

export type { DirOperation } from './tree-edit.js';
export type { SyncProgress } from './batch-progress.js';

/**
 * Turns one settled batch into one new root, and makes it the folder's published state.
 *
 *  1. import every added/changed file by streaming it (a move reuses the CID it had),
 *  2. rebuild each affected directory bottom-up with one folder operation per directory (new
 *     directories start from the empty UnixFS directory), up to a new root,
 *  3. write a journal row {old root, new root, entry changes}   <- the commit point of intent
 *  4. move the pin (pin new, unpin old), 5. publish the new root to the folder's IPNS name,
 *  6. apply the entry changes, set the root, drop the journal: one SQLite transaction.
 *
 * Crash safety (kill -9 anywhere): before 3, nothing but unreferenced blocks exists (GC takes them)
 * and the next start's scan sees the same differences again. From 3 on, `recoverJournal` replays
 * 4-6, each idempotent, with the root computed before the crash: the published root is always the
 * old one or the whole new one. If the new root's blocks are gone by then (a very late restart,
 * GC ran), the pin cannot be placed, the journal is dropped and a rescan redoes the work.
 *
 * The other domains arrive injected (`ReconcilerComponents`), so this file is wired later by the
 * composition root and tested now with fakes.
 */

/** The empty UnixFS directory, CIDv1 (contract section 5: always available). */
export const EMPTY_DIR_CID = EMPTY_DIRECTORY_CID.toString();

/**
 * Files imported at once: enough to keep the file system's thread pool busy on many small files
 * (each is an open, a stat, a read, a close and a stat). Large files hold a few MiB each while they
 * hash, so at most LARGE_CONCURRENCY of them run together.
 */
const IMPORT_CONCURRENCY = 16;
const LARGE_CONCURRENCY = 4;

export interface ReconcilerComponents {
  /** The folder's rows: each call commits on its own (the journal is written, and committed, in one call). */
  store: Pick<Store, 'sync'>;
  /**
   * The empty directory in the CID version new directories get (a folder or subfolder with nothing in
   * it is that CID itself, no operation made). Default EMPTY_DIR_CID.
   */
  emptyDirectory?: string;
  /** Imports one file's bytes (contract section 5 layout) into the blockstore. Must consume the stream. */
  /** `transfer`: the source never reuses a buffer it yielded (see fixedChunks). */
  importFile: FileImporter;
  /** One directory's new CID after `op`; handles HAMT shards. */
  applyOperation(dirCid: string, op: DirOperation, options: { signal?: AbortSignal }): Promise<string>;
  /**
   * Pin `newRoot` and unpin `oldRoot` (undefined on the first sync). Idempotent: a root already
   * pinned / already unpinned is fine. Throws NotFoundError when `newRoot`'s blocks are not all held.
   */
  movePin(newRoot: string, oldRoot: string | undefined): Promise<void>;
  /** Points `ipnsName` at `/ipfs/<root>`. Idempotent. */
  publish(ipnsName: string, root: string): Promise<void>;
  clock?: Clock;
}

export interface ReconcileOptions {
  signal?: AbortSignal;
  onProgress?: (progress: SyncProgress) => void;
}

export interface ReconcileResult {
  root: string;
  /** False when the batch left the tree as it was (nothing pinned or published). */
  rootChanged: boolean;
  unreadable: Unreadable[];
  /** Files that changed while being read: push these back into the coalescer. */
  deferred: RawEvent[];
}

/** The folder a batch runs on, and how it names paths. */
interface BatchFolder {
  oldRoot: string;
  absOf: (path: string) => string;
  signal: AbortSignal | undefined;
}

/**
 * Applies one batch. Run batches of a folder one at a time, after {@link recoverJournal}.
 * Throws (leaving the old root published and the state untouched) when a component fails.
 */
export async function reconcileBatch(
  components: ReconcilerComponents,
  folderId: string,
  changes: readonly Change[],
  options: ReconcileOptions = {},
): Promise<ReconcileResult> {
  const { sync } = components.store;
  const { signal } = options;
  const folder = await sync.getSyncFolder(folderId);
  if (!folder) throw new NotFoundError(`sync folder not found: ${folderId}`);
  if (await sync.getSyncJournal(folderId)) await recoverJournal(components, folderId);
  const current = (await sync.getSyncFolder(folderId)) ?? folder;
  const batch: BatchFolder = { oldRoot: current.rootCid, absOf: (p) => path.join(current.path, ...p.split('/')), signal };
  const edit = new TreeEdit(
    (key) => sync.getSyncEntry(folderId, key),
    (p) => foldPath(p, current.caseInsensitive),
  );

  const jobs = await planChanges(edit, changes, batch);
  const progress = new BatchProgress(
    jobs.length,
    jobs.reduce((sum, job) => sum + (job.expected.size ?? 0), 0),
    options.onProgress,
  );
  progress.report();
  const { imported, unreadable, deferred } = await importFiles(components, jobs, batch, progress);
  for (const job of jobs) {
    const entry = imported.get(job);
    if (entry) await edit.place(entry);
  }
  const newRoot = await rebuildTree(components, edit, batch);

  const rootChanged = newRoot !== batch.oldRoot;
  if (edit.ops.length > 0 || rootChanged) {
    signal?.throwIfAborted();
    const createdAt = unixSeconds(components.clock ?? systemClock);
    await sync.writeSyncJournal({ folderId, oldRoot: batch.oldRoot, newRoot, createdAt, ops: edit.ops });
    await finishJournal(components, folderId);
  }
  progress.idle();
  return { root: newRoot, rootChanged, unreadable, deferred };
}

/** Plans the removes, folders and reused moves of `changes`; returns the files to import. */
async function planChanges(edit: TreeEdit, changes: readonly Change[], batch: BatchFolder): Promise<ImportJob[]> {
  const { keyOf } = edit;
  const jobs: ImportJob[] = [];
  const removeExisting = async (p: string): Promise<void> => {
    const entry = await edit.existing(keyOf(p));
    if (entry) edit.remove(entry);
  };
  for (const change of changes) {
    batch.signal?.throwIfAborted();
    if (change.type === 'remove') await removeExisting(change.path);
    else if (change.type === 'add' && change.kind === 'dir') await edit.ensureDir(change.path);
    else if (change.type === 'move') {
      const source = await edit.stored(keyOf(change.from));
      const now = await lstat(batch.absOf(change.to)).catch(() => undefined);
      if (change.removesSource) await removeExisting(change.from);
      if (source?.kind === 'file' && now?.isFile() && now.size === source.size && now.mtimeMs === source.mtimeMs) {
        // Still the bytes the source had: its CID is reused, nothing is read.
        await edit.place({ ...source, pathKey: keyOf(change.to), path: change.to, ino: now.ino });
      } else jobs.push(importJobOf(keyOf(change.to), change.to, change));
    } else jobs.push(importJobOf(keyOf(change.path), change.path, change));
  }
  return jobs;
}

const importJobOf = (key: string, at: string, seen: FileStat): ImportJob => ({
  key,
  path: at,
  expected: { size: seen.size, mtimeMs: seen.mtimeMs, ino: seen.ino },
});

/** The batch's file imports, a few at a time: the entries read, and what could not be. */
async function importFiles(
  components: ReconcilerComponents,
  jobs: readonly ImportJob[],
  batch: BatchFolder,
  progress: BatchProgress,
): Promise<{ imported: Map<ImportJob, SyncEntry>; unreadable: Unreadable[]; deferred: RawEvent[] }> {
  const imported = new Map<ImportJob, SyncEntry>();
  const unreadable: Unreadable[] = [];
  const deferred: RawEvent[] = [];
  const largeFiles = new Gate(LARGE_CONCURRENCY);
  await forEachPooled(jobs, IMPORT_CONCURRENCY, async (job) => {
    batch.signal?.throwIfAborted();
    progress.started(job.path);
    const large = (job.expected.size ?? 0) > READ_CHUNK;
    if (large) await largeFiles.enter();
    let outcome: ImportOutcome;
    try {
      outcome = await importOne(components.importFile, batch.absOf(job.path), job, batch.signal, (n) => progress.read(n));
    } finally {
      if (large) largeFiles.leave();
    }
    if (outcome.kind === 'ok') imported.set(job, { pathKey: job.key, path: job.path, kind: 'file', ...outcome.stat, cid: outcome.cid });
    else if (outcome.kind === 'unstable') deferred.push({ kind: 'change', path: job.path, at: (components.clock ?? systemClock).nowMs(), ...outcome.stat });
    else if (outcome.kind === 'unreadable') unreadable.push({ path: job.path, reason: outcome.reason });
    progress.finished(outcome.kind === 'unreadable' ? `${job.path}: ${outcome.reason}` : undefined);
  });
  return { imported, unreadable, deferred };
}

/** Applies the planned directory operations bottom-up; returns the new root. */
async function rebuildTree(components: ReconcilerComponents, edit: TreeEdit, batch: BatchFolder): Promise<string> {
  const empty = components.emptyDirectory ?? EMPTY_DIR_CID;
  const { oldRoot } = batch;
  let newRoot = oldRoot === '' ? empty : oldRoot;
  for (const plan of edit.rebuildOrder()) {
    batch.signal?.throwIfAborted();
    const base = plan.reset ? empty : plan.key === '' ? (oldRoot === '' ? empty : oldRoot) : (await edit.existing(plan.key))?.cid;
    if (base === undefined) continue; // under a removed folder: nothing to rebuild
    const op = operationOf(plan);
    const cid = op.add.length === 0 && op.remove.length === 0 ? base : await components.applyOperation(base, op, { signal: batch.signal });
    if (plan.key === '') newRoot = cid;
    else edit.rebuilt(plan, cid);
  }
  return newRoot;
}

/**
 * Finishes a batch interrupted after its journal was written (run on start, before any new batch).
 * Returns 'none' (no journal), 'completed', or 'discarded' (the new root's blocks are gone: the
 * old root stays, and the caller must rescan).
 */
export async function recoverJournal(components: ReconcilerComponents, folderId: string): Promise<'none' | 'completed' | 'discarded'> {
  if (!(await components.store.sync.getSyncJournal(folderId))) return 'none';
  try {
    await finishJournal(components, folderId);
    return 'completed';
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    await components.store.sync.discardSyncJournal(folderId);
    return 'discarded';
  }
}

async function finishJournal(components: ReconcilerComponents, folderId: string): Promise<void> {
  const { sync } = components.store;
  const journal = await sync.getSyncJournal(folderId);
  const folder = await sync.getSyncFolder(folderId);
  if (!journal || !folder) return;
  if (journal.newRoot !== journal.oldRoot) {
    await components.movePin(journal.newRoot, journal.oldRoot === '' ? undefined : journal.oldRoot);
    if (folder.ipnsName !== '') await components.publish(folder.ipnsName, journal.newRoot);
  }
  await sync.commitSyncJournal(folderId, journal.newRoot, unixSeconds(components.clock ?? systemClock));
}
