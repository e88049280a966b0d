import type { CompactOptions, CompactResult } from '../blocks.js';
import type { BlockIndexStore } from '../blockstore/blockstore.js';
import { PACK_MAGIC, recordHeaderLength, recordsBytes } from '../blockstore/pack-format.js';
import type { PackRow } from '../repositories/block-index.js';
import type { PackSpool } from './pack-spool.js';
import type { S3Bucket } from './s3-bucket.js';
import { inMultihashOrder } from '../row-order.js';

export interface ObjectCompactionHost {
  bucket: S3Bucket;
  store: BlockIndexStore;
  now(): number;
  newSpool(): Promise<PackSpool>;
  upload(spool: PackSpool): Promise<void>;
  orphanGraceSeconds: number;
}

const DEFAULT_MAX_LIVE_RATIO = 0.5;

/**
 * One pass over the pack rows of the object store:
 * - an unsealed pack whose heartbeat (created_at) is older than the orphan grace belongs to a batch that
 *   will never commit (its instance died): its object goes, then its row;
 * - a sealed pack with nothing live: its object goes, then its row;
 * - a sealed pack whose live records are under `maxLiveRatio` of its object: its live blocks are copied
 *   into a new pack object, each row moved by compare-and-set (a block GC deleted meanwhile stays dead in
 *   the copy), and the old pack goes once nothing live is left in it.
 * Objects go before rows: a crash between leaves a row the next pass retries, never an object nobody
 * lists. A reader that looked a block up in a pack being deleted looks it up once more.
 */
export async function compactObjectPacks(host: ObjectCompactionHost, options: CompactOptions): Promise<CompactResult> {
  const index = host.store.blockIndex;
  const maxLiveRatio = options.maxLiveRatio ?? DEFAULT_MAX_LIVE_RATIO;
  const orphanBefore = host.now() - host.orphanGraceSeconds;
  let packsCompacted = 0;
  let bytesReclaimed = 0;
  for (const pack of await index.listPacks()) {
    options.signal?.throwIfAborted();
    if (!pack.sealed) {
      if (pack.createdAt >= orphanBefore) continue;
      bytesReclaimed += await deletePack(host, pack.id);
      packsCompacted++;
      continue;
    }
    if (pack.liveBlocks === 0) {
      bytesReclaimed += await deletePack(host, pack.id);
      packsCompacted++;
      continue;
    }
    const objectBytes = await host.bucket.size(host.bucket.packKey(pack.id));
    // A missing object with blocks indexed in it is damage to report, not space to reclaim.
    if (objectBytes === undefined) continue;
    const liveRecordBytes = recordsBytes(await index.packRecords(pack.id));
    if (liveRecordBytes >= (objectBytes - PACK_MAGIC.length) * maxLiveRatio) continue;
    const moved = await rewritePack(host, pack, options);
    const still = await index.findPack(pack.id);
    if (still !== undefined && still.liveBlocks > 0) continue;
    await deletePack(host, pack.id);
    packsCompacted++;
    bytesReclaimed += objectBytes - moved;
  }
  return { packsCompacted, bytesReclaimed };
}

/** Deletes a pack's object, then its row; returns the object's bytes. */
async function deletePack(host: ObjectCompactionHost, packId: number): Promise<number> {
  const key = host.bucket.packKey(packId);
  const bytes = (await host.bucket.size(key)) ?? 0;
  await host.bucket.delete(key);
  await host.store.blockIndex.deletePackRow(packId);
  return bytes;
}

/** Copies a pack's live blocks into a new pack object and moves their rows; returns the record bytes moved. */
async function rewritePack(host: ObjectCompactionHost, pack: PackRow, options: CompactOptions): Promise<number> {
  const index = host.store.blockIndex;
  const rows = await index.listPackBlocks(pack.id);
  const spool = await host.newSpool();
  const copies: Array<{ multihash: Uint8Array; from: number; to: number; length: number }> = [];
  try {
    for (const row of rows) {
      options.signal?.throwIfAborted();
      // One block in memory at a time (at most maxBlockBytes): the copy streams through the spool file.
      const bytes = await host.bucket.readRange(host.bucket.packKey(pack.id), row.offset, row.length);
      if (bytes === undefined) throw new Error(`pack ${pack.id} vanished while it was being compacted`);
      const { offset, written } = spool.append(row.multihash, bytes);
      await written;
      copies.push({ multihash: row.multihash, from: row.offset, to: offset, length: row.length });
    }
    await host.upload(spool);
  } catch (error) {
    await spool.remove();
    await host.bucket.delete(host.bucket.packKey(spool.packId)).catch(() => undefined);
    await index.deletePackRow(spool.packId).catch(() => undefined);
    throw error;
  }
  const moved = await host.store.transaction(async (tx) => {
    // Row order (row-order.ts): the blocks, then the old pack before the new one (ids only grow).
    const inOrder = inMultihashOrder(copies, (copy) => copy.multihash);
    const stood = await Promise.all(
      inOrder.map(async (copy) =>
        tx.blockIndex.relocateBlock(copy.multihash, { packId: pack.id, offset: copy.from }, { packId: spool.packId, offset: copy.to }),
      ),
    );
    const done = inOrder.filter((_, i) => stood[i] === true);
    const bytes = done.reduce((sum, copy) => sum + copy.length, 0);
    await Promise.all([
      tx.blockIndex.addPackLive(pack.id, -bytes, -done.length),
      tx.blockIndex.addPackLive(spool.packId, bytes, done.length),
      tx.blockIndex.sealPack(spool.packId),
    ]);
    return done;
  });
  return moved.reduce((sum, copy) => sum + copy.length + recordHeaderLength(copy.multihash.byteLength), 0);
}
