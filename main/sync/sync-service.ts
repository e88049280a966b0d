import type { CID } from 'multiformats/cid';
import type {
  SyncAddResult,
  SyncDiscardResult,
  SyncFolderDetail,
  SyncFolderView,
  SyncRestoreResult,
  SyncVersion,
  SyncVersionDiff,
  SyncVersionEntry,
} from '../../shared/api-types.js';
import { systemClock } from '../base/clock.js';
import type { ReadBlockstore } from '../content/read/index.js';
import { addFolder, type SyncAddInput, type SyncAddOptions } from './folder-add.js';
import { nudgeFolder, pauseFolder, removeFolder, resumeFolder, setFolderIgnore } from './folder-controls.js';
import { discardFolderChanges, followFolder } from './folder-follow.js';
import { publishFolderNow } from './folder-publish-now.js';
import { folderDetail, folderStatus, listFolders } from './folder-queries.js';
import { restoreFolderVersion } from './folder-restore.js';
import { RETENTION_SWEEP_MS, RetentionSweep, setFolderRetention } from './folder-retention.js';
import { FolderRunners, withHistoryBytesRequests, type FollowSetup } from './folder-runners.js';
import type { FollowInput } from './follow/follow-service.js';
import { startHistoryBytesWorker } from './history-bytes.js';
import { folderDiff, folderTree, folderVersions } from './history-queries.js';
import type { RestoreTarget } from './restore.js';
import type { RetentionPolicy } from './retention.js';
import type { RunnerTiming, SyncDomains } from './runner.js';
import type { SyncContext } from './sync-context.js';

/**
 * The sync folders of contract section 9: add, list, pause, resume, rm, and starting every folder
 * again when the service starts; for the window (issue 12) also a folder's detail, rescan, retry and
 * ignore patterns; a folder's history (issue "every version of a synced folder") and followed folders
 * (contract section 11). One {@link FolderRunner} per folder that is not paused by its user. Who may call
 * (the owner's admin keys) and the shapes of a request are the HTTP layer's (its request schemas, http/input/): every
 * call takes typed values. `accountId` scopes every call. Each call is a unit of its own (folder-add.ts,
 * folder-controls.ts, folder-queries.ts, …); this file wires them.
 */

export type { SyncAddResult } from '../../shared/api-types.js';
export type { SyncAddInput, SyncAddOptions } from './folder-add.js';
export type { FollowInput as SyncFollowInput } from './follow/follow-service.js';

/** One row of the sync list: contract fields, then progress details for the CLI and the window. */
export type SyncStatusView = SyncFolderView;

export interface SyncService {
  add(accountId: number, input: SyncAddInput, options?: SyncAddOptions): Promise<SyncAddResult>;
  list(accountId: number): Promise<SyncStatusView[]>;
  /** One of the account's folders as the list shows it; undefined when it has no such folder. */
  status(accountId: number, id: string): Promise<SyncStatusView | undefined>;
  /** The row, `.pinfoldignore`, the last settled batches and recent errors. */
  detail(accountId: number, id: string): Promise<SyncFolderDetail>;
  pause(accountId: number, id: string): Promise<void>;
  resume(accountId: number, id: string): Promise<void>;
  remove(accountId: number, id: string): Promise<void>;
  /** A full rescan now; 409 while paused by the user. */
  rescan(accountId: number, id: string): Promise<void>;
  /** A folder in error (or paused because its root vanished) tries again now; 409 for any other. */
  retry(accountId: number, id: string): Promise<void>;
  /**
   * Replaces the folder's own ignore patterns and applies them at once: the folder is scanned again with
   * them, so newly ignored files leave the root and un-ignored ones join it, in one batch.
   */
  setIgnore(accountId: number, id: string, ignore: readonly string[]): Promise<void>;
  /** The folder's kept versions, newest first. */
  versions(accountId: number, id: string, page: { limit: number; start: number }): Promise<{ versions: SyncVersion[]; total: number }>;
  /** What changed between two kept versions of the folder. */
  diff(accountId: number, id: string, from: CID, to: CID): Promise<SyncVersionDiff>;
  /** One directory of a kept version (`path` [] for the folder itself): its entries and their kinds. */
  tree(accountId: number, id: string, root: CID, path: readonly string[]): Promise<{ entries: SyncVersionEntry[]; truncated: boolean }>;
  /**
   * Writes a file or folder of a kept version back to the synced folder (where the watcher syncs it like any
   * change) or into `to`; never over different local content unless `overwrite` (see restore.ts).
   */
  restore(accountId: number, id: string, root: CID, target: RestoreTarget): Promise<SyncRestoreResult>;
  /**
   * Publishes the folder's current version to its name now (`force`: over a newer record of the name seen
   * elsewhere, with a sequence above it); answers the folder as listed. Without `force`, a conflict is a 409.
   */
  publish(accountId: number, id: string, force: boolean): Promise<SyncStatusView>;
  /**
   * Follows an IPNS name held elsewhere into a folder (contract section 11): answers the folder as listed at
   * once, its first copy running in the background.
   */
  follow(accountId: number, input: FollowInput): Promise<SyncStatusView>;
  /** A followed folder's local changes replaced by the version it holds (moved to the trash); 409 for a sync folder. */
  discard(accountId: number, id: string): Promise<SyncDiscardResult>;
  /** Sets the folder's retention policy and applies it at once; answers the policy as text. */
  setRetention(accountId: number, id: string, keep: RetentionPolicy): Promise<string>;
  /** Starts every folder not paused by its user (service start), and the retention sweep. */
  startAll(): Promise<void>;
  close(): Promise<void>;
}

