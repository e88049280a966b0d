import { mkdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { CID } from 'multiformats/cid';
import { decode as decodeDigest } from 'multiformats/hashes/digest';
import { systemClock, unixSeconds, type Clock } from '../../base/clock.js';
import { createLogger, type Logger } from '../../base/logger.js';
import { openBlockIndexStore } from '../db/block-index-store.js';
import type { BlockLocation } from '../repositories/block-index.js';
import type { Transaction } from '../repositories/index.js';
import { multihashKey } from '../../base/multihash-key.js';
import type { AbortOptions, Blocks, CompactOptions, CompactResult } from '../blocks.js';
import { BlockSurface, collect, rawCid, type BlockIndexStore } from '../block-surface.js';
import { PackBatch, type BatchHost, type StagedBlock } from './pack-batch.js';
import { worthCompacting, type CompactionPolicy } from './compaction-policy.js';
import { digestBytes } from '../../base/hashes.js';
import { PACK_MAGIC, packFileName, recordHeaderLength, recordsBytes } from './pack-format.js';
import { recoverPacks } from './pack-recovery.js';
import { PackReaders } from './pack-readers.js';
import { PackWriter, type PackRange } from './pack-writer.js';
import { inMultihashOrder, inPackOrder } from '../row-order.js';

export interface BlockstoreInit {
  clock?: Clock;
  /** A pack is rotated once it reaches this size. Default 256 MiB. */
  packSizeBytes?: number;
  /** Largest block accepted. Default 8 MiB (go-car's section limit). */
  maxBlockBytes?: number;
  /**
   * Dead bytes (aborted uploads, lost races, GC) a pack may hold before it is rewritten: the pack being
   * appended to is then rotated, and a compaction in the background rewrites it once no batch writes
   * to it. Default a quarter of `packSizeBytes` (64 MiB).
   */
  maxDeadBytes?: number;
  /**
   * The caller holds the data folder's lock (the server): packs left open by earlier processes are cut
   * back to their last indexed record and sealed at open, stray pack files go, and a compaction starts
   * in the background. Never set it beside a server.
   */
  exclusive?: boolean;
  /** Where a failed background compaction is reported. Default: stderr. */
  logger?: Logger;
}

export interface IntegrityReport {
  checked: number;
  problems: string[];
}

const DEFAULT_PACK_SIZE = 256 * 1024 * 1024;
const DEFAULT_MAX_BLOCK = 8 * 1024 * 1024;
const DEFAULT_MAX_LIVE_RATIO = 0.5;

interface MovedRecord {
  multihash: Uint8Array;
  from: number;
  writer: PackWriter;
  to: number;
  length: number;
  relocated: boolean;
}

interface AutoGroup {
  batch: PackBatch;
  inflight: number;
  started: boolean;
  done: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export type { BlockIndexStore, BlockstoreStats } from '../block-surface.js';

/**
 * Opens the block store kept in `dir` (pack files under `dir/packs`). With `store`, the index is its
 * `blockIndex` (the block store migration must have run, as openDatabase does), and batches commit on its
 * transactions, so a caller's records commit with the blocks; without, the store opens its own index in
 * `dir/index.sqlite` and closes it on close.
 */
export async function openBlockstore(dir: string, store?: BlockIndexStore, init: BlockstoreInit = {}): Promise<PinfoldBlockstore> {
  const packsDir = join(dir, 'packs');
  await mkdir(packsDir, { recursive: true });
  const { index, closeIndex } = store === undefined ? ownIndex(dir) : { index: store, closeIndex: () => undefined };
  if (init.exclusive !== true) return new PinfoldBlockstore(packsDir, index, closeIndex, init);
  try {
    await recoverPacks(packsDir, index.blockIndex);
  } catch (error) {
    closeIndex();
    throw error;
  }
  const blockstore = new PinfoldBlockstore(packsDir, index, closeIndex, init);
  // Dead space in the middle of packs (a crash beside committed uploads, or data written before packs
  // were cut back at abort) is rewritten without waiting for a GC.
  blockstore.scheduleCompaction();
  return blockstore;
}

/** An index of the store's own, in `dir/index.sqlite`, closed with the store. */
function ownIndex(dir: string): { index: BlockIndexStore; closeIndex: () => void } {
  const owned = openBlockIndexStore(join(dir, 'index.sqlite'));
  return { index: owned.store, closeIndex: () => owned.close() };
}

/**
 * Blocks keyed by multihash, packed into large append-only files and indexed in SQLite. The
 * interface-blockstore surface is BlockSurface's; this class adds where the bytes live and how they move.
 *
 * Space no stored block uses (contract section 4: a rejected step 2's space "is reclaimed"):
 * - a batch still open (an upload in flight) holds what it staged: at most the upload's declared size,
 *   since step 2 stops one byte past it, so at most what the account reserved at step 1;
 * - when a batch ends without indexing a record (abort, a lost race), the record is dead; dead records
 *   that end their pack are cut off at once, so rejected uploads that no committed record follows leave
 *   nothing (the usual case: the packs return to their exact size);
 * - other dead bytes (before a committed record, or blocks GC deleted) are counted. At rest every pack
 *   holds less than `maxDeadBytes` (64 MiB) of them: the pack appended to is rotated when it reaches
 *   that, and a sealed pack that does, or whose live records fall under half its records, is rewritten
 *   by a compaction the store starts itself. So at rest dead space stays under the live bytes plus 64 MiB;
 * - after a crash, the next exclusive open cuts packs back to their last indexed record, deletes stray
 *   pack files, and compacts.
 */
export class PinfoldBlockstore extends BlockSurface<PackBatch> implements Blocks, BatchHost {
  readonly maxBlockBytes: number;
  private readonly clock: Clock;
  private readonly packSizeBytes: number;
  private readonly maxDeadBytes: number;
  private readonly logger: Logger;
  private readonly readers: PackReaders;
  private readonly writers = new Set<PackWriter>();
  private current: PackWriter | undefined;
  private creating: Promise<PackWriter> | undefined;
  /**
   * The sweeps whose delete transaction is open, each from the moment it reads the leases until it has
   * committed: a lease taken after that read asks the index only then (see isIndexed).
   */
  private readonly sweeps = new Set<Promise<void>>();
  private auto: AutoGroup | undefined;
  /** Compactions run one at a time: the callers' (GC's) and the store's own, queued here. */
  private compactions: Promise<unknown> = Promise.resolve();
  private background: Promise<void> | undefined;
  private backgroundWanted = false;
  /** Rotated packs being closed and sealed (each may ask for a compaction when done). */
  private readonly retiring = new Set<Promise<void>>();
  /** Aborted by close(): stops the store's own compaction, and any new one from starting. */
  private readonly stopping = new AbortController();

  constructor(
    private readonly packsDir: string,
    store: BlockIndexStore,
    private readonly closeIndex: () => void,
    init: BlockstoreInit,
  ) {
    super(store);
    this.clock = init.clock ?? systemClock;
    this.packSizeBytes = init.packSizeBytes ?? DEFAULT_PACK_SIZE;
    this.maxBlockBytes = init.maxBlockBytes ?? DEFAULT_MAX_BLOCK;
    this.maxDeadBytes = init.maxDeadBytes ?? Math.ceil(this.packSizeBytes / 4);
    this.logger = init.logger ?? createLogger('error');
    this.readers = new PackReaders(packsDir);
  }

  protected newBatch(): PackBatch {
    return new PackBatch(this);
  }

  /** Verifies and stores one block, durable when the promise resolves. Concurrent puts share one fsync. */
  async put(cid: CID, bytes: Uint8Array | Iterable<Uint8Array> | AsyncIterable<Uint8Array>, options?: AbortOptions): Promise<CID> {
    const block = bytes instanceof Uint8Array ? bytes : await collect(bytes);
    if (!this.verifiedForStoring(cid, block)) return cid;
    options?.signal?.throwIfAborted();
    const group = this.autoGroup();
    group.inflight++;
    try {
      await group.batch.putTrusted(cid, block, options);
    } finally {
      group.inflight--;
      this.maybeCommitGroup(group);
    }
    await group.done;
    return cid;
  }

  /** The block's place in the index: without an await when the store has it at hand (see CurrentRows). */
  protected locate(multihash: Uint8Array): BlockLocation | undefined | Promise<BlockLocation | undefined> {
    const known = this.store.current?.blockLocation(multihash);
    return known === undefined ? this.index.findBlock(multihash) : (known ?? undefined);
  }

  /**
   * Removes index entries (GC sweep); returns how many blocks were removed. Blocks leased by a batch in
   * progress are kept, and with `createdBefore` (unix seconds) so is any block written since then, checked
   * in the same statement (a block re-uploaded after GC listed it survives). The bytes become dead space
   * that compact() reclaims.
   *
   * A batch leases a block before it asks the index whether the block is stored (PackBatch.stage), so a
   * block a batch counts on is either leased before this transaction looks, or found gone once it ends.
   */
  async deleteMultihashes(multihashes: Iterable<Uint8Array>, options: { createdBefore?: number } = {}): Promise<number> {
    this.assertOpen();
    const candidates = [...multihashes];
    let swept = (): void => undefined;
    const sweep = new Promise<void>((resolve) => (swept = resolve));
    const { removed, freed } = await this.store
      .transaction(async (tx) => {
        // Leases are read once the transaction is open: a batch leasing later asks the index after it ends.
        this.sweeps.add(sweep);
        const unleased = inMultihashOrder(
          candidates.filter((multihash) => !this.leases.has(multihashKey(multihash))),
          (multihash) => multihash,
        );
        // Issued together: an engine may pipeline them; SQLite runs each as it is called.
        const rows = await Promise.all(unleased.map(async (multihash) => tx.blockIndex.deleteBlockRow(multihash, options.createdBefore)));
        const gone: Uint8Array[] = [];
        const byPack = new Map<number, { bytes: number; blocks: number; records: number }>();
        rows.forEach((row, i) => {
          if (row === undefined) return;
          const multihash = unleased[i] as Uint8Array;
          gone.push(multihash);
          const entry = byPack.get(row.packId) ?? { bytes: 0, blocks: 0, records: 0 };
          entry.bytes += row.length;
          entry.blocks += 1;
          entry.records += row.length + recordHeaderLength(multihash.byteLength);
          byPack.set(row.packId, entry);
        });
        await Promise.all(
          inPackOrder(byPack.keys()).map(async (packId) => {
            const entry = byPack.get(packId) as { bytes: number; blocks: number };
            return tx.blockIndex.addPackLive(packId, -entry.bytes, -entry.blocks);
          }),
        );
        return { removed: gone, freed: byPack };
      })
      .finally(() => {
        this.sweeps.delete(sweep);
        swept();
      });
    // Memory follows the index once the rows are gone for good (a rolled-back delete changes nothing).
    for (const multihash of removed) this.cache.delete(multihashKey(multihash));
    if (removed.length > 0) this.removedBatches++;
    // Packs still being appended to count their dead bytes in memory (sealed ones are measured).
    for (const writer of this.writers) {
      const entry = freed.get(writer.id);
      if (entry === undefined) continue;
      writer.countDead(entry.records);
      this.afterDeath(writer);
    }
    return removed.length;
  }

  /**
   * Rewrites the sealed packs that compaction-policy.ts finds worth it (nothing live, dead bytes at
   * `maxDeadBytes`, or a live share under `maxLiveRatio`), then unlinks them. One compaction runs at a
   * time. A pack still appended to is never touched, and a reader that looked up a block in a pack
   * being deleted reads it again from its new place.
   */
  async compact(options: CompactOptions = {}): Promise<CompactResult> {
    this.assertOpen();
    const run = this.compactions.then(async () => this.compactPacks(options));
    this.compactions = run.catch(() => undefined);
    return run;
  }

  /** Resolves once no pack is being sealed and no compaction the store started by itself waits or runs. */
  async idle(): Promise<void> {
    while (this.background !== undefined || this.retiring.size > 0) {
      await Promise.all([this.background, ...this.retiring]);
    }
  }

  /**
   * Asks for a compaction in the background (several requests while one runs make one more run).
   * The store asks after sealing a pack worth rewriting, and at an exclusive open.
   */
  scheduleCompaction(): void {
    if (this.closed || this.stopping.signal.aborted) return;
    this.backgroundWanted = true;
    if (this.background !== undefined) return;
    this.background = (async () => {
      while (this.backgroundWanted && !this.stopping.signal.aborted) {
        this.backgroundWanted = false;
        await this.compact({ signal: this.stopping.signal });
      }
    })()
      .catch((error: unknown) => {
        if (!this.stopping.signal.aborted) this.logger.error('blockstore compaction failed', { error });
      })
      .finally(() => {
        this.background = undefined;
        if (this.backgroundWanted) this.scheduleCompaction();
      });
  }

  private async compactPacks(options: CompactOptions): Promise<CompactResult> {
    const policy: CompactionPolicy = { maxDeadBytes: this.maxDeadBytes, maxLiveRatio: options.maxLiveRatio ?? DEFAULT_MAX_LIVE_RATIO };
    let packsCompacted = 0;
    let bytesReclaimed = 0;
    for (const pack of await this.index.listPacks()) {
      options.signal?.throwIfAborted();
      this.assertOpen();
      if (!pack.sealed) continue;
      const path = packFileName(this.packsDir, pack.id);
      const fileBytes = await stat(path).then(
        (info) => info.size,
        () => undefined,
      );
      // A missing file with blocks indexed in it is for checkIntegrity to report; nothing to move.
      if (fileBytes === undefined && pack.liveBlocks > 0) continue;
      const size = fileBytes ?? 0;
      // The row's block bytes leave out record headers, so they bound the dead bytes from above: most
      // packs are settled without summing their records.
      if (!worthCompacting({ fileBytes: size, liveRecordBytes: pack.liveBytes }, policy)) continue;
      if (!worthCompacting({ fileBytes: size, liveRecordBytes: recordsBytes(await this.index.packRecords(pack.id)) }, policy)) continue;
      const moved = pack.liveBlocks > 0 ? await this.moveLiveBlocks(pack.id, options) : 0;
      const still = await this.index.findPack(pack.id);
      if (still !== undefined && still.liveBlocks > 0) continue;
      await this.index.deletePackRow(pack.id);
      this.readers.retire(pack.id);
      await unlink(path).catch(() => undefined);
      packsCompacted++;
      bytesReclaimed += size - moved;
    }
    return { packsCompacted, bytesReclaimed };
  }

  /** Checks that every index entry points inside an existing pack; `rehash` re-verifies the bytes. */
  async checkIntegrity(options: { rehash?: boolean } & AbortOptions = {}): Promise<IntegrityReport> {
    this.assertOpen();
    const sizes = new Map<number, number>();
    const problems: string[] = [];
    let checked = 0;
    for await (const page of this.pages()) {
      for (const row of page) {
        options.signal?.throwIfAborted();
        checked++;
        const location = await this.index.findBlock(row.multihash);
        if (location === undefined) continue;
        let size = sizes.get(location.packId);
        if (size === undefined) {
          size = await stat(packFileName(this.packsDir, location.packId)).then(
            (info) => info.size,
            () => -1,
          );
          sizes.set(location.packId, size);
        }
        const name = rawCid(row.multihash).toString();
        if (size < 0) {
          problems.push(`${name}: pack ${location.packId} is missing`);
        } else if (location.offset < PACK_MAGIC.length || location.offset + location.length > size) {
          problems.push(`${name}: bytes lie outside pack ${location.packId}`);
        } else if (options.rehash === true) {
          const bytes = await this.readers.read(location.packId, location.offset, location.length);
          const expected = decodeDigest(row.multihash);
          if (!digestBytes(expected.code, bytes).equals(expected.digest)) problems.push(`${name}: bytes do not match the hash`);
        }
      }
    }
    return { checked, problems };
  }

  /** Aborts open batches, waits for writes, closes files (and the index when the store opened its own). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.stopping.abort();
    for (const batch of [...this.batches]) batch.abort();
    await this.idle();
    this.closed = true;
    await Promise.all([...this.writers].map((writer) => writer.close()));
    this.writers.clear();
    this.current = undefined;
    await this.readers.closeAll();
    this.closeIndex();
  }

  // BatchHost: the store side of staging.

  async isIndexed(multihash: Uint8Array): Promise<boolean> {
    this.assertOpen();
    const known = this.store.current?.blockLocation(multihash);
    if (known !== undefined) return known !== null;
    // A sweep that read the leases before this block's was leased may be deleting it. SQLite's reads wait
    // for its open transaction; PostgreSQL's do not (they answer the last commit): ask once it has committed.
    if (this.sweeps.size > 0) await Promise.all(this.sweeps);
    return this.index.blockExists(multihash);
  }

  writerForAppend(): PackWriter | Promise<PackWriter> {
    this.assertOpen();
    const current = this.current;
    if (current !== undefined && !current.failed && current.end < this.packSizeBytes) return current;
    if (current !== undefined) this.rotate(current);
    this.creating ??= this.newWriter().finally(() => {
      this.creating = undefined;
    });
    return this.creating;
  }

  releaseWriter(writer: PackWriter): void {
    writer.users--;
    if (writer.rotated && writer.users === 0) this.retireWriter(writer);
  }

  async indexBatch(staged: Iterable<StagedBlock>, leased: Iterable<Uint8Array>, alongside?: (tx: Transaction) => Promise<void>): Promise<StagedBlock[]> {
    this.assertOpen();
    const now = unixSeconds(this.clock);
    const blocks = inMultihashOrder(staged, (block) => block.multihash);
    return this.store.transaction(async (tx) => {
      const index = tx.blockIndex;
      // Issued together: an engine may pipeline them; SQLite runs each as it is called.
      const inserted = await Promise.all(
        blocks.map(async (block) =>
          index.insertBlockIfAbsent({ multihash: block.multihash, packId: block.writer.id, offset: block.offset, length: block.length, createdAt: now }),
        ),
      );
      const superseded: StagedBlock[] = [];
      const added = new Map<number, { bytes: number; blocks: number }>();
      blocks.forEach((block, i) => {
        // Another batch committed the same block first: keep its copy (its grace clock is refreshed below).
        if (inserted[i] !== true) {
          superseded.push(block);
          return;
        }
        const entry = added.get(block.writer.id) ?? { bytes: 0, blocks: 0 };
        entry.bytes += block.length;
        entry.blocks += 1;
        added.set(block.writer.id, entry);
      });
      // Issued in row order (row-order.ts): the touches, then the packs.
      await Promise.all([
        ...inMultihashOrder([...superseded.map((block) => block.multihash), ...leased], (multihash) => multihash).map(async (multihash) =>
          index.touchBlock(multihash, now),
        ),
        ...inPackOrder(added.keys()).map(async (packId) => {
          const entry = added.get(packId) as { bytes: number; blocks: number };
          return index.addPackLive(packId, entry.bytes, entry.blocks);
        }),
      ]);
      await alongside?.(tx);
      return superseded;
    });
  }

  discard(staged: Iterable<StagedBlock>): void {
    const byWriter = new Map<PackWriter, PackRange[]>();
    for (const block of staged) {
      const ranges = byWriter.get(block.writer) ?? [];
      ranges.push({ start: block.offset - recordHeaderLength(block.multihash.byteLength), end: block.offset + block.length });
      byWriter.set(block.writer, ranges);
    }
    for (const [writer, ranges] of byWriter) {
      writer.discard(ranges);
      this.afterDeath(writer);
    }
  }

  // Internals.

  /** A block's bytes, or undefined; with `allocate`, read into the memory it gives (and so never cached). */
  protected async readMultihash(multihash: Uint8Array, allocate?: (length: number) => Uint8Array): Promise<Uint8Array | undefined> {
    this.assertOpen();
    // A cached block is still indexed: GC's deleteMultihashes, the one way a block leaves the index
    // (and only this process writes it: the data-folder lock), drops it from the cache too.
    const key = multihashKey(multihash);
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    const found = this.locate(multihash);
    const location = found instanceof Promise ? await found : found;
    if (location === undefined) return undefined;
    const target = allocate?.(location.length);
    try {
      const bytes = await this.readers.read(location.packId, location.offset, location.length, target);
      if (target === undefined) this.cache.set(key, bytes);
      return bytes;
    } catch (error) {
      // Compaction may have moved the block between the lookup and the read: look again once.
      const again = await this.index.findBlock(multihash);
      if (again === undefined) return undefined;
      if (again.packId === location.packId && again.offset === location.offset) throw error;
      return this.readers.read(again.packId, again.offset, again.length, target);
    }
  }

  private async newWriter(): Promise<PackWriter> {
    const id = await this.index.createPack(unixSeconds(this.clock));
    const writer = await PackWriter.create(this.packsDir, id);
    this.writers.add(writer);
    this.current = writer;
    return writer;
  }

  private rotate(writer: PackWriter): void {
    if (this.current === writer) this.current = undefined;
    writer.rotated = true;
    if (writer.users === 0) this.retireWriter(writer);
  }

  /**
   * Rotates the pack being appended to once its dead bytes reach `maxDeadBytes` (dead space in the
   * middle of a pack cannot be cut off, only rewritten, and only sealed packs are rewritten).
   */
  private afterDeath(writer: PackWriter): void {
    if (writer === this.current && writer.deadBytes >= this.maxDeadBytes && !this.stopping.signal.aborted) this.rotate(writer);
  }

  /**
   * Seals a rotated pack once no batch can still index into it, so compaction may touch it; asks for a
   * compaction when the pack is worth rewriting already (its dead bytes are known exactly here).
   */
  private retireWriter(writer: PackWriter): void {
    if (!this.writers.delete(writer)) return;
    const retiring = (async () => {
      await writer.close();
      if (this.closed || writer.failed) return;
      await this.index.sealPack(writer.id);
      const policy = { maxDeadBytes: this.maxDeadBytes, maxLiveRatio: DEFAULT_MAX_LIVE_RATIO };
      const liveRecordBytes = writer.end - PACK_MAGIC.length - writer.deadBytes;
      if (worthCompacting({ fileBytes: writer.end, liveRecordBytes }, policy)) this.scheduleCompaction();
    })()
      .catch((error: unknown) => this.logger.error('sealing a pack failed', { error }))
      .finally(() => this.retiring.delete(retiring));
    this.retiring.add(retiring);
  }

  /** Copies a sealed pack's live blocks to the current pack; returns the record bytes relocated. */
  private async moveLiveBlocks(packId: number, options: AbortOptions): Promise<number> {
    const rows = await this.index.listPackBlocks(packId);
    const moved: MovedRecord[] = [];
    let relocatedBytes = 0;
    try {
      for (const row of rows) {
        options.signal?.throwIfAborted();
        const bytes = await this.readers.read(packId, row.offset, row.length);
        const maybe = this.writerForAppend();
        const writer = maybe instanceof Promise ? await maybe : maybe;
        writer.users++;
        const to = writer.append(row.multihash, bytes);
        moved.push({ multihash: row.multihash, from: row.offset, writer, to, length: row.length, relocated: false });
        if (writer.needsDrain()) await writer.drain();
      }
      const ends = new Map<PackWriter, number>();
      for (const move of moved) ends.set(move.writer, Math.max(ends.get(move.writer) ?? 0, move.to + move.length));
      await Promise.all([...ends].map(([writer, end]) => writer.syncTo(end)));
      const relocated = await this.store.transaction(async (tx) => {
        const index = tx.blockIndex;
        const inOrder = inMultihashOrder(moved, (move) => move.multihash);
        const stood = await Promise.all(
          inOrder.map(async (move) => index.relocateBlock(move.multihash, { packId, offset: move.from }, { packId: move.writer.id, offset: move.to })),
        );
        const done = inOrder.filter((_, i) => stood[i] === true);
        // Live bytes follow the blocks that moved: out of the old pack, into each pack they went to.
        const gained = new Map<number, { bytes: number; blocks: number }>();
        for (const move of done) {
          const entry = gained.get(move.writer.id) ?? { bytes: 0, blocks: 0 };
          entry.bytes += move.length;
          entry.blocks += 1;
          gained.set(move.writer.id, entry);
        }
        if (done.length > 0) gained.set(packId, { bytes: -done.reduce((sum, move) => sum + move.length, 0), blocks: -done.length });
        await Promise.all(
          inPackOrder(gained.keys()).map(async (id) => {
            const entry = gained.get(id) as { bytes: number; blocks: number };
            return index.addPackLive(id, entry.bytes, entry.blocks);
          }),
        );
        return done;
      });
      // Marked only once the transaction stands: a rolled-back relocation leaves the copy dead.
      for (const move of relocated) {
        move.relocated = true;
        relocatedBytes += move.length + recordHeaderLength(move.multihash.byteLength);
      }
    } finally {
      // Copies of blocks GC deleted meanwhile, or of a move that failed or was stopped, are dead.
      this.discard(
        moved.filter((move) => !move.relocated).map((move) => ({ multihash: move.multihash, writer: move.writer, offset: move.to, length: move.length })),
      );
      for (const move of moved) this.releaseWriter(move.writer);
    }
    return relocatedBytes;
  }

  private autoGroup(): AutoGroup {
    if (this.auto !== undefined && !this.auto.started) return this.auto;
    let resolve: () => void = () => undefined;
    let reject: (error: unknown) => void = () => undefined;
    const done = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    done.catch(() => undefined);
    const group: AutoGroup = { batch: this.createBatch(), inflight: 0, started: false, done, resolve, reject };
    this.auto = group;
    return group;
  }

  private maybeCommitGroup(group: AutoGroup): void {
    if (group.inflight > 0 || group.started) return;
    group.started = true;
    if (this.auto === group) this.auto = undefined;
    group.batch.commit().then(group.resolve, group.reject);
  }
}
