import type { Migration } from './migration.js';

/**
 * Session keys (issue 12): access keys a one-time sign-in code creates for the browser, which expire.
 * `expires_at` is NULL for every ordinary key; a key with an expiry is a session key. The partial index
 * serves the sweep that deletes expired sessions without touching the ordinary keys.
 */
export const sessionKeysMigration: Migration = {
  version: 11,
  name: 'session-keys',
  sql: `
ALTER TABLE access_keys ADD COLUMN expires_at INTEGER;
CREATE INDEX access_keys_expiry ON access_keys(expires_at) WHERE expires_at IS NOT NULL;
`,
};
