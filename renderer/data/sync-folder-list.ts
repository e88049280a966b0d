/**
 * The sync folders as other pages read them (the Names page: which folder publishes a name). Sync is
 * the owner's: any other account is refused, and reads null. The Sync pages keep this list current.
 */
import type { SyncFolderView } from '../../shared/api-types.js';
import { ApiError } from '../api/api-error.js';
import type { ApiClient } from '../api/client.js';
import { useApiQuery, type ApiQuery } from './api-query.js';
import { queryKeys } from './query-keys.js';

/** Every sync folder; null: sync is the owner's, and this account is another. */
export type SyncFolderList = readonly SyncFolderView[] | null;

async function loadFolders(api: ApiClient, signal: AbortSignal): Promise<SyncFolderList> {
  try {
    return (await api.sync.list(signal)).items;
  } catch (error) {
    if (error instanceof ApiError && error.error === 'permission') return null;
    throw error;
  }
}

export function useSyncFolderList(): ApiQuery<SyncFolderList> {
  return useApiQuery({ queryKey: queryKeys.sync.folders(), load: loadFolders });
}
