import { constants } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import path from 'node:path';
import { NotFoundError } from '../base/errors.js';
import { systemClock, unixSeconds, type Clock } from '../base/clock.js';
import { OFFLOAD_MIN_BYTES } from '../base/hash-pool.js';
import { EMPTY_DIRECTORY_CID } from '../content/directory/index.js';
import type { Store } from '../store/repositories/index.js';
import type { JournalOp, SyncEntry, SyncFolderState } from '../store/repositories/sync.js';
import { foldPath, sameStat, type Change, type RawEvent } from './coalescer.js';
import { describeFsError, type Unreadable } from './scanner.js';

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
const READ_CHUNK = 1024 * 1024;

export interface DirOperation {
  /** Entries to set; an existing entry of the same name is replaced. Applied after `remove`. */
  add: { name: string; cid: string }[];
  /** Names to drop (spelled as in the directory). A name that is not there is not an error. */
  remove: string[];
}

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
  importFile(source: AsyncIterable<Uint8Array>, options: { signal?: AbortSignal; transfer?: boolean }): Promise<{ cid: string; size: number }>;
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

export interface SyncProgress {
  state: SyncFolderState;
  filesDone: number;
  filesPending: number;
  bytesDone: number;
  bytesPending: number;
  currentFile: string;
  lastError: string;
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

interface DirPlan {
  key: string;
  path: string;
  /** Start from the empty directory (a new folder, or one deleted and re-created). */
  reset: boolean;
  add: Map<string, { name: string; cid: string }>;
  remove: Set<string>;
}

interface ImportJob {
  key: string;
  path: string;
  /** What the scan or the watcher saw; the file must still be exactly this when read. */
  expected: { size?: number; mtimeMs?: number; ino?: number };
}

const parentOf = (p: string): string => {
  const at = p.lastIndexOf('/');
  return at < 0 ? '' : p.slice(0, at);
};
const nameOf = (p: string): string => p.slice(p.lastIndexOf('/') + 1);
const depthOf = (p: string): number => (p === '' ? 0 : p.split('/').length);

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
  const oldRoot = current.rootCid;
  const ci = current.caseInsensitive;
  const keyOf = (p: string): string => foldPath(p, ci);
  const absOf = (p: string): string => path.join(current.path, ...p.split('/'));

  const cache = new Map<string, SyncEntry | undefined>();
  // The planning below runs one step at a time (no two lookups at once), so a plain cache of values does.
  const stored = async (key: string): Promise<SyncEntry | undefined> => {
    if (!cache.has(key)) cache.set(key, await sync.getSyncEntry(folderId, key));
    return cache.get(key);
  };
  const removed = new Set<string>();
  const isRemoved = (key: string): boolean => {
    for (let k = key; ; k = parentOf(k)) {
      if (removed.has(k)) return true;
      if (k === '') return false;
    }
  };
  // What the tree will hold at `key` before this batch's additions: stored and not removed.
  const existing = async (key: string): Promise<SyncEntry | undefined> => (isRemoved(key) ? undefined : stored(key));

  const dirs = new Map<string, DirPlan>();
  const dirPlan = (dirPath: string, reset = false): DirPlan => {
    const key = keyOf(dirPath);
    let plan = dirs.get(key);
    if (!plan) {
      plan = { key, path: dirPath, reset: false, add: new Map(), remove: new Set() };
      dirs.set(key, plan);
    }
    if (reset) {
      plan.reset = true;
      plan.path = dirPath;
    }
    return plan;
  };
  const ensureDir = async (dirPath: string): Promise<void> => {
    if (dirPath === '') return;
    await ensureDir(parentOf(dirPath));
    const key = keyOf(dirPath);
    const planned = dirs.get(key);
    if (planned?.reset) return;
    const entry = await existing(key);
    if (entry?.kind === 'dir') return;
    if (entry) removeEntry(entry);
    dirPlan(dirPath, true);
  };
  const ops: JournalOp[] = [];
  const removeEntry = (entry: SyncEntry): void => {
    dirPlan(parentOf(entry.path)).remove.add(nameOf(entry.path));
    removed.add(entry.pathKey);
    ops.push({ op: 'delete_tree', pathKey: entry.pathKey, path: entry.path, kind: entry.kind });
  };
  const placeFile = async (entry: SyncEntry): Promise<void> => {
    const existingAt = await existing(entry.pathKey);
    if (existingAt && (existingAt.kind === 'dir' || existingAt.path !== entry.path)) removeEntry(existingAt);
    await ensureDir(parentOf(entry.path));
    dirPlan(parentOf(entry.path)).add.set(keyOf(nameOf(entry.path)), { name: nameOf(entry.path), cid: entry.cid });
    ops.push({ op: 'put', ...entry });
  };

