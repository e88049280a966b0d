import type { Migration } from './migration.js';

/** A partner's users newest first (GET /api/v0/partner/users, issue 12) on the index, without a sort. */
export const partnerUsersMigration: Migration = {
  version: 14,
  name: 'partner-users',
  sql: `
DROP INDEX accounts_partner;
CREATE INDEX accounts_partner ON accounts(partner_id, created_at DESC, id DESC);
`,
};