export interface SyncServiceInit {
  domains: SyncDomains;
  timing?: RunnerTiming;
  /** Where versions are read for a diff or a restore. */
  blocks: ReadBlockstore;
  /** How often every folder's retention is applied (default 15 minutes; a new version is kept a day anyway). */
  retentionSweepMs?: number;
  /** What followed folders need (the network, the names, the pins); absent, following is refused (409). */
  follow?: FollowSetup;
}

/** The one context every call works with: the history bytes worker, the runners (their notices ask it for bytes). */
function createSyncContext(init: SyncServiceInit): SyncContext {
  const { domains } = init;
  const historyBytes = startHistoryBytesWorker({
    store: domains.store,
    blocks: init.blocks,
    onRecorded: (accountId, id) => domains.events?.syncChanged(accountId, id),
    onError: (id, error) => domains.logger.error('sync history bytes failed', { folder: id, error }),
  });
  const runners = new FolderRunners({
    domains: withHistoryBytesRequests(domains, historyBytes),
    ...(init.timing ? { timing: init.timing } : {}),
    ...(init.follow ? { follow: init.follow } : {}),
  });
  const clock = domains.clock ?? systemClock;
  return { domains, store: domains.store, clock, blocks: init.blocks, runners, historyBytes, follow: init.follow, closing: { closed: false } };
}

/** Starts every folder not paused by its user (a paused one shows so), and counts what its history holds. */
async function startFolders(ctx: SyncContext): Promise<void> {
  for (const row of await ctx.store.sync.listSyncFolders()) {
    if (ctx.runners.has(row.id)) continue;
    if (row.userPaused) await ctx.store.sync.setSyncFolderState(row.id, 'paused', '');
    else ctx.runners.start(row);
    // Versions from before the last stop (or from before history bytes were counted) are counted now.
    ctx.historyBytes.request(row.accountId, row.id);
  }
}

export function createSyncService(init: SyncServiceInit): SyncService {
  const ctx = createSyncContext(init);
  const sweep = new RetentionSweep(ctx, init.retentionSweepMs ?? RETENTION_SWEEP_MS);
  return {
    add: (accountId, input, options) => addFolder(ctx, accountId, input, options),
    list: (accountId) => listFolders(ctx, accountId),
    status: (accountId, id) => folderStatus(ctx, accountId, id),
    detail: (accountId, id) => folderDetail(ctx, accountId, id),
    pause: (accountId, id) => pauseFolder(ctx, accountId, id),
    resume: (accountId, id) => resumeFolder(ctx, accountId, id),
    remove: (accountId, id) => removeFolder(ctx, accountId, id),
    rescan: (accountId, id) => nudgeFolder(ctx, accountId, id, 'rescan'),
    retry: (accountId, id) => nudgeFolder(ctx, accountId, id, 'retry'),
    setIgnore: (accountId, id, ignore) => setFolderIgnore(ctx, accountId, id, ignore),
    versions: (accountId, id, page) => folderVersions(ctx, accountId, id, page),
    diff: (accountId, id, from, to) => folderDiff(ctx, accountId, id, from, to),
    tree: (accountId, id, root, dirPath) => folderTree(ctx, accountId, id, root, dirPath),
    restore: (accountId, id, root, target) => restoreFolderVersion(ctx, accountId, id, root, target),
    publish: (accountId, id, force) => publishFolderNow(ctx, accountId, id, force),
    follow: (accountId, input) => followFolder(ctx, accountId, input),
    discard: (accountId, id) => discardFolderChanges(ctx, accountId, id),
    setRetention: (accountId, id, keep) => setFolderRetention(ctx, accountId, id, keep),
    async startAll() {
      await sweep.start();
      await startFolders(ctx);
    },
    async close() {
      ctx.closing.closed = true;
      sweep.stop();
      await ctx.runners.stopAll();
      await ctx.historyBytes.close();
    },
  };
}
