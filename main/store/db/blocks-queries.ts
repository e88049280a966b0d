import { stmt, type Db } from './database.js';
import type { BlockLocation, NewBlockRow, StoredBlockRow, PackRow, PackRecords } from '../repositories/block-index.js';

/** Typed statements for the block index (migration 2). Multihashes are raw multihash bytes. */

interface RawLocation {
  pack_id: number;
  offset: number;
  length: number;
  created_at: number;
}

interface RawStored {
  multihash: Buffer;
  length: number;
  created_at: number;
}

interface RawPack {
  id: number;
  live_bytes: number;
  live_blocks: number;
  sealed: number;
  created_at: number;
}

export function findBlock(db: Db, multihash: Uint8Array): BlockLocation | undefined {
  const row = stmt(db, 'SELECT pack_id, offset, length, created_at FROM blocks WHERE multihash = ?').get(multihash) as RawLocation | undefined;
  if (row === undefined) return undefined;
  return { packId: row.pack_id, offset: row.offset, length: row.length, createdAt: row.created_at };
}

export function blockExists(db: Db, multihash: Uint8Array): boolean {
  return stmt(db, 'SELECT 1 FROM blocks WHERE multihash = ?').pluck().get(multihash) !== undefined;
}

/** Inserts a row unless the multihash is indexed already; returns whether it inserted. */
export function insertBlockIfAbsent(db: Db, row: NewBlockRow): boolean {
  const result = stmt(db, 'INSERT OR IGNORE INTO blocks (multihash, pack_id, offset, length, created_at) VALUES (?, ?, ?, ?, ?)').run(
    row.multihash,
    row.packId,
    row.offset,
    row.length,
    row.createdAt,
  );
  return result.changes === 1;
}

/** Moves `created_at` forward (never back); returns false when the block is not indexed. */
export function touchBlock(db: Db, multihash: Uint8Array, createdAt: number): boolean {
  const result = stmt(db, 'UPDATE blocks SET created_at = max(created_at, ?) WHERE multihash = ?').run(createdAt, multihash);
  return result.changes === 1;
}

/**
 * Deletes one row and returns where its bytes were, so pack accounting can follow. With `createdBefore`,
 * only a row older than that (unix seconds) goes: a block re-uploaded since GC listed it stays.
 */
export function deleteBlockRow(db: Db, multihash: Uint8Array, createdBefore?: number): { packId: number; length: number } | undefined {
  const row = (
    createdBefore === undefined
      ? stmt(db, 'DELETE FROM blocks WHERE multihash = ? RETURNING pack_id, length').get(multihash)
      : stmt(db, 'DELETE FROM blocks WHERE multihash = ? AND created_at < ? RETURNING pack_id, length').get(multihash, createdBefore)
  ) as { pack_id: number; length: number } | undefined;
  return row === undefined ? undefined : { packId: row.pack_id, length: row.length };
}

/** A page of the index in multihash order, starting after `after` (exclusive). */
export function listBlocksAfter(db: Db, after: Uint8Array | undefined, limit: number): StoredBlockRow[] {
  const rows = (
    after === undefined
      ? stmt(db, 'SELECT multihash, length, created_at FROM blocks ORDER BY multihash LIMIT ?').all(limit)
      : stmt(db, 'SELECT multihash, length, created_at FROM blocks WHERE multihash > ? ORDER BY multihash LIMIT ?').all(after, limit)
  ) as RawStored[];
  return rows.map((row) => ({ multihash: new Uint8Array(row.multihash), length: row.length, createdAt: row.created_at }));
}

/** Every live block of one pack, in file order (compaction copies them). */
export function listPackBlocks(db: Db, packId: number): Array<{ multihash: Uint8Array; offset: number; length: number }> {
  const rows = stmt(db, 'SELECT multihash, offset, length FROM blocks WHERE pack_id = ? ORDER BY offset').all(packId) as Array<{
    multihash: Buffer;
    offset: number;
    length: number;
  }>;
  return rows.map((row) => ({ multihash: new Uint8Array(row.multihash), offset: row.offset, length: row.length }));
}

