import type { Migration } from './migration.js';

/**
 * Usage per account per UTC day (issue 12), for the Overview's charts. Written in the transaction of the
 * usage counter write it mirrors: `ingress` and `egress` add up the day's increments; `pinned_bytes` and
 * `pinned_count` hold the counters' values at the day's last change. A day without a row had no change.
 * Accounts that already pin something start their series today with what they hold now.
 */
export const usageDailyMigration: Migration = {
  version: 12,
  name: 'usage-daily',
  sql: `
CREATE TABLE usage_daily (
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  -- 'YYYY-MM-DD', UTC
  day TEXT NOT NULL,
  ingress INTEGER NOT NULL DEFAULT 0,
  egress INTEGER NOT NULL DEFAULT 0,
  pinned_bytes INTEGER NOT NULL DEFAULT 0,
  pinned_count INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, day)
) STRICT, WITHOUT ROWID;
INSERT INTO usage_daily (account_id, day, pinned_bytes, pinned_count)
  SELECT account_id, strftime('%Y-%m-%d', 'now'), pinned_bytes, pinned_count FROM usage WHERE pinned_count != 0 OR pinned_bytes != 0;
`,
};
