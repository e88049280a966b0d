import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CID } from 'multiformats/cid';
import type { S3Target } from '../../base/backend-urls.js';
import { systemClock, unixSeconds, type Clock } from '../../base/clock.js';
import { createLogger, type Logger } from '../../base/logger.js';
import { multihashKey } from '../../base/multihash-key.js';
import { BlockSurface, collect, rawCid, type BlockIndexStore } from '../block-surface.js';
import type { AbortOptions, Blocks, CompactOptions, CompactResult } from '../blocks.js';
import type { BlockLocation } from '../repositories/block-index.js';
import type { Transaction } from '../repositories/index.js';
import { compactObjectPacks } from './object-compaction.js';
import { ObjectBatch, type ObjectBatchHost, type SpooledBlock } from './object-batch.js';
import { PackSpool } from './pack-spool.js';
import { openS3Bucket, type S3Bucket, type S3Credentials } from './s3-bucket.js';
import { inMultihashOrder, inPackOrder } from '../row-order.js';

export interface ObjectBlockstoreInit {
  clock?: Clock;
  /** A batch's spool goes up as one object once it reaches this size. Default 64 MiB. */
  packSizeBytes?: number;
  /** Largest block accepted. Default 8 MiB (go-car's section limit). */
  maxBlockBytes?: number;
  /** How often an open batch heart-beats its unsealed packs. Default 60 s (the orphan grace is far longer). */
  leaseRenewSeconds?: number;
  /** An unsealed pack whose heartbeat is older than this is an orphan that compaction deletes. Default 3600 s. */
  orphanGraceSeconds?: number;
  /** Where spool files are written (a private folder is made inside). Default: the OS temp folder. */
  spoolDir?: string;
  /** Keys given in code (tests, embedders); otherwise the SDK's default chain (environment, files). */
  credentials?: S3Credentials;
  logger?: Logger;
}

const DEFAULT_PACK_SIZE = 64 * 1024 * 1024;
const DEFAULT_MAX_BLOCK = 8 * 1024 * 1024;
const DEFAULT_LEASE_RENEW_SECONDS = 60;
const DEFAULT_ORPHAN_GRACE_SECONDS = 3600;

/**
 * Opens the block store of the scale-out mode: pack objects in an S3 bucket (created when missing),
 * indexed in `store`'s BlockIndexRepository (PostgreSQL there, so every instance sees one index).
 */
export async function openObjectBlockstore(target: S3Target, store: BlockIndexStore, init: ObjectBlockstoreInit = {}): Promise<ObjectBlockstore> {
  const bucket = await openS3Bucket(target, init.credentials);
  let spoolDir: string;
  try {
    spoolDir = await mkdtemp(join(init.spoolDir ?? tmpdir(), 'pinfold-spool-'));
  } catch (error) {
    bucket.destroy();
    throw error;
  }
  return new ObjectBlockstore(bucket, store, spoolDir, init);
}

/**
 * Blocks keyed by multihash, packed into objects of an S3-compatible store. Why packs and not one object
 * per block: a PUT costs milliseconds on any store (3–15 ms on Ceph RGW), a record appended to a spool
 * file costs microseconds (test/bench/s3-layout.ts measures both). Reads are ranged GETs of the record's
 * bytes, small blocks kept in a read cache. Space: dead records (GC) stay in their pack until compaction
 * rewrites the pack (live share under half) or deletes it (nothing live); an interrupted batch's packs
 * stay unsealed and are swept once their heartbeat is older than `orphanGraceSeconds`.
 */
