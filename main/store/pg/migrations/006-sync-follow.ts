import type { PgMigration } from './migration.js';

/**
 * Followed folders (issue 24, SQLite migration 20). Sync folders are refused in the PostgreSQL mode (409), but
 * the schema keeps in step with SQLite's.
 */
export const syncFollowMigration: PgMigration = {
  version: 6,
  name: 'sync follow',
  sql: `
ALTER TABLE sync_folders ADD COLUMN mode TEXT NOT NULL DEFAULT 'sync' CHECK (mode IN ('sync', 'follow'));
ALTER TABLE sync_folders ADD COLUMN follow_name TEXT NOT NULL DEFAULT '';
ALTER TABLE sync_folders ADD COLUMN follow_sources TEXT NOT NULL DEFAULT '[]';
ALTER TABLE sync_folders ADD COLUMN follow_seq TEXT NOT NULL DEFAULT '';
ALTER TABLE sync_folders ADD COLUMN checked_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE sync_folders ADD COLUMN local_changes TEXT NOT NULL DEFAULT '[]';
`,
};
