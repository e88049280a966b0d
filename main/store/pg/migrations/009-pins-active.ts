import type { PgMigration } from './migration.js';

/** The pin list's "active" filter read on the index alone, as SQLite's migration 22 does. */
export const pinsActiveMigration: PgMigration = {
  version: 9,
  name: 'pins active',
  sql: `
DROP INDEX pins_account_created;
CREATE INDEX pins_account_created ON pins(account_id, created_at DESC, id DESC, name, status);
`,
};