export class ObjectBlockstore extends BlockSurface<ObjectBatch> implements Blocks, ObjectBatchHost {
  readonly maxBlockBytes: number;
  readonly packSizeBytes: number;
  readonly leaseRenewMs: number;
  private readonly orphanGraceSeconds: number;
  private readonly clock: Clock;
  private readonly logger: Logger;
  /** Clean-ups of aborted batches still running (close waits for them). */
  private readonly discarding = new Set<Promise<void>>();
  private compactions: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly bucket: S3Bucket,
    store: BlockIndexStore,
    private readonly spoolDir: string,
    init: ObjectBlockstoreInit,
  ) {
    super(store);
    this.clock = init.clock ?? systemClock;
    this.logger = init.logger ?? createLogger('error');
    this.packSizeBytes = init.packSizeBytes ?? DEFAULT_PACK_SIZE;
    this.maxBlockBytes = init.maxBlockBytes ?? DEFAULT_MAX_BLOCK;
    this.leaseRenewMs = (init.leaseRenewSeconds ?? DEFAULT_LEASE_RENEW_SECONDS) * 1000;
    this.orphanGraceSeconds = init.orphanGraceSeconds ?? DEFAULT_ORPHAN_GRACE_SECONDS;
  }

  protected newBatch(): ObjectBatch {
    return new ObjectBatch(this);
  }

  /** Verifies and stores one block (a batch of one), durable and visible when the promise resolves. */
  async put(cid: CID, bytes: Uint8Array | Iterable<Uint8Array> | AsyncIterable<Uint8Array>, options?: AbortOptions): Promise<CID> {
    const block = bytes instanceof Uint8Array ? bytes : await collect(bytes);
    if (!this.verifiedForStoring(cid, block)) return cid;
    const batch = this.createBatch();
    try {
      await batch.putTrusted(cid, block, options);
      await batch.commit();
    } finally {
      batch.abort();
    }
    return cid;
  }

  /** The block's place in the index (PostgreSQL, shared by every instance: always asked). */
  protected locate(multihash: Uint8Array): Promise<BlockLocation | undefined> {
    return this.index.findBlock(multihash);
  }

  /**
   * Removes index rows in one transaction (GC sweep); the bytes become dead space that compact() reclaims.
   * With `createdBefore`, only rows older than that go, checked in the delete itself: a block a batch on
   * any instance touched since GC listed it survives. Blocks a batch of this process holds are kept too.
   */
  async deleteMultihashes(multihashes: Iterable<Uint8Array>, options: { createdBefore?: number } = {}): Promise<number> {
    this.assertOpen();
    const candidates = [...multihashes];
    const removed = await this.store.transaction(async (tx) => {
      const unleased = inMultihashOrder(
        candidates.filter((multihash) => !this.leases.has(multihashKey(multihash))),
        (multihash) => multihash,
      );
      const rows = await Promise.all(unleased.map(async (multihash) => tx.blockIndex.deleteBlockRow(multihash, options.createdBefore)));
      const gone: Uint8Array[] = [];
      const byPack = new Map<number, { bytes: number; blocks: number }>();
      rows.forEach((row, i) => {
        if (row === undefined) return;
        gone.push(unleased[i] as Uint8Array);
        const entry = byPack.get(row.packId) ?? { bytes: 0, blocks: 0 };
        entry.bytes += row.length;
        entry.blocks += 1;
        byPack.set(row.packId, entry);
      });
      await Promise.all(
        inPackOrder(byPack.keys()).map(async (packId) => {
          const entry = byPack.get(packId) as { bytes: number; blocks: number };
          return tx.blockIndex.addPackLive(packId, -entry.bytes, -entry.blocks);
        }),
      );
      return gone;
    });
    for (const multihash of removed) this.cache.delete(multihashKey(multihash));
    if (removed.length > 0) this.removedBatches++;
    return removed.length;
  }

  /**
   * Deletes packs with nothing live, rewrites sealed packs whose live share is under `maxLiveRatio`, and
   * sweeps orphans (unsealed packs whose heartbeat is older than the orphan grace). One at a time here;
   * across instances, only the GC leader compacts.
   */
  async compact(options: CompactOptions = {}): Promise<CompactResult> {
    this.assertOpen();
    const run = this.compactions.then(async () =>
      compactObjectPacks(
        {
          bucket: this.bucket,
          store: this.store,
          now: () => this.now(),
          newSpool: () => this.newSpool(),
          upload: (spool) => this.upload(spool),
          orphanGraceSeconds: this.orphanGraceSeconds,
        },
        options,
      ),
    );
    this.compactions = run.catch(() => undefined);
    return run;
  }

  /** Resolves once no aborted batch is still cleaning up. */
  async idle(): Promise<void> {
    while (this.discarding.size > 0) await Promise.all([...this.discarding]);
  }

  /** Aborts open batches, waits for their clean-up and any compaction, lets go of the connections. */
  async close(): Promise<void> {
    if (this.closed) return;
    for (const batch of [...this.batches]) batch.abort();
    await this.idle();
    await this.compactions;
    this.closed = true;
    this.bucket.destroy();
    await rm(this.spoolDir, { recursive: true, force: true });
  }

  // ObjectBatchHost: the store side of staging.

  async renew(packIds: readonly number[]): Promise<void> {
    await this.index.touchPacks(packIds, this.now());
  }

  async isIndexed(multihash: Uint8Array): Promise<boolean> {
    this.assertOpen();
    return this.index.blockExists(multihash);
  }

  async newSpool(): Promise<PackSpool> {
    this.assertOpen();
    const packId = await this.index.createPack(this.now());
    try {
      return await PackSpool.create(this.spoolDir, packId);
    } catch (error) {
      await this.index.deletePackRow(packId).catch(() => undefined);
      throw error;
    }
  }

  async upload(spool: PackSpool): Promise<void> {
    await spool.finish();
    await this.bucket.putFile(this.bucket.packKey(spool.packId), spool.path, spool.end);
    await spool.remove();
  }

  async indexBatch(staged: readonly SpooledBlock[], packIds: readonly number[], alongside?: (tx: Transaction) => Promise<void>): Promise<void> {
    this.assertOpen();
    const now = this.now();
    await this.store.transaction(async (tx) => {
      const index = tx.blockIndex;
      // Issued in row order (row-order.ts): the blocks, then the packs.
      const blocks = inMultihashOrder(staged, (block) => block.multihash);
      // A block indexed already (another batch's copy) keeps that copy, touched; this batch's is dead space.
      const inserted = await index.indexBlocks(
        blocks.map((block) => ({ multihash: block.multihash, packId: block.packId, offset: block.offset, length: block.length, createdAt: now })),
      );
      const added = new Map<number, { bytes: number; blocks: number }>();
      blocks.forEach((block, i) => {
        if (inserted[i] !== true) return;
        const entry = added.get(block.packId) ?? { bytes: 0, blocks: 0 };
        entry.bytes += block.length;
        entry.blocks += 1;
        added.set(block.packId, entry);
      });
      const sealing = new Set(packIds);
      await Promise.all(
        inPackOrder([...added.keys(), ...packIds]).map(async (packId) => {
          const entry = added.get(packId);
          if (entry !== undefined) await index.addPackLive(packId, entry.bytes, entry.blocks);
          if (sealing.has(packId)) await index.sealPack(packId);
        }),
      );
      await alongside?.(tx);
    });
  }

  discard(spools: readonly PackSpool[], uploads: readonly Promise<void>[], opening: Promise<PackSpool> | undefined): void {
    const cleanup = (async () => {
      const late = opening === undefined ? undefined : await opening.catch(() => undefined);
      const all = late === undefined || spools.includes(late) ? spools : [...spools, late];
      await Promise.allSettled(uploads);
      await Promise.all(
        all.map(async (spool) => {
          await spool.remove();
          // The object first: a row without its object is retried by the orphan sweep, an object without its row never would be.
          await this.bucket.delete(this.bucket.packKey(spool.packId));
          await this.index.deletePackRow(spool.packId);
        }),
      );
    })()
      .catch((error: unknown) => this.logger.warn('cleaning up an aborted batch failed (the orphan sweep retries)', { error }))
      .finally(() => this.discarding.delete(cleanup));
    this.discarding.add(cleanup);
  }

  reportRenewalFailure(error: unknown): void {
    this.logger.warn('renewing a batch lease failed', { error });
  }

  // Internals.

  /** A block's bytes, or undefined; with `allocate`, read into the memory it gives (and so never cached). */
  protected async readMultihash(multihash: Uint8Array, allocate?: (length: number) => Uint8Array): Promise<Uint8Array | undefined> {
    this.assertOpen();
    const key = multihashKey(multihash);
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    const location = await this.index.findBlock(multihash);
    if (location === undefined) return undefined;
    const target = allocate?.(location.length);
    let bytes = await this.bucket.readRange(this.bucket.packKey(location.packId), location.offset, location.length, target);
    if (bytes === undefined) {
      // Compaction may have moved the block (and deleted its old pack) between the lookup and the read.
      const again = await this.index.findBlock(multihash);
      if (again === undefined) return undefined;
      if (again.packId === location.packId && again.offset === location.offset) {
        throw new Error(`pack ${location.packId} of block ${rawCid(multihash).toString()} is missing from the bucket`);
      }
      bytes = await this.bucket.readRange(this.bucket.packKey(again.packId), again.offset, again.length, allocate?.(again.length));
      if (bytes === undefined) throw new Error(`pack ${again.packId} is missing from the bucket`);
    }
    if (target === undefined) this.cache.set(key, bytes);
    return bytes;
  }

  private now(): number {
    return unixSeconds(this.clock);
  }
}
