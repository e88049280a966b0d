import type { PgMigration } from './migration.js';

/**
 * SQLite's migration 18 (store/db/migrations/018-pin-requests.ts) on PostgreSQL: the pin's PSA `requestid`
 * (a random UUID), its `created` in milliseconds (unique within its account), the PSA's `meta` (a JSON
 * object of strings) and the HTTP(S) `origins` (a JSON array), kept as text as SQLite keeps them.
 */
export const pinRequestsMigration: PgMigration = {
  version: 4,
  name: 'pin requests',
  sql: `
ALTER TABLE pins ADD COLUMN request_id TEXT;
ALTER TABLE pins ADD COLUMN created_ms BIGINT;
ALTER TABLE pins ADD COLUMN meta TEXT NOT NULL DEFAULT '{}';
ALTER TABLE pins ADD COLUMN origins TEXT NOT NULL DEFAULT '[]';
UPDATE pins SET
  request_id = gen_random_uuid()::text,
  created_ms = created_at * 1000 + LEAST(999, (
    SELECT count(*) FROM pins AS earlier WHERE earlier.account_id = pins.account_id AND earlier.created_at = pins.created_at AND earlier.id < pins.id
  ));
ALTER TABLE pins ALTER COLUMN request_id SET NOT NULL, ALTER COLUMN created_ms SET NOT NULL;
CREATE UNIQUE INDEX pins_request_id ON pins(request_id);
CREATE INDEX pins_account_created_ms ON pins(account_id, created_ms DESC);
`,
};