/** Points a block at its new copy, only if it still lives where compaction read it. */
export function relocateBlock(db: Db, multihash: Uint8Array, from: { packId: number; offset: number }, to: { packId: number; offset: number }): boolean {
  const result = stmt(db, 'UPDATE blocks SET pack_id = ?, offset = ? WHERE multihash = ? AND pack_id = ? AND offset = ?').run(
    to.packId,
    to.offset,
    multihash,
    from.packId,
    from.offset,
  );
  return result.changes === 1;
}

export function createPack(db: Db, createdAt: number): number {
  const row = stmt(db, 'INSERT INTO block_packs (created_at) VALUES (?) RETURNING id').get(createdAt) as { id: number };
  return row.id;
}

export function sealPack(db: Db, packId: number): void {
  stmt(db, 'UPDATE block_packs SET sealed = 1 WHERE id = ?').run(packId);
}

/** Moves packs' `created_at` forward (never back): a writer's heartbeat on the packs it has not sealed yet. */
export function touchPacks(db: Db, packIds: readonly number[], createdAt: number): void {
  const touch = stmt(db, 'UPDATE block_packs SET created_at = MAX(created_at, ?) WHERE id = ?');
  for (const id of packIds) touch.run(createdAt, id);
}

/** Seals every pack still open for appends (only safe when no other process can be writing). */
export function sealAllPacks(db: Db): void {
  stmt(db, 'UPDATE block_packs SET sealed = 1 WHERE sealed = 0').run();
}

export function addPackLive(db: Db, packId: number, bytes: number, blocks: number): void {
  stmt(db, 'UPDATE block_packs SET live_bytes = live_bytes + ?, live_blocks = live_blocks + ? WHERE id = ?').run(bytes, blocks, packId);
}

export function packRecords(db: Db, packId: number): PackRecords {
  const row = stmt(
    db,
    `SELECT COUNT(*) AS blocks, COALESCE(SUM(length), 0) AS block_bytes, COALESCE(SUM(length(multihash)), 0) AS multihash_bytes,
       COALESCE(MAX(offset + length), 0) AS end_offset
     FROM blocks WHERE pack_id = ?`,
  ).get(packId) as { blocks: number; block_bytes: number; multihash_bytes: number; end_offset: number };
  return { blocks: row.blocks, blockBytes: row.block_bytes, multihashBytes: row.multihash_bytes, end: row.end_offset };
}

export function findPack(db: Db, packId: number): PackRow | undefined {
  const row = stmt(db, 'SELECT id, live_bytes, live_blocks, sealed, created_at FROM block_packs WHERE id = ?').get(packId) as RawPack | undefined;
  return row === undefined ? undefined : packRow(row);
}

export function deletePackRow(db: Db, packId: number): void {
  stmt(db, 'DELETE FROM block_packs WHERE id = ?').run(packId);
}

export function listPacks(db: Db): PackRow[] {
  const rows = stmt(db, 'SELECT id, live_bytes, live_blocks, sealed, created_at FROM block_packs ORDER BY id').all() as RawPack[];
  return rows.map(packRow);
}

function packRow(row: RawPack): PackRow {
  return { id: row.id, liveBytes: row.live_bytes, liveBlocks: row.live_blocks, sealed: row.sealed === 1, createdAt: row.created_at };
}

export function totalLiveBytes(db: Db): { bytes: number; blocks: number } {
  const row = stmt(db, 'SELECT COALESCE(SUM(live_bytes), 0) AS bytes, COALESCE(SUM(live_blocks), 0) AS blocks FROM block_packs').get() as {
    bytes: number;
    blocks: number;
  };
  return { bytes: row.bytes, blocks: row.blocks };
}