  const jobs: ImportJob[] = [];
  for (const change of changes) {
    signal?.throwIfAborted();
    if (change.type === 'remove') {
      const entry = await existing(keyOf(change.path));
      if (entry) removeEntry(entry);
    } else if (change.type === 'add' && change.kind === 'dir') {
      await ensureDir(change.path);
    } else if (change.type === 'move') {
      const source = await stored(keyOf(change.from));
      const now = await lstat(absOf(change.to)).catch(() => undefined);
      if (change.removesSource) {
        const entry = await existing(keyOf(change.from));
        if (entry) removeEntry(entry);
      }
      if (source?.kind === 'file' && now?.isFile() && now.size === source.size && now.mtimeMs === source.mtimeMs) {
        await placeFile({ ...source, pathKey: keyOf(change.to), path: change.to, ino: now.ino });
      } else {
        jobs.push({ key: keyOf(change.to), path: change.to, expected: { size: change.size, mtimeMs: change.mtimeMs, ino: change.ino } });
      }
    } else {
      jobs.push({ key: keyOf(change.path), path: change.path, expected: { size: change.size, mtimeMs: change.mtimeMs, ino: change.ino } });
    }
  }

  // Imports, a few at a time so small files overlap their open/stat latency.
  const unreadable: Unreadable[] = [];
  const deferred: RawEvent[] = [];
  const progress: SyncProgress = {
    state: 'syncing',
    filesDone: 0,
    filesPending: jobs.length,
    bytesDone: 0,
    bytesPending: jobs.reduce((sum, job) => sum + (job.expected.size ?? 0), 0),
    currentFile: '',
    lastError: '',
  };
  const report = (): void => options.onProgress?.({ ...progress });
  report();
  const imported = new Map<ImportJob, SyncEntry>();
  let next = 0;
  let failed = false;
  let largeRunning = 0;
  const largeWaiters: (() => void)[] = [];
  const worker = async (): Promise<void> => {
    while (next < jobs.length && !failed) {
      const job = jobs[next++];
      if (!job) break;
      signal?.throwIfAborted();
      progress.currentFile = job.path;
      report();
      const large = (job.expected.size ?? 0) > READ_CHUNK;
      while (large && largeRunning >= LARGE_CONCURRENCY) await new Promise<void>((resolve) => largeWaiters.push(resolve));
      if (large) largeRunning++;
      const outcome = await importOne(components, absOf(job.path), job, signal, (n) => {
        progress.bytesDone += n;
        progress.bytesPending = Math.max(0, progress.bytesPending - n);
      })
        .catch((error: unknown) => {
          failed = true; // stop the other workers: the batch is abandoned
          throw error;
        })
        .finally(() => {
          if (!large) return;
          largeRunning--;
          largeWaiters.shift()?.();
        });
      progress.filesDone++;
      progress.filesPending--;
      if (outcome.kind === 'ok') imported.set(job, { pathKey: job.key, path: job.path, kind: 'file', ...outcome.stat, cid: outcome.cid });
      else if (outcome.kind === 'unstable') deferred.push({ kind: 'change', path: job.path, at: (components.clock ?? systemClock).nowMs(), ...outcome.stat });
      else if (outcome.kind === 'unreadable') {
        unreadable.push({ path: job.path, reason: outcome.reason });
        progress.lastError = `${job.path}: ${outcome.reason}`;
      }
      report();
    }
  };
  await Promise.all(Array.from({ length: Math.min(IMPORT_CONCURRENCY, jobs.length) }, worker));
  for (const job of jobs) {
    const entry = imported.get(job);
    if (entry) await placeFile(entry);
  }

  // Bottom-up: every planned directory, and every ancestor of one, up to the root.
  for (const plan of [...dirs.values()]) {
    for (let p = plan.path; p !== '';) {
      p = parentOf(p);
      dirPlan(p);
    }
  }
  const order = [...dirs.values()].sort((a, b) => depthOf(b.key) - depthOf(a.key));
  const empty = components.emptyDirectory ?? EMPTY_DIR_CID;
  let newRoot = oldRoot === '' ? empty : oldRoot;
  for (const plan of order) {
    signal?.throwIfAborted();
    const base = plan.reset ? empty : plan.key === '' ? (oldRoot === '' ? empty : oldRoot) : (await existing(plan.key))?.cid;
    if (base === undefined) continue; // under a removed folder: nothing to rebuild
    const op: DirOperation = { add: [...plan.add.values()], remove: [...plan.remove] };
    const cid = op.add.length === 0 && op.remove.length === 0 ? base : await components.applyOperation(base, op, { signal });
    if (plan.key === '') newRoot = cid;
    else {
      dirPlan(parentOf(plan.path)).add.set(keyOf(nameOf(plan.path)), { name: nameOf(plan.path), cid });
      ops.push({ op: 'put', pathKey: plan.key, path: plan.path, kind: 'dir', size: 0, mtimeMs: 0, ino: 0, cid });
    }
  }

