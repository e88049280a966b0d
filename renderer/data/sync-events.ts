/**
 * `event: sync` in the request cache: the folder's row replaced in the list (a new folder first, a
 * removed one dropped: the list is never loaded again for it); the folder's page patched in place, and
 * loaded again, paced, when a batch settled or its state or error changed (the page's batches and errors
 * come only with a load); its versions loaded again when its root or what its history holds moved.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { ServiceEvents, SyncFolderDetail, SyncFolderView, SyncVersion } from '../../shared/api-types.js';
import type { ListPage } from '../api/core.js';
import type { LiveReloads } from './live-reloads.js';
import { queryKeys } from './query-keys.js';
import { putFolderRow, type SyncFolderPage } from './sync-folders.js';

export function syncEventToCache(client: QueryClient, payload: ServiceEvents['sync'], reloads: LiveReloads): void {
  putFolderRow(client, payload);
  const key = queryKeys.sync.detail(payload.id);
  const held = client.getQueryState<SyncFolderPage>(key);
  if ('removed' in payload) {
    if (held !== undefined) removedToPage(client, key);
    return;
  }
  const before = held?.data?.kind === 'folder' ? held.data.folder : undefined;
  versionsEventToCache(client, payload, before, reloads);
  if (held === undefined) return;
  if (before === undefined) {
    // Loading, or a page that said there was no such folder: what it says now is the service's to tell.
    reloads.soon(key);
    return;
  }
  const patched: SyncFolderPage = { kind: 'folder', folder: { ...before, ...payload } };
  client.setQueryData(key, patched);
  if (settledSince(before, payload)) reloads.soon(key);
}

/** Progress alone is patched in place; a settled batch, a new state or error brings new batches and errors. */
function settledSince(before: SyncFolderView, now: SyncFolderView): boolean {
  return before.root !== now.root || before.state !== now.state || before.error !== now.error || before.last_synced_at !== now.last_synced_at;
}

/** The page says the folder was removed; a load still on its way (it may answer from before) is dropped first. */
function removedToPage(client: QueryClient, key: readonly unknown[]): void {
  // The cancel puts the query back as it was before the load at once, so the data set next stays.
  void client.cancelQueries({ queryKey: key, exact: true });
  client.setQueryData<SyncFolderPage>(key, { kind: 'removed' });
}

/** The versions held of the folder load again when they no longer start at its root, or its history's bytes moved (retention let some go). */
function versionsEventToCache(client: QueryClient, folder: SyncFolderView, before: SyncFolderDetail | undefined, reloads: LiveReloads): void {
  const historyMoved = before !== undefined && before.history_bytes !== folder.history_bytes;
  for (const [key, page] of client.getQueriesData<ListPage<SyncVersion>>({ queryKey: queryKeys.sync.versionLists(folder.id) })) {
    // No version yet and a folder whose first scan runs (root '') agree.
    if (historyMoved || (page?.items[0]?.root ?? '') !== folder.root) reloads.soon(key);
  }
}
