import type { Migration } from './migration.js';

/**
 * The newest record seen elsewhere of a name held here (contract section 11): the same key imported on another
 * machine publishes too. A name never publishes a sequence lower than or equal to it, and a sync folder
 * publishing the name stops and shows the conflict while it is newer than the name's own record. Gone with the
 * name.
 *
 * 21, not 20: issue 24's follow work takes 20 (sync folders), and both land together.
 */
export const namesSeenMigration: Migration = {
  version: 21,
  name: 'names-seen',
  sql: `
CREATE TABLE ipns_seen_records (
  name_id INTEGER PRIMARY KEY REFERENCES ipns_names(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL CHECK (seq >= 0),
  -- what the record points at, as signed (e.g. /ipfs/bafy...)
  value TEXT NOT NULL,
  -- where it was found: a routing endpoint's or a fetch source's URL, or 'pushed' (a PUT to the served routing API)
  source TEXT NOT NULL,
  seen_at INTEGER NOT NULL
) STRICT;
`,
};