  progress.currentFile = '';
  const rootChanged = newRoot !== oldRoot;
  if (ops.length > 0 || rootChanged) {
    signal?.throwIfAborted();
    await sync.writeSyncJournal({ folderId, oldRoot, newRoot, createdAt: unixSeconds(components.clock ?? systemClock), ops });
    await finishJournal(components, folderId);
  }
  progress.state = 'idle';
  report();
  return { root: newRoot, rootChanged, unreadable, deferred };
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

type ImportOutcome =
  | { kind: 'ok'; cid: string; stat: { size: number; mtimeMs: number; ino: number } }
  | { kind: 'unstable'; stat: { size: number; mtimeMs: number; ino: number } }
  | { kind: 'unreadable'; reason: string }
  | { kind: 'gone' };

/**
 * Streams one file into the importer. The file must hold still: its stat before, after, and the
 * one the watcher saw must agree, else it is deferred to a later batch (never half a write).
 */
async function importOne(
  components: ReconcilerComponents,
  abs: string,
  job: ImportJob,
  signal: AbortSignal | undefined,
  onBytes: (n: number) => void,
): Promise<ImportOutcome> {
  let handle;
  try {
    // O_NONBLOCK: a FIFO that replaced the file must not hang the import; regular files ignore it.
    handle = await open(abs, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'gone' };
    return { kind: 'unreadable', reason: describeFsError(error) };
  }
  try {
    // With the whole identity already seen (scan or watcher), one fstat after the read proves the
    // file held still; the one before is only needed when part of it is unknown.
    const { size, mtimeMs, ino } = job.expected;
    let want: { size: number; mtimeMs: number; ino: number };
    if (size !== undefined && mtimeMs !== undefined && ino !== undefined) want = { size, mtimeMs, ino };
    else {
      const before = await handle.stat();
      if (!before.isFile()) return { kind: 'unreadable', reason: 'not a regular file' };
      want = { size: before.size, mtimeMs: before.mtimeMs, ino: before.ino };
      if ((size !== undefined && size !== before.size) || (mtimeMs !== undefined && mtimeMs !== before.mtimeMs)) return { kind: 'unstable', stat: want };
    }
    let readError: unknown;
    // Reads sized to the file (a 1 MiB read buffer per 4 KiB file costs more than the import), and
    // no read past the size seen: a file that grew meanwhile fails the stat comparison below.
    const source = async function* (): AsyncGenerator<Uint8Array> {
      try {
        for (let position = 0; position < want.size;) {
          const length = Math.min(READ_CHUNK, want.size - position);
          const buffer = Buffer.allocUnsafe(length);
          const { bytesRead } = await handle.read(buffer, 0, length, position);
          if (bytesRead === 0) return;
          position += bytesRead;
          onBytes(bytesRead);
          yield buffer.subarray(0, bytesRead);
        }
      } catch (error) {
        readError = error;
        throw error;
      }
    };
    let result;
    try {
      // Each read buffer above is fresh, so a small file goes to the store as read, with no copy; a
      // bigger one is copied into the hash workers' shared memory, to be hashed off the event loop.
      result = await components.importFile(source(), { signal, transfer: want.size < OFFLOAD_MIN_BYTES });
    } catch (error) {
      if (readError === undefined) throw error;
      // A folder or a FIFO in the file's place fails its read.
      const now = await handle.stat().catch(() => undefined);
      if (now !== undefined && !now.isFile()) return { kind: 'unreadable', reason: 'not a regular file' };
      return { kind: 'unreadable', reason: describeFsError(readError) };
    }
    // The inode read, after the read: same identity, size and mtime as seen, so these are its bytes.
    // (Renamed or replaced meanwhile, the watcher reports the path again.)
    const after = await handle.stat();
    if (after.nlink === 0) return { kind: 'gone' };
    const stat = { size: after.size, mtimeMs: after.mtimeMs, ino: after.ino };
    if (!after.isFile()) return { kind: 'unreadable', reason: 'not a regular file' };
    if (!sameStat(after, want) || result.size !== want.size) {
      return { kind: 'unstable', stat };
    }
    return { kind: 'ok', cid: result.cid, stat };
  } finally {
    await handle.close().catch(() => undefined);
  }
}
