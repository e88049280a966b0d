import type { Migration } from './migration.js';

/** Small named values of the installation itself (e.g. the master-key check value). */
export const metaMigration: Migration = {
  version: 8,
  name: 'meta',
  sql: `
CREATE TABLE meta (
  key TEXT PRIMARY KEY,
  value BLOB NOT NULL
) STRICT;
`,
};
