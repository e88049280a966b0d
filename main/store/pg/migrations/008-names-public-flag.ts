import type { PgMigration } from './migration.js';

/**
 * A name's public mark as a 0/1 integer, as every other flag of this schema and as SQLite keeps it
 * (its migration 19), so one query and one mapper serve both engines (store/queries/names.ts).
 */
export const namesPublicFlagMigration: PgMigration = {
  version: 8,
  name: 'names public flag',
  sql: `
DROP INDEX ipns_names_public;
ALTER TABLE ipns_names ALTER COLUMN public DROP DEFAULT;
ALTER TABLE ipns_names ALTER COLUMN public TYPE INTEGER USING (CASE WHEN public THEN 1 ELSE 0 END);
ALTER TABLE ipns_names ALTER COLUMN public SET DEFAULT 0;
ALTER TABLE ipns_names ADD CONSTRAINT ipns_names_public_flag CHECK (public IN (0, 1));
CREATE INDEX ipns_names_public ON ipns_names(id) WHERE public = 1;
`,
};
