import { randomUUID } from 'node:crypto';
import type {
  SyncAddResult,
  SyncConflict,
  SyncDiscardResult,
  SyncFolderDetail,
  SyncFolderView,
  SyncRestoreResult,
  SyncVersion,
  SyncVersionDiff,
  SyncVersionEntry,
} from '../../shared/api-types.js';
import { unixSeconds, systemClock } from '../base/clock.js';
import { BadInputError, ConflictError, NotFoundError } from '../base/errors.js';
import type { ReadBlockstore } from '../content/read/index.js';
import { parseContentPath } from '../names/content-path.js';
import { tryParseIpnsName } from '../names/name-parse.js';
import { conflictOf } from '../names/seen-records.js';
import { UniqueViolation } from '../store/repositories/index.js';
import type { SeenRecordRow } from '../store/repositories/names.js';
import type { SyncFolderRow } from '../store/repositories/sync.js';
import { applyRetention, diffVersions, listVersions, parseVersionsPage, requireVersion, retentionOf, versionDirectory } from './history.js';
import { restoreFromVersion, type RestoreTarget } from './restore.js';
import { checkRestoreTo } from './restore-target.js';
import { publishFolderRoot } from './folder-publish.js';
import { startHistoryBytesWorker } from './history-bytes.js';
import { restoreStamp } from './restore-name.js';
import { readIgnoreFileView } from './ignore-file-view.js';
import { validateIgnorePatterns } from './ignore-rules.js';
import { PENDING_IPNS_NAME, startFolderRunner, type FolderRunner, type RunnerTiming, type SyncDomains } from './runner.js';
import { formatRetention, parseRetention } from './retention.js';
import { checkFolderRoot, detectCaseInsensitive } from './scanner.js';
import { checkApartFromOthers, parseFolderPath } from './folder-path.js';
import { startFollowRunner, type FollowDomains, type FollowRunnerTiming } from './follow/follow-runner.js';
import { addFollowedFolder, discardFollowed, followFields, type FollowInput, type FollowServiceDeps } from './follow/follow-service.js';

/**
 * The sync folders of contract section 9: add, list, pause, resume, rm, and starting every folder
 * again when the service starts; for the window (issue 12) also a folder's detail, rescan, retry and
 * ignore patterns. One {@link FolderRunner} per folder that is not paused by its user. Who may call
 * (the owner's admin keys) is the HTTP layer's check; `accountId` scopes every call.
 */

export type { SyncAddResult } from '../../shared/api-types.js';

/** One row of the sync list: contract fields, then progress details for the CLI and the window. */
export type SyncStatusView = SyncFolderView;

export interface SyncAddInput {
  path: unknown;
  ipns?: unknown;
  ignore?: unknown;
  /** The retention policy's text (`all`, `none` or tiers); absent: the default. */
  keep?: unknown;
  /**
   * An IPNS name of the account's to publish the folder to (say, a key imported on two machines), instead of a
   * new one; not with `ipns: false`, nor a name another sync folder publishes.
   */
  ipns_name?: unknown;
}

export interface SyncAddOptions {
  /** false: answer once the folder is stored and its first scan started, not once it is pinned. Default true. */
  wait?: boolean;
}

