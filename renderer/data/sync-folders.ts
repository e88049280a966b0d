/**
 * Sync folders in the request cache (the owner's: any other account is refused): the list, one folder's
 * page, and the cache's side of what changes them: a row put in place or dropped, a folder's page loaded
 * again after an action, a name made public or private where a folder publishes it.
 */
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { SyncFolderDetail, SyncFolderRemoved, SyncFolderView } from '../../shared/api-types.js';
import type { ApiClient } from '../api/client.js';
import { ApiError } from '../api/api-error.js';
import { applySyncEvent } from '../lib/sync-folders.js';
import { useApiQuery, type ApiQuery } from './api-query.js';
import { isOwnerOnlyRefusal } from './owner-only.js';
import { queryKeys } from './query-keys.js';

/** Every sync folder, newest first; null: sync is the owner's, and this account is another. */
export type SyncFolderList = readonly SyncFolderView[] | null;

async function loadFolders(api: ApiClient, signal: AbortSignal): Promise<SyncFolderList> {
  try {
    return (await api.sync.list(signal)).items;
  } catch (error) {
    if (isOwnerOnlyRefusal(error)) return null;
    throw error;
  }
}

export function useSyncFolders(): ApiQuery<SyncFolderList> {
  return useApiQuery({ queryKey: queryKeys.sync.folders(), load: loadFolders });
}

/** What a folder's page shows: the folder, or why there is none. */
export type SyncFolderPage =
  | { kind: 'folder'; folder: SyncFolderDetail }
  | { kind: 'owner-only' }
  /** The service knows no folder of this id; `message` is its words. */
  | { kind: 'missing'; message: string }
  /** `event: sync` said it was removed while the page was open. */
  | { kind: 'removed' };

async function loadFolder(api: ApiClient, id: string, signal: AbortSignal, held: SyncFolderPage | undefined): Promise<SyncFolderPage> {
  try {
    return { kind: 'folder', folder: await api.sync.detail(id, signal) };
  } catch (error) {
    if (isOwnerOnlyRefusal(error)) return { kind: 'owner-only' };
    if (error instanceof ApiError && (error.error === 'not_found' || error.error === 'bad_input')) {
      // A folder seen removed stays "removed while the page was open" when the page is loaded again.
      return held?.kind === 'removed' ? held : { kind: 'missing', message: error.msg };
    }
    throw error;
  }
}

export function useSyncFolder(id: string): ApiQuery<SyncFolderPage> {
  const client = useQueryClient();
  const queryKey = queryKeys.sync.detail(id);
  return useApiQuery({ queryKey, load: (api, signal) => loadFolder(api, id, signal, client.getQueryData<SyncFolderPage>(queryKey)) });
}

/** A folder's row as the service has it now (a new one first), or its removal, in the list. */
export function putFolderRow(client: QueryClient, change: SyncFolderView | SyncFolderRemoved): void {
  client.setQueryData<SyncFolderList>(queryKeys.sync.folders(), (rows) => (rows ? applySyncEvent(rows, change) : rows));
}

/** After an action whose outcome the service says in full (a rescan, new patterns): what is shown of the folder loads again. */
export function reloadFolder(client: QueryClient, id: string): void {
  void client.invalidateQueries({ queryKey: queryKeys.sync.folders() });
  void client.invalidateQueries({ queryKey: queryKeys.sync.detail(id) });
}

/** The folder's page loads again (its detail holds what an action changed: patterns, retention, local changes). */
export function reloadFolderPage(client: QueryClient, id: string): void {
  void client.invalidateQueries({ queryKey: queryKeys.sync.detail(id) });
}

/** A name made public or private (the Public switch): the folder that publishes it says so. */
export function folderNamePublicToCache(client: QueryClient, ipnsName: string, isPublic: boolean): void {
  const patch = (row: SyncFolderView) => (row.ipns_name === ipnsName ? { ...row, public: isPublic } : row);
  client.setQueryData<SyncFolderList>(queryKeys.sync.folders(), (rows) => (rows?.some((row) => row.ipns_name === ipnsName) ? rows.map(patch) : rows));
  client.setQueriesData<SyncFolderPage>({ queryKey: queryKeys.sync.details() }, (page) =>
    page?.kind === 'folder' && page.folder.ipns_name === ipnsName ? { kind: 'folder', folder: { ...page.folder, public: isPublic } } : page,
  );
}
