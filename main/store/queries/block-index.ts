import type { BlockLocation, NewBlockRow, PackRecords, PackRow, StoredBlockRow } from '../repositories/block-index.js';
import { flag, int, orUndefined, type Int } from '../sql/columns.js';
import { GREATEST, inList } from '../sql/dialects.js';
import { multihashKey } from '../../base/multihash-key.js';
import { exec, queryRow, queryRows, rows, statement, steps } from '../sql/query.js';
import { join, sql } from '../sql/sql.js';

/**
 * The block index (blocks, block_packs): BlockIndexRepository. Multihashes are raw multihash bytes, ordered
 * bytewise on both engines (SQLite's BLOB, PostgreSQL's bytea). `offset` is quoted: PostgreSQL reserves it.
 */

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
  sealed: Int;
  created_at: Int;
}

/** Where a block is: asked for every block a read or a DAG walk meets (the hottest query of the store). */
export const findBlock = queryRow(
  (multihash: Uint8Array) => sql`SELECT pack_id, "offset", length, created_at FROM blocks WHERE multihash = ${multihash}`,
  orUndefined((raw: RawLocation): BlockLocation => ({
    packId: int(raw.pack_id),
    offset: int(raw.offset),
    length: int(raw.length),
    createdAt: int(raw.created_at),
  })),
);

export const blockExists = queryRow(
  (multihash: Uint8Array) => sql`SELECT 1 AS one FROM blocks WHERE multihash = ${multihash}`,
  (raw) => raw !== undefined,
);

/** Inserts a row unless the multihash is indexed already; returns whether it inserted. */
export const insertBlockIfAbsent = statement(
  (block: NewBlockRow) =>
    sql`INSERT INTO blocks (multihash, pack_id, "offset", length, created_at)
        VALUES (${block.multihash}, ${block.packId}, ${block.offset}, ${block.length}, ${block.createdAt}) ON CONFLICT DO NOTHING`,
  (changes) => changes === 1,
);

/** Rows one statement of indexBlocks writes at most: 5 parameters a row, well under SQLite's 32,766. */
const INDEXED_PER_STATEMENT = 500;

/**
 * Indexes many blocks in a statement a few hundred: a row is inserted unless its multihash is indexed
 * already, and then the indexed row's `created_at` moves forward instead (never back). An upsert is atomic
 * against a GC delete running beside it: the delete either went first (this row is inserted) or finds the
 * row fresh. Answers, in the rows' order, whether each was inserted; one not inserted is a dead copy.
 */
export const indexBlocks = steps(
  function* (blocks: readonly NewBlockRow[]) {
    const inserted: boolean[] = [];
    for (let start = 0; start < blocks.length; start += INDEXED_PER_STATEMENT) {
      const run = blocks.slice(start, start + INDEXED_PER_STATEMENT);
      const values = join(
        run.map((block) => sql`(${block.multihash}, ${block.packId}, ${block.offset}, ${block.length}, ${block.createdAt})`),
        ', ',
      );
      const answered = yield* rows<{ multihash: Buffer; pack_id: Int; offset: Int }>(
        sql`INSERT INTO blocks (multihash, pack_id, "offset", length, created_at) VALUES ${values}
            ON CONFLICT (multihash) DO UPDATE SET created_at = ${GREATEST}(blocks.created_at, excluded.created_at)
            RETURNING multihash, pack_id, "offset"`,
      );
      // RETURNING's order is not promised: rows are matched by multihash, and a row whose place is this
      // block's was inserted by this statement (a pack's offsets are its own, one block each).
      const places = new Map(answered.map((raw) => [multihashKey(raw.multihash), raw]));
      for (const block of run) {
        const place = places.get(multihashKey(block.multihash));
        inserted.push(place !== undefined && int(place.pack_id) === block.packId && int(place.offset) === block.offset);
      }
    }
    return inserted;
  },
  { atomic: false },
);

/** Moves `created_at` forward (never back); returns false when the block is not indexed. */
export const touchBlock = statement(
  (multihash: Uint8Array, createdAt: number) => sql`UPDATE blocks SET created_at = ${GREATEST}(created_at, ${createdAt}) WHERE multihash = ${multihash}`,
  (changes) => changes === 1,
);

/**
 * Deletes one row and returns where its bytes were, so pack accounting can follow. With `createdBefore`,
 * only a row older than that (unix seconds) goes: a block re-uploaded since GC listed it stays.
 */
export const deleteBlockRow = queryRow(
  (multihash: Uint8Array, createdBefore?: number) =>
    createdBefore === undefined
      ? sql`DELETE FROM blocks WHERE multihash = ${multihash} RETURNING pack_id, length`
      : sql`DELETE FROM blocks WHERE multihash = ${multihash} AND created_at < ${createdBefore} RETURNING pack_id, length`,
  orUndefined((raw: { pack_id: Int; length: Int }) => ({ packId: int(raw.pack_id), length: int(raw.length) })),
);

