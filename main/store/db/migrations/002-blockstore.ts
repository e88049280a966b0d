import type { Migration } from './migration.js';

/**
 * The block index. Block bytes live in append-only pack files beside the database; a row exists only
 * after its bytes were fsynced, so every row points at durable bytes. Keyed by multihash (as Kubo does):
 * any CID with the same multihash finds the block.
 */
export const blockstoreMigration: Migration = {
  version: 2,
  name: 'blockstore',
  sql: `
CREATE TABLE block_packs (
  id INTEGER PRIMARY KEY,
  live_bytes INTEGER NOT NULL DEFAULT 0,
  live_blocks INTEGER NOT NULL DEFAULT 0,
  sealed INTEGER NOT NULL DEFAULT 0 CHECK (sealed IN (0, 1)),
  created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE blocks (
  multihash BLOB PRIMARY KEY,
  pack_id INTEGER NOT NULL,
  offset INTEGER NOT NULL,
  length INTEGER NOT NULL,
  created_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX blocks_pack ON blocks(pack_id);
`,
};
