/**
 * A sync folder's history in the request cache: its kept versions (kept current by `event: sync`, see
 * sync-events.ts), a version's files a folder at a time, what changed between two versions, and the
 * actions on it (the retention policy, a restore), after which the folder's page loads again.
 */
import type { SyncRestoreResult, SyncVersion, SyncVersionDiff, SyncVersionDirectory } from '../../shared/api-types.js';
import type { ListPage } from '../api/core.js';
import type { SyncRestoreRequest } from '../api/sync.js';
import { useApiMutation, type ApiMutation } from './api-mutation.js';
import { useApiQuery, type ApiQuery } from './api-query.js';
import { queryKeys } from './query-keys.js';
import { reloadFolderPage } from './sync-folders.js';

/** The newest `limit` kept versions of the folder (the first is its current root) and how many there are. */
export function useSyncVersions(id: string, limit: number): ApiQuery<ListPage<SyncVersion>> {
  return useApiQuery({ queryKey: queryKeys.sync.versions(id, limit), load: (api, signal) => api.sync.versions(id, { limit }, signal) });
}

/** One directory of version `root` ('' for the folder itself). */
export function useVersionTree(id: string, root: string, path: string): ApiQuery<SyncVersionDirectory> {
  return useApiQuery({ queryKey: queryKeys.sync.tree(id, root, path), load: (api, signal) => api.sync.tree(id, root, path, signal) });
}

/** What changed from version `from` to version `to`. */
export function useVersionDiff(id: string, from: string, to: string): ApiQuery<SyncVersionDiff> {
  return useApiQuery({ queryKey: queryKeys.sync.diff(id, from, to), load: (api, signal) => api.sync.diff(id, from, to, signal) });
}

/** A new retention policy; answers it as the service wrote it. What history holds changes with it: the page loads again. */
export function useSetRetention(): ApiMutation<{ id: string; keep: string }, string> {
  return useApiMutation({
    perform: (api, { id, keep }: { id: string; keep: string }) => api.sync.setRetention(id, keep),
    onSuccess: (client, _keep, { id }) => reloadFolderPage(client, id),
  });
}

export interface RestoreRequest extends SyncRestoreRequest {
  /** The folder. */
  id: string;
}

/** A file, a folder or everything of a version back on disk; the page loads again (a restore into the folder syncs like any change). */
export function useRestoreVersion(): ApiMutation<RestoreRequest, SyncRestoreResult> {
  return useApiMutation({
    perform: (api, { id, ...request }: RestoreRequest) => api.sync.restore(id, request),
    onSuccess: (client, _result, { id }) => reloadFolderPage(client, id),
  });
}