export interface SyncService {
  add(accountId: number, input: SyncAddInput, options?: SyncAddOptions): Promise<SyncAddResult>;
  list(accountId: number): Promise<SyncStatusView[]>;
  /** One of the account's folders as the list shows it; undefined when it has no such folder. */
  status(accountId: number, id: string): Promise<SyncStatusView | undefined>;
  /** The row, `.pinfoldignore`, the last settled batches and recent errors. */
  detail(accountId: number, id: unknown): Promise<SyncFolderDetail>;
  pause(accountId: number, id: unknown): Promise<void>;
  resume(accountId: number, id: unknown): Promise<void>;
  remove(accountId: number, id: unknown): Promise<void>;
  /** A full rescan now; 409 while paused by the user. */
  rescan(accountId: number, id: unknown): Promise<void>;
  /** A folder in error (or paused because its root vanished) tries again now; 409 for any other. */
  retry(accountId: number, id: unknown): Promise<void>;
  /**
   * Replaces the folder's own ignore patterns (checked as at add) and applies them at once: the folder is
   * scanned again with them, so newly ignored files leave the root and un-ignored ones join it, in one batch.
   */
  setIgnore(accountId: number, id: unknown, ignore: unknown): Promise<void>;
  /** The folder's kept versions, newest first (`limit`/`start` as the query gives them). */
  versions(accountId: number, id: unknown, limit: unknown, start: unknown): Promise<{ versions: SyncVersion[]; total: number }>;
  /** What changed between two kept versions of the folder. */
  diff(accountId: number, id: unknown, from: unknown, to: unknown): Promise<SyncVersionDiff>;
  /** One directory of a kept version (`path` [] for the folder itself): its entries and their kinds. */
  tree(accountId: number, id: unknown, root: unknown, path: readonly string[]): Promise<{ entries: SyncVersionEntry[]; truncated: boolean }>;
  /**
   * Writes a file or folder of a kept version back to the synced folder (where the watcher syncs it like any
   * change) or into `to`; never over different local content unless `overwrite` (see restore.ts).
   */
  restore(accountId: number, id: unknown, root: unknown, params: RestoreTarget): Promise<SyncRestoreResult>;
  /**
   * Publishes the folder's current version to its name now (`force`: over a newer record of the name seen
   * elsewhere, with a sequence above it); answers the folder as listed. Without `force`, a conflict is a 409.
   */
  publish(accountId: number, id: unknown, force: unknown): Promise<SyncStatusView>;
  /**
   * Follows an IPNS name held elsewhere into a folder (contract section 11): answers the folder as listed at
   * once, its first copy running in the background.
   */
  follow(accountId: number, input: FollowInput): Promise<SyncStatusView>;
  /** A followed folder's local changes replaced by the version it holds (moved to the trash); 409 for a sync folder. */
  discard(accountId: number, id: unknown): Promise<SyncDiscardResult>;
  /** Sets the folder's retention policy (its text form) and applies it at once; answers the policy as text. */
  setRetention(accountId: number, id: unknown, keep: unknown): Promise<string>;
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
  follow?: { domains: FollowDomains; timing?: FollowRunnerTiming };
}

const RETENTION_SWEEP_MS = 15 * 60 * 1000;

function parseId(value: unknown): string {
  if (value === undefined || value === null || value === '') throw new BadInputError('id is required');
  if (typeof value !== 'string' || value.length > 64) throw new BadInputError('id must be a sync folder id');
  return value;
}

function parseIpns(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value !== 'boolean') throw new BadInputError('ipns must be true or false');
  return value;
}

/** `force` of sync/publish: absent or `false`, or `true`. */
function parseForce(value: unknown): boolean {
  if (value === undefined || value === '' || value === 'false' || value === false) return false;
  if (value === 'true' || value === true) return true;
  throw new BadInputError('force must be true or false');
}

interface NameFacts {
  public: boolean;
  conflict: SyncConflict | null;
}

/** The API's view of a record seen elsewhere: a plain `/ipfs/<cid>` value as its CID, as a folder's root reads. */
function conflictView(seen: SeenRecordRow): SyncConflict {
  const target = parseContentPath(seen.value);
  const value = target?.namespace === 'ipfs' && target.rest === '' ? target.cid.toString() : seen.value;
  return { seq: seen.seq, value, seen_at: seen.seenAt, source: seen.source };
}

