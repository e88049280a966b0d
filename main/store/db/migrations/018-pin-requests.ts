import type { Migration } from './migration.js';

/**
 * What the IPFS Pinning Service API (`/psa`, issue 23) keeps with a pin:
 * - `request_id`: the pin's `requestid`, a random UUID, stable while the pin lives (a pin taken back from
 *   `unpinning` gets a new one: for the PSA it is a new pin request);
 * - `created_ms`: the pin's `created` in milliseconds, unique within its account (the PSA pages by it:
 *   `before` the oldest of a page), so a pin made in the same second as another is one millisecond later;
 * - `meta`: the PSA's `Pin.meta`, a JSON object of strings;
 * - `origins`: the HTTP(S) multiaddrs of `Pin.origins`, a JSON array, extra sources for the fetch.
 * Pins made before this step get a random v4 UUID each, and their millisecond by their order within their
 * second (id order, as the pin list orders them).
 */
export const pinRequestsMigration: Migration = {
  version: 18,
  name: 'pin-requests',
  sql: `
ALTER TABLE pins ADD COLUMN request_id TEXT NOT NULL DEFAULT '';
ALTER TABLE pins ADD COLUMN created_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE pins ADD COLUMN meta TEXT NOT NULL DEFAULT '{}';
ALTER TABLE pins ADD COLUMN origins TEXT NOT NULL DEFAULT '[]';
UPDATE pins SET
  request_id = lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' || substr(lower(hex(randomblob(2))), 2) || '-'
    || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))),
  created_ms = created_at * 1000 + min(999, (
    SELECT count(*) FROM pins AS earlier WHERE earlier.account_id = pins.account_id AND earlier.created_at = pins.created_at AND earlier.id < pins.id
  ));
CREATE UNIQUE INDEX pins_request_id ON pins(request_id);
CREATE INDEX pins_account_created_ms ON pins(account_id, created_ms DESC);
`,
};
