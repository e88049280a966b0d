import type { Migration } from './migration.js';

/**
 * The pin list at 100,000 pins (issue 12): its two indexes carry the pin name as well, so a name search
 * (a substring, case-insensitive) and the count of what it matches read the index alone, never the
 * table, and a page of any filter is found by its ids on the index before its rows are read.
 */
export const pinsListMigration: Migration = {
  version: 13,
  name: 'pins-list',
  sql: `
DROP INDEX pins_account_created;
DROP INDEX pins_account_status;
CREATE INDEX pins_account_created ON pins(account_id, created_at DESC, id DESC, name);
CREATE INDEX pins_account_status ON pins(account_id, status, created_at DESC, id DESC, name);
`,
};
