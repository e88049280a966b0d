import type { PgMigration } from './migration.js';

/**
 * Names whose records this Pinfold also puts on the IPFS network (contract section 11, SQLite migration 19).
 * 5, not 4: issue 23's Pinning Service API work takes 4 (pins), and both land together.
 */
export const namesPublicMigration: PgMigration = {
  version: 5,
  name: 'names public',
  sql: `
ALTER TABLE ipns_names ADD COLUMN public BOOLEAN NOT NULL DEFAULT FALSE;
CREATE INDEX ipns_names_public ON ipns_names(id) WHERE public;
`,
};
