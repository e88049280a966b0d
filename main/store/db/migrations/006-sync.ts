import type { Migration } from './migration.js';

/**
 * Sync folders (contract section 9). `sync_entries` is the last published state of every file and
 * folder (path, size, mtime, inode, CID); a restart compares the disk with it. `sync_journal` +
 * `sync_journal_entries` hold one prepared batch: written before the pin moves, replayed on start,
 * applied to `sync_entries` in the same transaction that sets the new root. `path_key` is the path
 * as the folder's file system compares it (case-folded on case-insensitive ones); `path` keeps the
 * spelling on disk.
 */
export const syncMigration: Migration = {
  version: 6,
  name: 'sync',
  sql: `
CREATE TABLE sync_folders (
  id TEXT PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  path TEXT NOT NULL UNIQUE,
  ipns_name TEXT NOT NULL DEFAULT '',
  root_cid TEXT NOT NULL DEFAULT '',
  state TEXT NOT NULL CHECK (state IN ('scanning', 'syncing', 'idle', 'paused', 'error')),
  error TEXT NOT NULL DEFAULT '',
  user_paused INTEGER NOT NULL DEFAULT 0 CHECK (user_paused IN (0, 1)),
  device_id TEXT NOT NULL DEFAULT '',
  case_insensitive INTEGER NOT NULL DEFAULT 0 CHECK (case_insensitive IN (0, 1)),
  ignore_patterns TEXT NOT NULL DEFAULT '[]',
  files INTEGER NOT NULL DEFAULT 0,
  bytes INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  last_synced_at INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX sync_folders_account ON sync_folders(account_id);

CREATE TABLE sync_entries (
  folder_id TEXT NOT NULL REFERENCES sync_folders(id) ON DELETE CASCADE,
  path_key TEXT NOT NULL,
  path TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('file', 'dir')),
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  ino INTEGER NOT NULL,
  cid TEXT NOT NULL,
  PRIMARY KEY (folder_id, path_key)
) STRICT, WITHOUT ROWID;

CREATE TABLE sync_journal (
  folder_id TEXT PRIMARY KEY REFERENCES sync_folders(id) ON DELETE CASCADE,
  old_root TEXT NOT NULL,
  new_root TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE sync_journal_entries (
  folder_id TEXT NOT NULL REFERENCES sync_journal(folder_id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  op TEXT NOT NULL CHECK (op IN ('put', 'delete_tree')),
  path_key TEXT NOT NULL,
  path TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('file', 'dir')),
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  ino INTEGER NOT NULL,
  cid TEXT NOT NULL,
  PRIMARY KEY (folder_id, seq)
) STRICT, WITHOUT ROWID;
`,
};
