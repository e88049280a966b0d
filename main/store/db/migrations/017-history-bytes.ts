import type { Migration } from './migration.js';

/**
 * The bytes each kept version of a synced folder holds that the next newer kept version no longer has
 * (main/sync/history-bytes.ts): summed, they are what the folder's history alone holds (`history_bytes`).
 * NULL until computed, and again when the version's next newer kept version changes (retention released
 * the one between), so each is computed once per neighbour, from a walk of what differs only.
 */
export const historyBytesMigration: Migration = {
  version: 17,
  name: 'history-bytes',
  sql: `
ALTER TABLE sync_batches ADD COLUMN unique_bytes INTEGER CHECK (unique_bytes IS NULL OR unique_bytes >= 0);
`,
};
