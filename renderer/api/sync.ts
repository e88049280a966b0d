import type { SyncAddResult, SyncBatchView, SyncErrorView, SyncFolderDetail, SyncFolderView, SyncState } from '../../shared/api-types.js';
import type { ApiCore, Credentials, ListPage } from './core.js';
import { hasNumbers, hasStrings, isRecord } from './shape.js';

export interface SyncFolderAdd {
  /** An absolute folder path on the service's machine (the desktop bridge supplies it). */
  path: string;
  ipns?: boolean;
  ignore?: string[];
}

/** Sync folders: the owner account's admin keys only (others get 403). */
export interface SyncApi {
  /** GET /api/v0/sync. */
  list(credentials: Credentials, signal?: AbortSignal): Promise<ListPage<SyncFolderView>>;
  /** GET /api/v0/sync/detail?id=: the row, `.pinfoldignore`, recent batches and errors. */
  detail(credentials: Credentials, id: string, signal?: AbortSignal): Promise<SyncFolderDetail>;
  /**
   * POST /api/v0/sync/add. With `wait: false` it answers at once while the first scan runs (root and
   * IPNS name still ''); by default once the first full scan is pinned.
   */
  add(credentials: Credentials, folder: SyncFolderAdd, options?: { wait?: boolean }, signal?: AbortSignal): Promise<SyncAddResult>;
  pause(credentials: Credentials, id: string, signal?: AbortSignal): Promise<void>;
  resume(credentials: Credentials, id: string, signal?: AbortSignal): Promise<void>;
  /** POST /api/v0/sync/rm: stops syncing; unpins nothing. */
  remove(credentials: Credentials, id: string, signal?: AbortSignal): Promise<void>;
  /** POST /api/v0/sync/rescan: a full rescan now. */
  rescan(credentials: Credentials, id: string, signal?: AbortSignal): Promise<void>;
  /** POST /api/v0/sync/retry: an errored folder tries again now. */
  retry(credentials: Credentials, id: string, signal?: AbortSignal): Promise<void>;
  /** POST /api/v0/sync/ignore: replaces the folder's own patterns, applied at once (one batch). */
  setIgnore(credentials: Credentials, id: string, ignore: string[], signal?: AbortSignal): Promise<void>;
}

export function syncApi(core: ApiCore): SyncApi {
  const folderAction = (action: 'pause' | 'resume' | 'rm' | 'rescan' | 'retry') => (credentials: Credentials, id: string, signal?: AbortSignal) =>
    core.empty({ method: 'POST', path: `/api/v0/sync/${action}`, credentials, signal, query: { id } });
  return {
    list: (credentials, signal) => core.list({ path: '/api/v0/sync', credentials, signal }, isSyncFolderView, 'the sync folders'),
    detail: (credentials, id, signal) => core.data({ path: '/api/v0/sync/detail', credentials, signal, query: { id } }, isSyncFolderDetail, 'the sync folder'),
    add: (credentials, folder, options = {}, signal) =>
      core.data(
        { method: 'POST', path: '/api/v0/sync/add', credentials, signal, body: folder, query: { wait: options.wait } },
        isSyncAddResult,
        'the new sync folder',
      ),
    pause: folderAction('pause'),
    resume: folderAction('resume'),
    remove: folderAction('rm'),
    rescan: folderAction('rescan'),
    retry: folderAction('retry'),
    setIgnore: (credentials, id, ignore, signal) =>
      core.empty({ method: 'POST', path: '/api/v0/sync/ignore', credentials, signal, query: { id }, body: { ignore } }),
  };
}

const SYNC_STATES: readonly SyncState[] = ['scanning', 'syncing', 'idle', 'paused', 'error'];

export function isSyncState(value: unknown): value is SyncState {
  return typeof value === 'string' && (SYNC_STATES as readonly string[]).includes(value);
}

const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every((entry) => typeof entry === 'string');

export function isSyncFolderView(value: unknown): value is SyncFolderView {
  return (
    isRecord(value) &&
    hasStrings(value, ['id', 'path', 'root', 'ipns_name', 'error', 'current_file']) &&
    isSyncState(value.state) &&
    hasNumbers(value, ['files', 'bytes', 'pending', 'last_synced_at', 'files_done', 'bytes_done', 'bytes_pending', 'created_at']) &&
    Array.isArray(value.unreadable) &&
    value.unreadable.every((entry) => isRecord(entry) && hasStrings(entry, ['path', 'reason'])) &&
    isStringArray(value.ignore)
  );
}

function isSyncBatchView(value: unknown): value is SyncBatchView {
  return isRecord(value) && typeof value.root === 'string' && hasNumbers(value, ['finished_at', 'added', 'modified', 'removed', 'bytes']);
}

function isSyncErrorView(value: unknown): value is SyncErrorView {
  return isRecord(value) && hasStrings(value, ['path', 'message']) && hasNumbers(value, ['at']);
}

export function isSyncFolderDetail(value: unknown): value is SyncFolderDetail {
  return (
    isSyncFolderView(value) &&
    isRecord(value) &&
    (value.pinfoldignore === null || typeof value.pinfoldignore === 'string') &&
    typeof value.pinfoldignore_truncated === 'boolean' &&
    Array.isArray(value.batches) &&
    value.batches.every(isSyncBatchView) &&
    Array.isArray(value.errors) &&
    value.errors.every(isSyncErrorView)
  );
}

export function isSyncAddResult(value: unknown): value is SyncAddResult {
  return isRecord(value) && hasStrings(value, ['id', 'path', 'root', 'ipns_name']) && (value.state === undefined || isSyncState(value.state));
}