export function createSyncService(init: SyncServiceInit): SyncService {
  const { domains } = init;
  const { store } = domains;
  const clock = domains.clock ?? systemClock;
  const runners = new Map<string, FolderRunner>();
  let closed = false;

  const historyBytes = startHistoryBytesWorker({
    store,
    blocks: init.blocks,
    onRecorded: (accountId, id) => domains.events?.syncChanged(accountId, id),
    onError: (id, error) => domains.logger.error('sync history bytes failed', { folder: id, error }),
  });
  // A runner's notices (a batch settled among them) also ask for the history bytes of its new versions.
  const runnerDomains: SyncDomains = {
    ...domains,
    events: {
      syncChanged(accountId, id, removed) {
        domains.events?.syncChanged(accountId, id, removed);
        if (removed !== true) historyBytes.request(accountId, id);
      },
    },
  };

  const follow = init.follow;
  const followDeps = (): FollowServiceDeps => {
    if (!follow) throw new ConflictError('following a folder is not available in this service');
    const { domains: fd } = follow;
    return { store, blocks: init.blocks, clock, writeLock: fd.writeLock, ...(fd.trash ? { trash: fd.trash } : {}) };
  };
  // Synchronous from the row to the map: a runner is in `runners` as soon as it exists.
  const start = (folder: SyncFolderRow): FolderRunner | undefined => {
    let runner: FolderRunner;
    if (folder.mode === 'follow') {
      if (!follow) return undefined;
      runner = startFollowRunner({ domains: { ...follow.domains, events: runnerDomains.events }, folder, ...(follow.timing ? { timing: follow.timing } : {}) });
    } else {
      runner = startFolderRunner({ ...init.timing, domains: runnerDomains, folder });
    }
    runners.set(folder.id, runner);
    return runner;
  };
  const stop = async (id: string): Promise<void> => {
    const runner = runners.get(id);
    runners.delete(id);
    await runner?.stop();
  };
  const owned = async (accountId: number, id: unknown): Promise<SyncFolderRow> => {
    const key = parseId(id);
    const row = await store.sync.getSyncFolder(key);
    if (!row || row.accountId !== accountId) throw new NotFoundError(`id: sync folder ${key} not found`);
    return row;
  };
  /** `ipns_name` of sync/add: one of the account's names that no other sync folder publishes; null when absent. */
  const parseFolderName = async (accountId: number, value: unknown, ipns: boolean): Promise<string | null> => {
    if (value === undefined || value === null || value === '') return null;
    const parsed = typeof value === 'string' ? tryParseIpnsName(value.trim()) : undefined;
    if (parsed === undefined) throw new BadInputError('ipns_name must be an IPNS name (k51…)');
    if (!ipns) throw new BadInputError('ipns_name cannot be given with ipns: false');
    const name = await store.names.nameByName(parsed.name);
    if (name === null || name.accountId !== accountId) throw new NotFoundError(`ipns_name: name ${parsed.name} not found`);
    for (const other of await store.sync.listSyncFolders()) {
      if (other.ipnsName === parsed.name) throw new ConflictError(`ipns_name: ${parsed.name} is published by the sync folder ${other.path} (id ${other.id})`);
    }
    return parsed.name;
  };
  const checkOpen = (): void => {
    if (closed) throw new ConflictError('the service is shutting down');
  };
  const historyBytesOf = async (id: string): Promise<number> => (await store.sync.folderHistoryBytes([id])).get(id) ?? 0;
  /**
   * What the folder shows of its name: public or not (`name/public`: the mark lives on the name, not the folder),
   * and a newer record of it seen elsewhere (contract section 11).
   */
  const nameFacts = async (row: SyncFolderRow): Promise<NameFacts> => {
    const name = row.ipnsName === '' || row.ipnsName === PENDING_IPNS_NAME ? null : await store.names.nameByName(row.ipnsName);
    if (name === null) return { public: false, conflict: null };
    const seen = await conflictOf(store, name);
    return { public: name.public, conflict: seen === null ? null : conflictView(seen) };
  };
  const view = (row: SyncFolderRow, historyBytes: number, name: NameFacts): SyncStatusView => {
    const live = runners.get(row.id)?.status();
    return {
      id: row.id,
      path: row.path,
      root: row.rootCid,
      ipns_name: row.mode === 'follow' ? row.followName : row.ipnsName === PENDING_IPNS_NAME ? '' : row.ipnsName,
      state: live?.state ?? row.state,
      files: row.files,
      bytes: row.bytes,
      pending: live?.pending ?? 0,
      last_synced_at: row.lastSyncedAt,
      error: live ? live.error : row.error,
      current_file: live?.currentFile ?? '',
      files_done: live?.filesDone ?? 0,
      bytes_done: live?.bytesDone ?? 0,
      bytes_pending: live?.bytesPending ?? 0,
      unreadable: live?.unreadable ?? [],
      ignore: row.ignorePatterns,
      created_at: row.createdAt,
      public: name.public,
      history_bytes: historyBytes,
      conflict: name.conflict,
      ...followFields(row),
    };
  };
  const changed = (accountId: number, id: string, removed?: boolean): void => domains.events?.syncChanged(accountId, id, removed);
  let retentionTimer: ReturnType<typeof setInterval> | undefined;
  /** Releases what each folder's policy no longer keeps; the next GC frees what only they held. */
  const sweepRetention = async (): Promise<void> => {
    for (const row of await store.sync.listSyncFolders()) {
      try {
        if ((await applyRetention(store, row, unixSeconds(clock))) > 0) historyBytes.request(row.accountId, row.id);
      } catch (error) {
        domains.logger.error('sync retention failed', { folder: row.id, error });
      }
    }
  };

  return {
    async add(accountId, input, options = {}) {
      checkOpen();
      const ipns = parseIpns(input.ipns);
      const givenName = await parseFolderName(accountId, input.ipns_name, ipns);
      const ignore = validateIgnorePatterns(input.ignore);
      // The history kept (`keep`, optional): checked with the rest, before anything is stored.
      const keep = input.keep === undefined || input.keep === null ? null : formatRetention(parseRetention(typeof input.keep === 'string' ? input.keep : ''));
      const folderPath = await parseFolderPath(input.path);
      checkApartFromOthers(folderPath, await store.sync.listSyncFolders());
      const root = await checkFolderRoot(folderPath, '');
      if (!root.ok) throw new BadInputError(`path: ${root.reason}`);
      const caseInsensitive = await detectCaseInsensitive(folderPath);
      const id = randomUUID();
      let added: SyncFolderRow;
      try {
        // The row, its device and its retention land together (they were three writes with nothing between).
        added = await store.transaction(async (tx) => {
          const row = await tx.sync.insertSyncFolder({
            id,
            accountId,
            path: folderPath,
            ipnsName: givenName ?? (ipns ? PENDING_IPNS_NAME : ''),
            caseInsensitive,
            ignorePatterns: ignore,
            createdAt: unixSeconds(clock),
          });
          await tx.sync.setSyncFolderDevice(id, root.deviceId);
          if (keep !== null) await tx.sync.setSyncRetention(id, keep);
          return row;
        });
      } catch (error) {
        if (error instanceof UniqueViolation) throw new ConflictError(`path: ${folderPath} is already synced`);
        throw error;
      }
      changed(accountId, id);
      const runner = start(added);
      if (!runner) throw new Error('a sync folder has a runner');
      // The window follows the first scan through the event stream; a failure then leaves the folder in
      // error, retried, rather than undoing an add whose id the caller already has.
      if (options.wait === false) return { id, path: folderPath, root: '', ipns_name: '', state: runner.status().state };
      try {
        await runner.firstSync;
      } catch (error) {
        // Paused or removed meanwhile by another call: that call decided the folder's fate.
        if (runners.get(id) !== runner) throw new ConflictError(`path: sync of ${folderPath} was paused or removed before its first scan was pinned`);
        await stop(id);
        await store.sync.deleteSyncFolder(id);
        changed(accountId, id, true);
        throw error;
      }
      const row = await store.sync.getSyncFolder(id);
      if (!row) throw new ConflictError(`path: sync of ${folderPath} was removed before its first scan was pinned`);
      return { id, path: row.path, root: row.rootCid, ipns_name: row.ipnsName === PENDING_IPNS_NAME ? '' : row.ipnsName };
    },

    async list(accountId) {
      const rows = await store.sync.listSyncFolders(accountId);
      const historyBytes = await store.sync.folderHistoryBytes(rows.map((row) => row.id));
      return Promise.all(rows.map(async (row) => view(row, historyBytes.get(row.id) ?? 0, await nameFacts(row))));
    },

    async status(accountId, id) {
      const row = await store.sync.getSyncFolder(id);
      return row && row.accountId === accountId ? view(row, await historyBytesOf(row.id), await nameFacts(row)) : undefined;
    },

    async detail(accountId, id) {
      const row = await owned(accountId, id);
      const ignoreFile = await readIgnoreFileView(row.path);
      const errors = runners.get(row.id)?.status().errors ?? [];
      return {
        ...view(row, await historyBytesOf(row.id), await nameFacts(row)),
        pinfoldignore: ignoreFile.text,
        pinfoldignore_truncated: ignoreFile.truncated,
        batches: (await store.sync.recentSyncBatches(row.id)).map((batch) => ({
          root: batch.root,
          finished_at: batch.finishedAt,
          added: batch.added,
          modified: batch.modified,
          removed: batch.removed,
          bytes: batch.bytes,
        })),
        errors: [...errors].reverse(),
        retention: formatRetention(retentionOf(row)),
      };
    },

    async rescan(accountId, id) {
      checkOpen();
      const row = await owned(accountId, id);
      const runner = runners.get(row.id);
      if (row.userPaused || !runner) throw new ConflictError(`id: sync folder ${row.id} is paused; resume it to rescan`);
      runner.rescan();
    },

    async retry(accountId, id) {
      checkOpen();
      const row = await owned(accountId, id);
      const runner = runners.get(row.id);
      if (row.userPaused || !runner) throw new ConflictError(`id: sync folder ${row.id} is paused; resume it instead`);
      const state = runner.status().state;
      if (state !== 'error' && state !== 'paused') throw new ConflictError(`id: sync folder ${row.id} is ${state}, not in error: nothing to retry`);
      runner.retry();
    },

    async setIgnore(accountId, id, ignore) {
      checkOpen();
      const row = await owned(accountId, id);
      if (ignore === undefined || ignore === null) throw new BadInputError('ignore is required (an array of gitignore patterns; [] for none)');
      const patterns = validateIgnorePatterns(ignore);
      await store.sync.setSyncFolderIgnore(row.id, patterns);
      changed(accountId, row.id);
      // A folder paused by its user takes them up when resumed; a running one boots again with them now.
      if (row.userPaused || !runners.has(row.id)) return;
      await stop(row.id);
      start({ ...row, ignorePatterns: patterns });
    },

    async pause(accountId, id) {
      checkOpen();
      const row = await owned(accountId, id);
      await store.sync.setSyncFolderUserPaused(row.id, true);
      await stop(row.id);
      await store.sync.setSyncFolderState(row.id, 'paused', '');
      changed(accountId, row.id);
    },

    async resume(accountId, id) {
      checkOpen();
      const row = await owned(accountId, id);
      await store.sync.setSyncFolderUserPaused(row.id, false);
      await stop(row.id);
      start(row);
    },

    async remove(accountId, id) {
      checkOpen();
      const row = await owned(accountId, id);
      await stop(row.id);
      await store.sync.deleteSyncFolder(row.id);
      changed(accountId, row.id, true);
    },

    async versions(accountId, id, limit, start) {
      const row = await owned(accountId, id);
      return listVersions(store, row.id, parseVersionsPage(limit, start));
    },

    async diff(accountId, id, from, to) {
      const row = await owned(accountId, id);
      return diffVersions(store, init.blocks, row.id, from, to);
    },

    async tree(accountId, id, root, dirPath) {
      const row = await owned(accountId, id);
      return versionDirectory(store, init.blocks, row.id, root, dirPath);
    },

    async restore(accountId, id, root, params) {
      checkOpen();
      const row = await owned(accountId, id);
      const version = await requireVersion(store, row.id, root, 'root');
      const stamp = restoreStamp(version.createdAt, -new Date(version.createdAt * 1000).getTimezoneOffset());
      // Into the folder, the entry goes back where it was; into `to`, it goes in under its own name.
      const placeAt = params.to === undefined ? params.path : params.path.slice(-1);
      const { to } = params;
      const confirmTo = to === undefined ? undefined : () => checkRestoreTo(to, row.path);
      await confirmTo?.();
      return restoreFromVersion(init.blocks, {
        root: version.root,
        path: params.path,
        base: to ?? row.path,
        placeAt,
        overwrite: params.overwrite,
        stamp,
        ...(confirmTo === undefined ? {} : { confirmBase: confirmTo }),
      });
    },

    async publish(accountId, id, force) {
      checkOpen();
      const row = await owned(accountId, id);
      if (row.mode === 'follow') throw new ConflictError(`id: sync folder ${row.id} follows ${row.followName}: a followed folder is never published`);
      const over = parseForce(force);
      const runner = runners.get(row.id);
      const outcome = runner ? await runner.publishNow(over) : await publishFolderRoot(domains, row.id, over);
      const now = await owned(accountId, row.id);
      const shown = view(now, await historyBytesOf(now.id), await nameFacts(now));
      if (outcome === 'conflict') {
        const seen = shown.conflict;
        throw new ConflictError(
          `id: a newer record of ${now.ipnsName} was seen elsewhere${seen ? ` (sequence ${seen.seq}, ${seen.source})` : ''}; publish with force=true to publish this folder's version over it`,
        );
      }
      if (!runner) changed(accountId, row.id);
      return shown;
    },

    async follow(accountId, input) {
      checkOpen();
      const row = await addFollowedFolder(followDeps(), accountId, input);
      changed(accountId, row.id);
      start(row);
      return view(row, 0, { public: false, conflict: null });
    },

    async discard(accountId, id) {
      checkOpen();
      const row = await owned(accountId, id);
      const result = await discardFollowed(followDeps(), row);
      changed(accountId, row.id);
      return result;
    },

    async setRetention(accountId, id, keep) {
      checkOpen();
      const row = await owned(accountId, id);
      if (typeof keep !== 'string') throw new BadInputError('keep is required: all, none or tiers like 24h:all,30d:1d,1y:1w');
      const text = formatRetention(parseRetention(keep));
      await store.sync.setSyncRetention(row.id, text);
      await applyRetention(store, { id: row.id, retention: text }, unixSeconds(clock));
      changed(accountId, row.id);
      historyBytes.request(accountId, row.id);
      return text;
    },

    async startAll() {
      await sweepRetention();
      retentionTimer ??= setInterval(() => {
        sweepRetention().catch((error: unknown) => domains.logger.error('sync retention failed', { error }));
      }, init.retentionSweepMs ?? RETENTION_SWEEP_MS);
      retentionTimer.unref();
      for (const row of await store.sync.listSyncFolders()) {
        if (runners.has(row.id)) continue;
        if (row.userPaused) await store.sync.setSyncFolderState(row.id, 'paused', '');
        else start(row);
        // Versions from before the last stop (or from before history bytes were counted) are counted now.
        historyBytes.request(row.accountId, row.id);
      }
    },

    async close() {
      closed = true;
      if (retentionTimer !== undefined) clearInterval(retentionTimer);
      const all = [...runners.keys()];
      await Promise.all(all.map((id) => stop(id)));
      await historyBytes.close();
    },
  };
}
