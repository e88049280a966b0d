/**
 * What the Sync pages do to folders, each success bringing the cache up to date: add (one typed path, or
 * the folders of a drop, each refused on its own), follow another machine's folder, remove, Pause, Resume,
 * Rescan and Retry, publish over a conflict, new ignore patterns, and a followed folder's local changes
 * discarded.
 */
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { SyncAddResult, SyncDiscardResult, SyncFollowRequest, SyncFolderView } from '../../shared/api-types.js';
import { ApiError } from '../api/api-error.js';
import type { ApiClient } from '../api/client.js';
import { followRefusal, type FollowRefusal } from '../lib/followed-folders.js';
import { describeError } from '../lib/messages.js';
import { addFailure } from '../lib/sync-folders.js';
import { useApiMutation, type ApiMutation } from './api-mutation.js';
import { queryKeys } from './query-keys.js';
import { useSessionApi } from './session-api.js';
import { putFolderRow, reloadFolder, reloadFolderPage } from './sync-folders.js';

export type FolderCommand = 'pause' | 'resume' | 'rescan' | 'retry';

/**
 * Pause, Resume, Rescan or Retry of a folder: several folders at once (the rows of the list: a mutation
 * hook runs one at a time), each rejecting on its own with the service's refusal.
 */
export function useRunFolderCommand(): (id: string, command: FolderCommand) => Promise<void> {
  const api = useSessionApi();
  const client = useQueryClient();
  return useCallback(
    async (id: string, command: FolderCommand) => {
      try {
        await api.sync[command](id);
      } catch (failure) {
        // The service got there first (it retries a stalled folder by itself): nothing left to retry is no failure.
        if (!(command === 'retry' && failure instanceof ApiError && failure.error === 'conflict')) throw failure;
      }
      reloadFolder(client, id);
    },
    [api, client],
  );
}

/** A folder the desktop app located (a drop or the picker): its name for messages, its absolute path for the service. */
export interface FolderToAdd {
  name: string;
  path: string;
}

export interface FoldersAdded {
  added: SyncAddResult[];
  /** Why each refused folder was not added, one line each. */
  refused: string[];
}

/** Each folder is its own request, so one refused folder (not a folder, already synced, overlapping another) does not stop the others. */
async function addEach(api: ApiClient, folders: readonly FolderToAdd[]): Promise<FoldersAdded> {
  const added: SyncAddResult[] = [];
  const refused: string[] = [];
  for (const folder of folders) {
    try {
      added.push(await api.sync.add({ path: folder.path }, { wait: false }));
    } catch (failure) {
      // Signed out: nothing to tell beside the drop zone (the session says it).
      if (failure instanceof ApiError && failure.isUnauthorized) throw failure;
      refused.push(addFailure(folder.name, describeError(failure)));
    }
  }
  return { added, refused };
}

function reloadFolders(client: QueryClient): void {
  void client.invalidateQueries({ queryKey: queryKeys.sync.folders() });
}

/** Starts syncing each folder at once (sync/add?wait=false); the new rows lead the list, which loads again. */
export function useAddSyncFolders(): ApiMutation<readonly FolderToAdd[], FoldersAdded> {
  return useApiMutation({
    perform: addEach,
    onSuccess: (client, { added }) => {
      if (added.length > 0) reloadFolders(client);
    },
  });
}

/** Starts syncing the folder at this path (typed in a browser, which cannot locate a dropped one). */
export function useAddSyncFolder(): ApiMutation<string, SyncAddResult> {
  return useApiMutation({ perform: (api, path: string) => api.sync.add({ path }, { wait: false }), onSuccess: reloadFolders });
}

/** A followed folder, or the service's refusal placed beside the field it names (anything else is the mutation's error). */
export type FollowOutcome = { followed: SyncFolderView } | { refused: FollowRefusal };

async function follow(api: ApiClient, request: SyncFollowRequest): Promise<FollowOutcome> {
  try {
    return { followed: await api.sync.follow(request) };
  } catch (failure) {
    if (failure instanceof ApiError && (failure.error === 'bad_input' || failure.error === 'conflict')) {
      return { refused: followRefusal(failure.detail.param, failure.msg) };
    }
    throw failure;
  }
}

/** Follow a folder: its row, answered at once, leads the list. */
export function useFollowFolder(): ApiMutation<SyncFollowRequest, FollowOutcome> {
  return useApiMutation({
    perform: follow,
    onSuccess: (client, outcome) => {
      if ('followed' in outcome) putFolderRow(client, outcome.followed);
    },
  });
}

/** Stop syncing (or following): unpins nothing; the row leaves the list. */
export function useRemoveSyncFolder(): ApiMutation<Pick<SyncFolderView, 'id'>, void> {
  return useApiMutation({
    perform: (api, { id }: Pick<SyncFolderView, 'id'>) => api.sync.remove(id),
    onSuccess: (client, _result, { id }) => putFolderRow(client, { id, removed: true }),
  });
}

/** "Publish mine anyway": the folder's current version over a newer record seen elsewhere; its page loads again without the conflict. */
export function usePublishOverConflict(): ApiMutation<string, void> {
  return useApiMutation({
    perform: (api, id: string) => api.sync.publish(id, { force: true }),
    onSuccess: (client, _result, id) => reloadFolderPage(client, id),
  });
}

/** The folder's own ignore patterns, replaced (the service rescans the folder with them). */
export function useSetIgnorePatterns(): ApiMutation<{ id: string; patterns: string[] }, void> {
  return useApiMutation({
    perform: (api, { id, patterns }: { id: string; patterns: string[] }) => api.sync.setIgnore(id, patterns),
    onSuccess: (client, _result, { id }) => reloadFolderPage(client, id),
  });
}

/** A followed folder's local changes replaced by the version it holds (moved to the trash first). */
export function useDiscardLocalChanges(): ApiMutation<Pick<SyncFolderView, 'id'>, SyncDiscardResult> {
  return useApiMutation({
    perform: (api, { id }: Pick<SyncFolderView, 'id'>) => api.sync.discard(id),
    onSuccess: (client, _result, { id }) => reloadFolderPage(client, id),
  });
}
