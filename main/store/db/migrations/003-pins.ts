import type { Migration } from './migration.js';

export const pinsMigration: Migration = {
  version: 3,
  name: 'pins',
  sql: `
CREATE TABLE pins (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  cid TEXT NOT NULL,
  name TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL CHECK (status IN ('pinning', 'pinned', 'failure', 'unpinning')),
  size INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  -- for status 'pinning': when it turns 'failure' if its blocks have not all arrived
  deadline INTEGER,
  UNIQUE (account_id, cid)
) STRICT;
CREATE INDEX pins_account_created ON pins(account_id, created_at DESC, id DESC);
CREATE INDEX pins_account_status ON pins(account_id, status, created_at DESC, id DESC);
CREATE INDEX pins_status ON pins(status);
`,
};
