import { is } from 'valibot';
import type {
  SyncAddResult,
  SyncDiscardResult,
  SyncFollowRequest,
  SyncFolderDetail,
  SyncFolderView,
  SyncRestoreResult,
  SyncRetention,
  SyncState,
  SyncVersion,
  SyncVersionDiff,
  SyncVersionDirectory,
} from '../../shared/api-types.js';
import {
  SyncAddResultSchema,
  SyncDiscardResultSchema,
  SyncFolderDetailSchema,
  SyncFolderViewSchema,
  SyncRetentionSchema,
  SyncStateSchema,
} from '../../shared/schemas/sync-folders.js';
import { SyncRestoreResultSchema, SyncVersionDiffSchema, SyncVersionDirectorySchema, SyncVersionSchema } from '../../shared/schemas/sync-versions.js';
import type { ApiCore, ListPage } from './core.js';

export interface SyncFolderAdd {
  /** An absolute folder path on the service's machine (the desktop bridge supplies it). */
  path: string;
  ipns?: boolean;
  ignore?: string[];
}

/** What `POST /api/v0/sync/restore` writes: a path of the version ('' for the whole folder) and where. */
export interface SyncRestoreRequest {
  /** The version's root. */
  root: string;
  /** `/`-separated, relative to the folder; '' is the whole folder. */
  path: string;
  /** An absolute local folder to restore into instead of the synced folder (the entry goes in under its own name). */
  to?: string;
  /** Replace different local content instead of writing the version's copy beside it. */
  overwrite?: boolean;
}

export type { SyncVersionDirectory };

/** Sync folders: the owner account's admin keys only (others get 403). */
export interface SyncApi {
  /** GET /api/v0/sync. */
  list(signal?: AbortSignal): Promise<ListPage<SyncFolderView>>;
  /** GET /api/v0/sync/detail?id=: the row, `.pinfoldignore`, recent batches and errors. */
  detail(id: string, signal?: AbortSignal): Promise<SyncFolderDetail>;
  /**
   * POST /api/v0/sync/add. With `wait: false` it answers at once while the first scan runs (root and
   * IPNS name still ''); by default once the first full scan is pinned.
   */
  add(folder: SyncFolderAdd, options?: { wait?: boolean }, signal?: AbortSignal): Promise<SyncAddResult>;
  pause(id: string, signal?: AbortSignal): Promise<void>;
  resume(id: string, signal?: AbortSignal): Promise<void>;
  /** POST /api/v0/sync/follow: mirrors an IPNS name held elsewhere into a folder (answers the folder's row at once). */
  follow(request: SyncFollowRequest, signal?: AbortSignal): Promise<SyncFolderView>;
  /** POST /api/v0/sync/discard: a followed folder's local changes replaced by the version it holds (moved to the trash). */
  discard(id: string, signal?: AbortSignal): Promise<SyncDiscardResult>;
  /** POST /api/v0/sync/publish: a sync folder publishes its current version; `force` over a conflict. */
  publish(id: string, options?: { force?: boolean }, signal?: AbortSignal): Promise<void>;
  /** POST /api/v0/sync/rm: stops syncing; unpins nothing. */
  remove(id: string, signal?: AbortSignal): Promise<void>;
  /** POST /api/v0/sync/rescan: a full rescan now. */
  rescan(id: string, signal?: AbortSignal): Promise<void>;
  /** POST /api/v0/sync/retry: an errored folder tries again now. */
  retry(id: string, signal?: AbortSignal): Promise<void>;
  /** POST /api/v0/sync/ignore: replaces the folder's own patterns, applied at once (one batch). */
  setIgnore(id: string, ignore: string[], signal?: AbortSignal): Promise<void>;
  /** GET /api/v0/sync/versions: the kept versions, newest first (the first is the current root). */
  versions(id: string, page: { limit?: number; start?: number }, signal?: AbortSignal): Promise<ListPage<SyncVersion>>;
  /** GET /api/v0/sync/diff: what changed from version `from` to version `to`. */
  diff(id: string, from: string, to: string, signal?: AbortSignal): Promise<SyncVersionDiff>;
  /** GET /api/v0/sync/tree: one directory of a version ('' for the folder itself). */
  tree(id: string, root: string, path: string, signal?: AbortSignal): Promise<SyncVersionDirectory>;
  /** POST /api/v0/sync/restore: a file, a directory or the whole folder of a version back on disk. */
  restore(id: string, request: SyncRestoreRequest, signal?: AbortSignal): Promise<SyncRestoreResult>;
  /** POST /api/v0/sync/retention: `all`, `none` or tiers (`24h:all,30d:1d,1y:1w`); answers the policy as the service wrote it. */
  setRetention(id: string, keep: string, signal?: AbortSignal): Promise<string>;
}

