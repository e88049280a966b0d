import type { Migration } from './migration.js';

export const foldersMigration: Migration = {
  version: 5,
  name: 'folders',
  sql: `
-- One row per directory root the folder facility can operate on: imported ones and ones an operation
-- made. cid is the CIDv1 string. The stats let an operation decide plain vs HAMT without reading the
-- whole directory; they are NULL while the import still runs.
CREATE TABLE folder_roots (
  cid TEXT PRIMARY KEY,
  state TEXT NOT NULL CHECK (state IN ('importing', 'ready')),
  kind TEXT CHECK (kind IN ('plain', 'hamt')),
  entries INTEGER,
  links_bytes INTEGER,
  block_bytes INTEGER,
  created_at INTEGER NOT NULL
) STRICT;

-- Which accounts may operate on a root: the ones that imported it or made it by an operation.
CREATE TABLE folder_members (
  account_id INTEGER NOT NULL,
  cid TEXT NOT NULL REFERENCES folder_roots(cid) ON DELETE CASCADE,
  origin TEXT NOT NULL CHECK (origin IN ('import', 'operation')),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, cid)
) STRICT;
CREATE INDEX folder_members_cid ON folder_members(cid);
`,
};
