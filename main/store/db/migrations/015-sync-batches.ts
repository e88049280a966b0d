import type { Migration } from './migration.js';

/**
 * The settled batches of each sync folder (issue 12: the window's folder page shows the recent ones):
 * written in the transaction that makes a batch the folder's state; only the last few are kept.
 * `added`, `modified` and `removed` count files; `bytes` is the size of the files added or modified.
 */
export const syncBatchesMigration: Migration = {
  version: 15,
  name: 'sync-batches',
  sql: `
CREATE TABLE sync_batches (
  id INTEGER PRIMARY KEY,
  folder_id TEXT NOT NULL REFERENCES sync_folders(id) ON DELETE CASCADE,
  root TEXT NOT NULL,
  finished_at INTEGER NOT NULL,
  added INTEGER NOT NULL CHECK (added >= 0),
  modified INTEGER NOT NULL CHECK (modified >= 0),
  removed INTEGER NOT NULL CHECK (removed >= 0),
  bytes INTEGER NOT NULL CHECK (bytes >= 0)
) STRICT;
CREATE INDEX sync_batches_folder ON sync_batches(folder_id, id DESC);
`,
};