export function syncApi(core: ApiCore): SyncApi {
  const folderAction = (action: 'pause' | 'resume' | 'rm' | 'rescan' | 'retry') => (id: string, signal?: AbortSignal) =>
    core.empty({ method: 'POST', path: `/api/v0/sync/${action}`, signal, query: { id } });
  return {
    list: (signal) => core.list({ path: '/api/v0/sync', signal }, isSyncFolderView, 'the sync folders'),
    detail: (id, signal) => core.data({ path: '/api/v0/sync/detail', signal, query: { id } }, isSyncFolderDetail, 'the sync folder'),
    add: (folder, options = {}, signal) =>
      core.data({ method: 'POST', path: '/api/v0/sync/add', signal, body: folder, query: { wait: options.wait } }, isSyncAddResult, 'the new sync folder'),
    follow: (request, signal) => core.data({ method: 'POST', path: '/api/v0/sync/follow', signal, body: request }, isSyncFolderView, 'the followed folder'),
    discard: (id, signal) => core.data({ method: 'POST', path: '/api/v0/sync/discard', signal, query: { id } }, isSyncDiscardResult, 'what the discard wrote'),
    publish: (id, options = {}, signal) =>
      core.empty({ method: 'POST', path: '/api/v0/sync/publish', signal, query: { id, force: options.force === true ? true : undefined } }),
    pause: folderAction('pause'),
    resume: folderAction('resume'),
    remove: folderAction('rm'),
    rescan: folderAction('rescan'),
    retry: folderAction('retry'),
    setIgnore: (id, ignore, signal) => core.empty({ method: 'POST', path: '/api/v0/sync/ignore', signal, query: { id }, body: { ignore } }),
    versions: (id, page, signal) =>
      core.list({ path: '/api/v0/sync/versions', signal, query: { id, limit: page.limit, start: page.start } }, isSyncVersion, 'the versions'),
    diff: (id, from, to, signal) =>
      core.data({ path: '/api/v0/sync/diff', signal, query: { id, from, to } }, isSyncVersionDiff, 'the difference between the versions'),
    tree: (id, root, path, signal) =>
      core.data({ path: '/api/v0/sync/tree', signal, query: { id, root, path } }, isSyncVersionDirectory, 'the folder of the version'),
    restore: (id, request, signal) =>
      core.data(
        {
          method: 'POST',
          path: '/api/v0/sync/restore',
          signal,
          query: { id, root: request.root, path: request.path, to: request.to, overwrite: request.overwrite === true ? true : undefined },
        },
        isSyncRestoreResult,
        'what the restore wrote',
      ),
    setRetention: async (id, keep, signal) =>
      (await core.data({ method: 'POST', path: '/api/v0/sync/retention', signal, query: { id }, body: { keep } }, isRetentionAnswer, 'the retention policy'))
        .keep,
  };
}

export const isSyncState = (value: unknown): value is SyncState => is(SyncStateSchema, value);
export const isSyncFolderView = (value: unknown): value is SyncFolderView => is(SyncFolderViewSchema, value);
export const isSyncFolderDetail = (value: unknown): value is SyncFolderDetail => is(SyncFolderDetailSchema, value);
export const isSyncAddResult = (value: unknown): value is SyncAddResult => is(SyncAddResultSchema, value);
export const isSyncVersion = (value: unknown): value is SyncVersion => is(SyncVersionSchema, value);
export const isSyncVersionDiff = (value: unknown): value is SyncVersionDiff => is(SyncVersionDiffSchema, value);
export const isSyncVersionDirectory = (value: unknown): value is SyncVersionDirectory => is(SyncVersionDirectorySchema, value);
export const isSyncRestoreResult = (value: unknown): value is SyncRestoreResult => is(SyncRestoreResultSchema, value);
const isSyncDiscardResult = (value: unknown): value is SyncDiscardResult => is(SyncDiscardResultSchema, value);
const isRetentionAnswer = (value: unknown): value is SyncRetention => is(SyncRetentionSchema, value);
