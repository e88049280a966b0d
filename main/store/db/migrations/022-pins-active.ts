import type { Migration } from './migration.js';

/**
 * The pin list's "active" filter (every pin but those being removed, issue 26): the newest-first index
 * carries the status too, so a page of active pins skips the unpinning ones on the index alone, never
 * reading the table, however deep the page.
 */
export const pinsActiveMigration: Migration = {
  version: 22,
  name: 'pins-active',
  sql: `
DROP INDEX pins_account_created;
CREATE INDEX pins_account_created ON pins(account_id, created_at DESC, id DESC, name, status);
`,
};
