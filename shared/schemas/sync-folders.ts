import { array, boolean, nullable, number, object, optional, picklist, string } from 'valibot';
import { SYNC_STATES } from '../api-types.js';

export const SyncStateSchema = picklist(SYNC_STATES);

/** A newer record of a sync folder's name, seen elsewhere. */
export const SyncConflictSchema = object({
  seq: number(),
  value: string(),
  seen_at: number(),
  source: string(),
});

/** A local change in a followed folder. */
export const SyncLocalChangeSchema = object({
  path: string(),
  change: picklist(['modified', 'added', 'deleted']),
  beside: array(string()),
});

const folderViewEntries = {
  id: string(),
  path: string(),
  root: string(),
  ipns_name: string(),
  state: SyncStateSchema,
  files: number(),
  bytes: number(),
  pending: number(),
  last_synced_at: number(),
  error: string(),
  current_file: string(),
  files_done: number(),
  bytes_done: number(),
  bytes_pending: number(),
  unreadable: array(object({ path: string(), reason: string() })),
  ignore: array(string()),
  created_at: number(),
  public: boolean(),
  history_bytes: number(),
  conflict: nullable(SyncConflictSchema),
  mode: picklist(['sync', 'follow']),
  source: string(),
  from: array(string()),
  seq: number(),
  checked_at: number(),
  local_changes: array(SyncLocalChangeSchema),
};

/** A row of `GET /api/v0/sync`, `sync/follow`'s answer and the `sync` event. */
export const SyncFolderViewSchema = object(folderViewEntries);

/** `GET /api/v0/sync/detail?id=`: the row and what the folder's page shows beside it. */
export const SyncFolderDetailSchema = object({
  ...folderViewEntries,
  pinfoldignore: nullable(string()),
  pinfoldignore_truncated: boolean(),
  batches: array(
    object({
      root: string(),
      finished_at: number(),
      added: number(),
      modified: number(),
      removed: number(),
      bytes: number(),
    }),
  ),
  errors: array(object({ at: number(), path: string(), message: string() })),
  retention: string(),
});

/** `POST /api/v0/sync/add`: `state` only with `wait=false`. */
export const SyncAddResultSchema = object({
  id: string(),
  path: string(),
  root: string(),
  ipns_name: string(),
  state: optional(SyncStateSchema),
});

/** `POST /api/v0/sync/discard?id=`. */
export const SyncDiscardResultSchema = object({
  written: number(),
  trashed: number(),
  local_changes: array(SyncLocalChangeSchema),
});

/** `POST /api/v0/sync/retention?id=`. */
export const SyncRetentionSchema = object({
  keep: string(),
});
