import type { Migration } from './migration.js';

/**
 * Ingress reserved by step 1 of an upload (contract section 4), one row per upload address: it counts
 * against the plan until step 2 settles it or the address expires. In the database, so a restart keeps it.
 */
export const uploadReservationsMigration: Migration = {
  version: 10,
  name: 'upload-reservations',
  sql: `
CREATE TABLE upload_reservations (
  nonce TEXT PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  -- The key that asked for the address: deleting it ends the address and its reservation.
  access_key TEXT NOT NULL,
  bytes INTEGER NOT NULL CHECK (bytes > 0),
  expires_at INTEGER NOT NULL
) STRICT;
CREATE INDEX upload_reservations_account ON upload_reservations(account_id, expires_at);
CREATE INDEX upload_reservations_expiry ON upload_reservations(expires_at);
CREATE INDEX upload_reservations_key ON upload_reservations(access_key);
`,
};
