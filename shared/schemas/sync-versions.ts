import { array, boolean, number, object, picklist, string } from 'valibot';

/** A row of `GET /api/v0/sync/versions?id=`. */
export const SyncVersionSchema = object({
  root: string(),
  created_at: number(),
  added: number(),
  modified: number(),
  removed: number(),
  bytes: number(),
});

/** `GET /api/v0/sync/diff?id=&from=&to=`. */
export const SyncVersionDiffSchema = object({
  added: array(string()),
  modified: array(string()),
  removed: array(string()),
});

/** An entry of a directory of a kept version. */
export const SyncVersionEntrySchema = object({
  name: string(),
  kind: picklist(['file', 'dir', 'other']),
  size: number(),
  cid: string(),
});

/** `GET /api/v0/sync/tree?id=&root=&path=`. */
export const SyncVersionDirectorySchema = object({
  entries: array(SyncVersionEntrySchema),
  truncated: boolean(),
});

/** `POST /api/v0/sync/restore`. */
export const SyncRestoreResultSchema = object({
  written: array(
    object({
      path: string(),
      local: string(),
      kind: picklist(['file', 'dir']),
      beside: boolean(),
      replaced: boolean(),
    }),
  ),
  unchanged: number(),
});