/** A page of the index in multihash order, starting after `after` (exclusive). */
export const listBlocksAfter = queryRows(
  (after: Uint8Array | undefined, limit: number) =>
    after === undefined
      ? sql`SELECT multihash, length, created_at FROM blocks ORDER BY multihash LIMIT ${limit}`
      : sql`SELECT multihash, length, created_at FROM blocks WHERE multihash > ${after} ORDER BY multihash LIMIT ${limit}`,
  (raw: RawStored): StoredBlockRow => ({ multihash: new Uint8Array(raw.multihash), length: int(raw.length), createdAt: int(raw.created_at) }),
);

/** Every live block of one pack, in file order (compaction copies them). */
export const listPackBlocks = queryRows(
  (packId: number) => sql`SELECT multihash, "offset", length FROM blocks WHERE pack_id = ${packId} ORDER BY "offset"`,
  (raw: { multihash: Buffer; offset: Int; length: Int }) => ({ multihash: new Uint8Array(raw.multihash), offset: int(raw.offset), length: int(raw.length) }),
);

/** Points a block at its new copy, only if it still lives where compaction read it. */
export const relocateBlock = statement(
  (multihash: Uint8Array, from: { packId: number; offset: number }, to: { packId: number; offset: number }) =>
    sql`UPDATE blocks SET pack_id = ${to.packId}, "offset" = ${to.offset} WHERE multihash = ${multihash} AND pack_id = ${from.packId} AND "offset" = ${from.offset}`,
  (changes) => changes === 1,
);

export const createPack = queryRow(
  (createdAt: number) => sql`INSERT INTO block_packs (created_at) VALUES (${createdAt}) RETURNING id`,
  (raw: { id: Int } | undefined) => {
    if (raw === undefined) throw new Error('INSERT … RETURNING answered no row');
    return int(raw.id);
  },
);

export const sealPack = statement((packId: number) => sql`UPDATE block_packs SET sealed = 1 WHERE id = ${packId}`);

/** Moves packs' `created_at` forward (never back): a writer's heartbeat on the packs it has not sealed yet. */
export const touchPacks = steps(
  function* (packIds: readonly number[], createdAt: number) {
    if (packIds.length === 0) return;
    yield* exec(sql`UPDATE block_packs SET created_at = ${GREATEST}(created_at, ${createdAt}) WHERE ${inList(sql`id`, packIds, 'bigint')}`);
  },
  { atomic: false },
);

/** Seals every pack still open for appends (only safe when no other process can be writing). */
export const sealAllPacks = statement(() => sql`UPDATE block_packs SET sealed = 1 WHERE sealed = 0`);

/** Moves a pack's live counters in one statement: concurrent writers add, never overwrite each other. */
export const addPackLive = statement(
  (packId: number, bytes: number, blocks: number) =>
    sql`UPDATE block_packs SET live_bytes = live_bytes + ${bytes}, live_blocks = live_blocks + ${blocks} WHERE id = ${packId}`,
);

export const packRecords = queryRow(
  (packId: number) =>
    sql`SELECT COUNT(*) AS blocks, COALESCE(SUM(length), 0) AS block_bytes, COALESCE(SUM(octet_length(multihash)), 0) AS multihash_bytes,
          COALESCE(MAX("offset" + length), 0) AS end_offset
        FROM blocks WHERE pack_id = ${packId}`,
  (raw: { blocks: Int; block_bytes: Int; multihash_bytes: Int; end_offset: Int } | undefined): PackRecords => {
    if (raw === undefined) throw new Error('an aggregate answered no row');
    return { blocks: int(raw.blocks), blockBytes: int(raw.block_bytes), multihashBytes: int(raw.multihash_bytes), end: int(raw.end_offset) };
  },
);

function toPack(raw: RawPack): PackRow {
  return { id: int(raw.id), liveBytes: int(raw.live_bytes), liveBlocks: int(raw.live_blocks), sealed: flag(raw.sealed), createdAt: int(raw.created_at) };
}

export const findPack = queryRow(
  (packId: number) => sql`SELECT id, live_bytes, live_blocks, sealed, created_at FROM block_packs WHERE id = ${packId}`,
  orUndefined(toPack),
);

export const deletePackRow = statement((packId: number) => sql`DELETE FROM block_packs WHERE id = ${packId}`);

export const listPacks = queryRows(() => sql`SELECT id, live_bytes, live_blocks, sealed, created_at FROM block_packs ORDER BY id`, toPack);

export const totalLiveBytes = queryRow(
  () => sql`SELECT COALESCE(SUM(live_bytes), 0) AS bytes, COALESCE(SUM(live_blocks), 0) AS blocks FROM block_packs`,
  (raw: { bytes: Int; blocks: Int } | undefined) => {
    if (raw === undefined) throw new Error('an aggregate answered no row');
    return { bytes: int(raw.bytes), blocks: int(raw.blocks) };
  },
);
