import type { BlockLocation, NewBlockRow, PackRecords, PackRow, StoredBlockRow } from '../repositories/block-index.js';
import { changed, int, row, rows, type Queryable } from './queryable.js';

/** The block index (blocks, block_packs): the PostgreSQL side of BlockIndexRepository. Multihashes are bytea. */

type Int = string | number;

interface RawLocation {
  pack_id: Int;
  offset: Int;
  length: Int;
  created_at: Int;
}

interface RawStored {
  multihash: Buffer;
  length: Int;
  created_at: Int;
}

interface RawPack {
  id: Int;
  live_bytes: Int;
  live_blocks: Int;
  sealed: number;
  created_at: Int;
}

/** A multihash as a bytea parameter (a Buffer over the same bytes, no copy). */
function bytea(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export async function findBlock(q: Queryable, multihash: Uint8Array): Promise<BlockLocation | undefined> {
  const found = await row<RawLocation>(q, 'SELECT pack_id, "offset", length, created_at FROM blocks WHERE multihash = $1', [bytea(multihash)]);
  if (found === null) return undefined;
  return { packId: int(found.pack_id), offset: int(found.offset), length: int(found.length), createdAt: int(found.created_at) };
}

export async function blockExists(q: Queryable, multihash: Uint8Array): Promise<boolean> {
  return (await row(q, 'SELECT 1 AS one FROM blocks WHERE multihash = $1', [bytea(multihash)])) !== null;
}

/** Inserts a row unless the multihash is indexed already; returns whether it inserted. */
export async function insertBlockIfAbsent(q: Queryable, block: NewBlockRow): Promise<boolean> {
  return (
    (await changed(q, 'INSERT INTO blocks (multihash, pack_id, "offset", length, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING', [
      bytea(block.multihash),
      block.packId,
      block.offset,
      block.length,
      block.createdAt,
    ])) === 1
  );
}

/** Moves `created_at` forward (never back); returns false when the block is not indexed. */
export async function touchBlock(q: Queryable, multihash: Uint8Array, createdAt: number): Promise<boolean> {
  return (await changed(q, 'UPDATE blocks SET created_at = GREATEST(created_at, $1) WHERE multihash = $2', [createdAt, bytea(multihash)])) === 1;
}

/**
 * Deletes one row and returns where its bytes were, so pack accounting can follow. With `createdBefore`,
 * only a row older than that (unix seconds) goes: a block re-uploaded since GC listed it stays.
 */
export async function deleteBlockRow(q: Queryable, multihash: Uint8Array, createdBefore?: number): Promise<{ packId: number; length: number } | undefined> {
  const deleted =
    createdBefore === undefined
      ? await row<{ pack_id: Int; length: Int }>(q, 'DELETE FROM blocks WHERE multihash = $1 RETURNING pack_id, length', [bytea(multihash)])
      : await row<{ pack_id: Int; length: Int }>(q, 'DELETE FROM blocks WHERE multihash = $1 AND created_at < $2 RETURNING pack_id, length', [
          bytea(multihash),
          createdBefore,
        ]);
  return deleted === null ? undefined : { packId: int(deleted.pack_id), length: int(deleted.length) };
}

/** A page of the index in multihash order (bytewise, as SQLite's BLOB order), starting after `after` (exclusive). */
export async function listBlocksAfter(q: Queryable, after: Uint8Array | undefined, limit: number): Promise<StoredBlockRow[]> {
  const found =
    after === undefined
      ? await rows<RawStored>(q, 'SELECT multihash, length, created_at FROM blocks ORDER BY multihash LIMIT $1', [limit])
      : await rows<RawStored>(q, 'SELECT multihash, length, created_at FROM blocks WHERE multihash > $1 ORDER BY multihash LIMIT $2', [bytea(after), limit]);
  return found.map((r) => ({ multihash: new Uint8Array(r.multihash), length: int(r.length), createdAt: int(r.created_at) }));
}

/** Every live block of one pack, in file order (compaction copies them). */
export async function listPackBlocks(q: Queryable, packId: number): Promise<Array<{ multihash: Uint8Array; offset: number; length: number }>> {
  const found = await rows<{ multihash: Buffer; offset: Int; length: Int }>(
    q,
    'SELECT multihash, "offset", length FROM blocks WHERE pack_id = $1 ORDER BY "offset"',
    [packId],
  );
  return found.map((r) => ({ multihash: new Uint8Array(r.multihash), offset: int(r.offset), length: int(r.length) }));
}

/** Points a block at its new copy, only if it still lives where compaction read it. */
export async function relocateBlock(
  q: Queryable,
  multihash: Uint8Array,
  from: { packId: number; offset: number },
  to: { packId: number; offset: number },
): Promise<boolean> {
  return (
    (await changed(q, 'UPDATE blocks SET pack_id = $1, "offset" = $2 WHERE multihash = $3 AND pack_id = $4 AND "offset" = $5', [
      to.packId,
      to.offset,
      bytea(multihash),
      from.packId,
      from.offset,
    ])) === 1
  );
}

export async function createPack(q: Queryable, createdAt: number): Promise<number> {
  const created = await row<{ id: Int }>(q, 'INSERT INTO block_packs (created_at) VALUES ($1) RETURNING id', [createdAt]);
  if (created === null) throw new Error('a pack row vanished after insert');
  return int(created.id);
}

export async function sealPack(q: Queryable, packId: number): Promise<void> {
  await q.query('UPDATE block_packs SET sealed = 1 WHERE id = $1', [packId]);
}

/** Moves packs' `created_at` forward (never back): a writer's heartbeat on the packs it has not sealed yet. */
export async function touchPacks(q: Queryable, packIds: readonly number[], createdAt: number): Promise<void> {
  if (packIds.length === 0) return;
  await q.query('UPDATE block_packs SET created_at = GREATEST(created_at, $1) WHERE id = ANY($2::bigint[])', [createdAt, [...packIds]]);
}

/** Seals every pack still open for appends (only safe when no other process can be writing). */
export async function sealAllPacks(q: Queryable): Promise<void> {
  await q.query('UPDATE block_packs SET sealed = 1 WHERE sealed = 0');
}

/** Moves a pack's live counters in one statement: concurrent writers add, never overwrite each other. */
export async function addPackLive(q: Queryable, packId: number, bytes: number, blocks: number): Promise<void> {
  await q.query('UPDATE block_packs SET live_bytes = live_bytes + $1, live_blocks = live_blocks + $2 WHERE id = $3', [bytes, blocks, packId]);
}

export async function packRecords(q: Queryable, packId: number): Promise<PackRecords> {
  const found = await row<{ blocks: Int; block_bytes: Int; multihash_bytes: Int; end_offset: Int }>(
    q,
    `SELECT COUNT(*) AS blocks, COALESCE(SUM(length), 0) AS block_bytes, COALESCE(SUM(octet_length(multihash)), 0) AS multihash_bytes,
       COALESCE(MAX("offset" + length), 0) AS end_offset
     FROM blocks WHERE pack_id = $1`,
    [packId],
  );
  if (found === null) throw new Error('an aggregate answered no row');
  return { blocks: int(found.blocks), blockBytes: int(found.block_bytes), multihashBytes: int(found.multihash_bytes), end: int(found.end_offset) };
}

export async function findPack(q: Queryable, packId: number): Promise<PackRow | undefined> {
  const found = await row<RawPack>(q, 'SELECT id, live_bytes, live_blocks, sealed, created_at FROM block_packs WHERE id = $1', [packId]);
  return found === null ? undefined : packRow(found);
}

export async function deletePackRow(q: Queryable, packId: number): Promise<void> {
  await q.query('DELETE FROM block_packs WHERE id = $1', [packId]);
}

export async function listPacks(q: Queryable): Promise<PackRow[]> {
  return (await rows<RawPack>(q, 'SELECT id, live_bytes, live_blocks, sealed, created_at FROM block_packs ORDER BY id')).map(packRow);
}

function packRow(r: RawPack): PackRow {
  return { id: int(r.id), liveBytes: int(r.live_bytes), liveBlocks: int(r.live_blocks), sealed: r.sealed === 1, createdAt: int(r.created_at) };
}

export async function totalLiveBytes(q: Queryable): Promise<{ bytes: number; blocks: number }> {
  const found = await row<{ bytes: Int; blocks: Int }>(
    q,
    'SELECT COALESCE(SUM(live_bytes), 0) AS bytes, COALESCE(SUM(live_blocks), 0) AS blocks FROM block_packs',
  );
  if (found === null) throw new Error('an aggregate answered no row');
  return { bytes: int(found.bytes), blocks: int(found.blocks) };
}
