import type { Migration } from './migration.js';

/**
 * Every version of a synced folder (issue "every version of a synced folder"): a settled batch's row is a
 * version while `kept` is 1, and its root is then held from garbage collection as any pin is; a retention
 * policy (`sync_folders.retention`, its text form, NULL for the default) turns rows into plain batch notes
 * (`kept` 0), of which the folder's page shows the last few. Rows from before this step were notes only
 * (their roots were unpinned, and GC may have taken their blocks): each folder's newest becomes its first
 * version, the rest stay notes.
 */
export const syncVersionsMigration: Migration = {
  version: 16,
  name: 'sync-versions',
  sql: `
ALTER TABLE sync_folders ADD COLUMN retention TEXT;
ALTER TABLE sync_batches ADD COLUMN kept INTEGER NOT NULL DEFAULT 1 CHECK (kept IN (0, 1));
UPDATE sync_batches SET kept = 0 WHERE id NOT IN (SELECT max(id) FROM sync_batches GROUP BY folder_id);
CREATE INDEX sync_batches_kept ON sync_batches(kept, root);
`,
};
