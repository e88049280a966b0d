import type { Migration } from './migration.js';

/** Nonces of signed upload addresses already used, kept until they expire, so a replay fails even after a restart. */
export const uploadsMigration: Migration = {
  version: 7,
  name: 'uploads',
  sql: `
CREATE TABLE used_upload_nonces (
  nonce TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL
) STRICT;
CREATE INDEX used_upload_nonces_expiry ON used_upload_nonces(expires_at);
`,
};
