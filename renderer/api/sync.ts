import type { SyncFolderView, SyncState } from '../../shared/api-types.js';
import type { ApiCore, Credentials, ListPage } from './core.js';
import { hasNumbers, hasStrings, isRecord } from './shape.js';

/** What POST /api/v0/sync/add answers. */
export interface SyncFolderAdded {
  id: string;
  path: string;
  root: string;
  ipns_name: string;
}

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
  /** POST /api/v0/sync/add. */
  add(credentials: Credentials, folder: SyncFolderAdd, signal?: AbortSignal): Promise<SyncFolderAdded>;
  pause(credentials: Credentials, id: string, signal?: AbortSignal): Promise<void>;
  resume(credentials: Credentials, id: string, signal?: AbortSignal): Promise<void>;
  /** POST /api/v0/sync/rm: stops syncing; unpins nothing. */
  remove(credentials: Credentials, id: string, signal?: AbortSignal): Promise<void>;
}

export function syncApi(core: ApiCore): SyncApi {
  const folderAction = (action: 'pause' | 'resume' | 'rm') => (credentials: Credentials, id: string, signal?: AbortSignal) =>
    core.empty({ method: 'POST', path: `/api/v0/sync/${action}`, credentials, signal, query: { id } });
  return {
    list: (credentials, signal) => core.list({ path: '/api/v0/sync', credentials, signal }, isSyncFolderView, 'the sync folders'),
    add: (credentials, folder, signal) =>
      core.data({ method: 'POST', path: '/api/v0/sync/add', credentials, signal, body: folder }, isSyncFolderAdded, 'the new sync folder'),
    pause: folderAction('pause'),
    resume: folderAction('resume'),
    remove: folderAction('rm'),
  };
}

const SYNC_STATES: readonly SyncState[] = ['scanning', 'syncing', 'idle', 'paused', 'error'];

export function isSyncState(value: unknown): value is SyncState {
  return typeof value === 'string' && (SYNC_STATES as readonly string[]).includes(value);
}

export function isSyncFolderView(value: unknown): value is SyncFolderView {
  return (
    isRecord(value) &&
    hasStrings(value, ['id', 'path', 'root', 'ipns_name', 'error', 'current_file']) &&
    isSyncState(value.state) &&
    hasNumbers(value, ['files', 'bytes', 'pending', 'last_synced_at', 'files_done', 'bytes_done', 'bytes_pending']) &&
    Array.isArray(value.unreadable) &&
    value.unreadable.every((entry) => isRecord(entry) && hasStrings(entry, ['path', 'reason']))
  );
}

export function isSyncFolderAdded(value: unknown): value is SyncFolderAdded {
  return isRecord(value) && hasStrings(value, ['id', 'path', 'root', 'ipns_name']);
}
