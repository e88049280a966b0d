import type { PgMigration } from './migration.js';

/** Small named values of the deployment (the sealed check of the master key): the meta table of SQLite's migration 3. */
export const metaMigration: PgMigration = {
  version: 1,
  name: 'meta',
  sql: `CREATE TABLE meta (key TEXT PRIMARY KEY, value BYTEA NOT NULL);`,
};
