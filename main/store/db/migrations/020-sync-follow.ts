import type { Migration } from './migration.js';

/**
 * Followed folders (issue 24, contract section 11): a sync folder row whose `mode` is 'follow' mirrors an IPNS
 * name held elsewhere into the folder instead of publishing the folder's content. `follow_name` is the name
 * (canonical k51…), `follow_sources` the extra gateway URLs asked for its records and blocks (JSON list),
 * `follow_seq` the sequence of the record whose root the folder holds (decimal text: IPNS sequences are
 * unsigned 64-bit; '' before the first), `checked_at` when a newer record was last looked for (unix seconds),
 * `local_changes` the paths changed or added locally that an update wrote beside (JSON list).
 */
export const syncFollowMigration: Migration = {
  version: 20,
  name: 'sync-follow',
  sql: `
ALTER TABLE sync_folders ADD COLUMN mode TEXT NOT NULL DEFAULT 'sync' CHECK (mode IN ('sync', 'follow'));
ALTER TABLE sync_folders ADD COLUMN follow_name TEXT NOT NULL DEFAULT '';
ALTER TABLE sync_folders ADD COLUMN follow_sources TEXT NOT NULL DEFAULT '[]';
ALTER TABLE sync_folders ADD COLUMN follow_seq TEXT NOT NULL DEFAULT '';
ALTER TABLE sync_folders ADD COLUMN checked_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sync_folders ADD COLUMN local_changes TEXT NOT NULL DEFAULT '[]';
`,
};
