import type { Migration } from './migration.js';

/**
 * IPNS names owned by accounts, and signed records of names we do not hold keys for (offline routing:
 * records put by the operator, e.g. the conformance fixtures), served as they are after validation.
 */
export const namesMigration: Migration = {
  version: 4,
  name: 'names',
  sql: `
CREATE TABLE ipns_names (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  -- canonical name: the key's CIDv1 (libp2p-key, base36)
  name TEXT NOT NULL UNIQUE,
  alias TEXT,
  key_type TEXT NOT NULL CHECK (key_type IN ('Ed25519', 'RSA')),
  -- libp2p PrivateKey protobuf sealed with AES-256-GCM under the master key, context 'ipns-key:<name>'
  key_sealed BLOB NOT NULL,
  -- the CID the record points to, as the client gave it (normalized text)
  value TEXT NOT NULL,
  seq INTEGER NOT NULL CHECK (seq >= 0),
  record BLOB NOT NULL,
  created_at INTEGER NOT NULL,
  publish_at INTEGER NOT NULL,
  UNIQUE (account_id, alias)
) STRICT;
CREATE INDEX ipns_names_account_created ON ipns_names(account_id, created_at DESC, id DESC);

CREATE TABLE ipns_routing_records (
  name TEXT PRIMARY KEY,
  record BLOB NOT NULL,
  stored_at INTEGER NOT NULL
) STRICT;
`,
};
