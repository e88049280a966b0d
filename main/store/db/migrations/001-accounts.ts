import type { Migration } from './migration.js';

export const accountsMigration: Migration = {
  version: 1,
  name: 'accounts',
  sql: `
CREATE TABLE accounts (
  id INTEGER PRIMARY KEY,
  uuid TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  provider TEXT NOT NULL,
  is_owner INTEGER NOT NULL DEFAULT 0 CHECK (is_owner IN (0, 1)),
  is_partner INTEGER NOT NULL DEFAULT 0 CHECK (is_partner IN (0, 1)),
  partner_id INTEGER REFERENCES accounts(id),
  plan_id INTEGER NOT NULL,
  next_plan_id INTEGER NOT NULL,
  balance_cents INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX accounts_partner ON accounts(partner_id);

CREATE TABLE access_keys (
  access_key TEXT PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  name TEXT NOT NULL,
  permissions TEXT NOT NULL,
  secret_sealed BLOB NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (account_id, name)
) STRICT;

-- One row per account. ingress/egress belong to the billing month starting at period_start;
-- pinned_count, pinned_bytes and ipns_count are kept exact by the pins and names domains in the
-- same transaction as the change they count.
CREATE TABLE usage (
  account_id INTEGER PRIMARY KEY REFERENCES accounts(id),
  period_start INTEGER NOT NULL,
  ingress INTEGER NOT NULL DEFAULT 0,
  egress INTEGER NOT NULL DEFAULT 0,
  pinned_count INTEGER NOT NULL DEFAULT 0,
  pinned_bytes INTEGER NOT NULL DEFAULT 0,
  ipns_count INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE TABLE ledger (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  amount_cents INTEGER NOT NULL,
  balance_after_cents INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('plan_fee', 'credit')),
  subject_account_id INTEGER REFERENCES accounts(id),
  plan_id INTEGER,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX ledger_account ON ledger(account_id, id);
`,
};
