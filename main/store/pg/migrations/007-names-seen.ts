import type { PgMigration } from './migration.js';

/**
 * The newest record seen elsewhere of a name held here (contract section 11, SQLite migration 21).
 * 7, not 6: issue 24's follow work takes 6 (sync folders), and both land together.
 */
export const namesSeenMigration: PgMigration = {
  version: 7,
  name: 'names seen',
  sql: `
CREATE TABLE ipns_seen_records (
  name_id BIGINT PRIMARY KEY REFERENCES ipns_names(id) ON DELETE CASCADE,
  seq BIGINT NOT NULL CHECK (seq >= 0),
  value TEXT NOT NULL,
  source TEXT NOT NULL,
  seen_at BIGINT NOT NULL
);
`,
};
