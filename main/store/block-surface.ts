import type { InputPair, Pair } from 'interface-blockstore';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { decode as decodeDigest } from 'multiformats/hashes/digest';
import { NotFoundError } from '../base/errors.js';
import { IDENTITY_CODE, isIdentity, verifyBlock } from '../base/hashes.js';
import { multihashKey } from '../base/multihash-key.js';
import { BlockCache } from './block-cache.js';
import type { AbortOptions, BlockBatch, StoredBlock } from './blocks.js';
import type { BlockIndexRepository, BlockLocation, StoredBlockRow } from './repositories/block-index.js';
import type { CurrentRows, Store } from './repositories/index.js';

/**
 * What a block store needs of the metadata store: its index repository (autocommit reads and writes) and
 * transactions (a batch's rows with the records its caller writes alongside; a compaction's relocations).
 */
export type BlockIndexStore = Pick<Store, 'blockIndex' | 'transaction'> & { readonly current?: Pick<CurrentRows, 'blockLocation'> };

export interface BlockstoreStats {
  blocks: number;
  bytes: number;
}

/** A store's own batch, as putMany drives it. */
export type SurfaceBatch = BlockBatch & { readonly newBytes: number };

const LIST_PAGE = 1000;
/** putMany commits a batch at this many new bytes or blocks, so a long stream is durable in steps. */
const PUT_MANY_BYTES = 64 * 1024 * 1024;
const PUT_MANY_BLOCKS = 4096;

/**
 * The part of a block store that does not depend on where the bytes live: the interface-blockstore
 * surface (get yields the block as one chunk, so ipfs-unixfs-importer/exporter use it directly), identity
 * CIDs (never stored: has() is true and get() yields the digest), the read cache, the leases batches take,
 * and paging through the index. A store adds how a multihash is located and read (`locate`,
 * `readMultihash`), how a block is put, how blocks are removed, and its batch.
 */
export abstract class BlockSurface<Batch extends SurfaceBatch> {
  abstract readonly maxBlockBytes: number;
  /** Recently read small blocks: a GC removal drops them in the same step. */
  protected readonly cache = new BlockCache();
  /** Autocommit index calls; what must commit together goes through `store.transaction`. */
  protected readonly index: BlockIndexRepository;
  /** Blocks a batch in progress counts on, with how many batches do: GC keeps them. */
  protected readonly leases = new Map<string, number>();
  protected readonly batches = new Set<Batch>();
  /** How many times blocks were removed (Blocks.removals): a cache of resolved paths checks it. */
  protected removedBatches = 0;
  protected closed = false;

  constructor(protected readonly store: BlockIndexStore) {
    this.index = store.blockIndex;
  }

  get removals(): number {
    return this.removedBatches;
  }

  abstract put(cid: CID, bytes: Uint8Array | Iterable<Uint8Array> | AsyncIterable<Uint8Array>, options?: AbortOptions): Promise<CID>;
  abstract isIndexed(multihash: Uint8Array): Promise<boolean>;
  abstract deleteMultihashes(multihashes: Iterable<Uint8Array>, options?: { createdBefore?: number }): Promise<number>;
  /** A new batch of this store (createBatch registers it). */
  protected abstract newBatch(): Batch;
  /** The block's place in the index: a store that has it at hand answers without a promise. */
  protected abstract locate(multihash: Uint8Array): BlockLocation | undefined | Promise<BlockLocation | undefined>;
  /** A block's bytes, or undefined; with `allocate`, read into the memory it gives (and so never cached). */
  protected abstract readMultihash(multihash: Uint8Array, allocate?: (length: number) => Uint8Array): Promise<Uint8Array | undefined>;

  /** A staging batch: nothing it puts is visible until its commit resolves. */
  createBatch(): Batch {
    this.assertOpen();
    const batch = this.newBatch();
    this.batches.add(batch);
    return batch;
  }

  /** Verifies a put's bytes against the CID's hash; false for an identity CID (never stored). */
  protected verifiedForStoring(cid: CID, block: Uint8Array): boolean {
    verifyBlock(cid, block);
    return cid.multihash.code !== IDENTITY_CODE;
  }

  /** Stores blocks in batches of up to 64 MiB, yielding each CID once its batch is durable. */
  async *putMany(source: Iterable<InputPair> | AsyncIterable<InputPair>, options?: AbortOptions): AsyncGenerator<CID> {
    let batch = this.createBatch();
    let done: CID[] = [];
    try {
      for await (const { cid, bytes } of source) {
        await batch.put(cid, bytes instanceof Uint8Array ? bytes : await collect(bytes), options);
        done.push(cid);
        if (batch.newBytes >= PUT_MANY_BYTES || done.length >= PUT_MANY_BLOCKS) {
          await batch.commit();
          yield* done;
          done = [];
          batch = this.createBatch();
        }
      }
      await batch.commit();
      yield* done;
    } finally {
      batch.abort();
    }
  }

  async *get(cid: CID, options?: AbortOptions): AsyncGenerator<Uint8Array> {
    yield await this.getBlock(cid, options);
  }

  /** The block's bytes; NotFoundError (name 'NotFoundError', as interface-store's) when absent. */
  async getBlock(cid: CID, options?: AbortOptions): Promise<Uint8Array> {
    const block = await this.findBlock(cid, options);
    if (block === undefined) throw new NotFoundError(`block ${cid.toString()} not found`);
    return block;
  }

  /** The block's bytes, or undefined when it is not stored. */
  async findBlock(cid: CID, options?: AbortOptions): Promise<Uint8Array | undefined> {
    options?.signal?.throwIfAborted();
    if (isIdentity(cid)) return cid.multihash.digest;
    return this.readMultihash(cid.multihash.bytes);
  }

  /**
   * The block's bytes read into `allocate(length)` (a pooled buffer the caller reuses), or the cached copy
   * when there is one; never cached from there, since the caller will overwrite that memory.
   */
  async readBlockInto(cid: CID, allocate: (length: number) => Uint8Array, options?: AbortOptions): Promise<Uint8Array> {
    options?.signal?.throwIfAborted();
    if (isIdentity(cid)) return cid.multihash.digest;
    const block = await this.readMultihash(cid.multihash.bytes, allocate);
    if (block === undefined) throw new NotFoundError(`block ${cid.toString()} not found`);
    return block;
  }

  /** Blocks.heldBlock: the block from the read cache, or undefined (then read it with getBlock). */
  heldBlock(cid: CID): Uint8Array | undefined {
    if (isIdentity(cid)) return cid.multihash.digest;
    this.assertOpen();
    return this.cache.get(multihashKey(cid.multihash.bytes));
  }

  /** Bytes of a stored block (from the index, without reading it), or undefined. */
  async blockSize(cid: CID): Promise<number | undefined> {
    if (isIdentity(cid)) return cid.multihash.digest.byteLength;
    this.assertOpen();
    const location = this.locate(cid.multihash.bytes);
    return (location instanceof Promise ? await location : location)?.length;
  }

  async has(cid: CID, options?: AbortOptions): Promise<boolean> {
    options?.signal?.throwIfAborted();
    if (isIdentity(cid)) return true;
    return this.isIndexed(cid.multihash.bytes);
  }

  async *getMany(source: Iterable<CID> | AsyncIterable<CID>, options?: AbortOptions): AsyncGenerator<Pair> {
    for await (const cid of source) yield { cid, bytes: single(await this.getBlock(cid, options)) };
  }

  /** Every stored block, as CIDv1 raw (the index knows multihashes, not codecs). */
  async *getAll(options?: AbortOptions): AsyncGenerator<Pair> {
    for await (const page of this.pages()) {
      for (const row of page) {
        options?.signal?.throwIfAborted();
        const bytes = await this.readMultihash(row.multihash);
        if (bytes !== undefined) yield { cid: rawCid(row.multihash), bytes: single(bytes) };
      }
    }
  }

  async delete(cid: CID, options?: AbortOptions): Promise<void> {
    options?.signal?.throwIfAborted();
    if (isIdentity(cid)) return;
    await this.deleteMultihashes([cid.multihash.bytes]);
  }

  async *deleteMany(source: Iterable<CID> | AsyncIterable<CID>, options?: AbortOptions): AsyncGenerator<CID> {
    for await (const cid of source) {
      await this.delete(cid, options);
      yield cid;
    }
  }

  /** Every stored block with its size and created_at, in pages (safe to delete between pages). */
  async *listBlocks(): AsyncGenerator<StoredBlock> {
    for await (const page of this.pages()) {
      for (const row of page) yield { multihash: row.multihash, size: row.length, createdAt: row.createdAt };
    }
  }

  /** Bytes and blocks currently indexed. */
  async stats(): Promise<BlockstoreStats> {
    this.assertOpen();
    return this.index.totalLiveBytes();
  }

  // The batches' side: leases (GC skips a leased block) and their end.

  lease(key: string): void {
    this.leases.set(key, (this.leases.get(key) ?? 0) + 1);
  }

  unlease(key: string): void {
    const count = (this.leases.get(key) ?? 1) - 1;
    if (count <= 0) this.leases.delete(key);
    else this.leases.set(key, count);
  }

  batchEnded(batch: Batch): void {
    this.batches.delete(batch);
  }

  /** The index's rows in multihash order, a page at a time. */
  protected async *pages(): AsyncGenerator<StoredBlockRow[]> {
    let after: Uint8Array | undefined;
    for (;;) {
      this.assertOpen();
      const page = await this.index.listBlocksAfter(after, LIST_PAGE);
      if (page.length === 0) return;
      yield page;
      after = (page[page.length - 1] as StoredBlockRow).multihash;
      if (page.length < LIST_PAGE) return;
    }
  }

  protected assertOpen(): void {
    if (this.closed) throw new Error('blockstore is closed');
  }
}

/** The CIDv1 raw of a multihash (the index knows multihashes, not codecs). */
export function rawCid(multihash: Uint8Array): CID {
  return CID.createV1(raw.code, decodeDigest(multihash));
}

/** A put's bytes as one buffer. */
export async function collect(source: Iterable<Uint8Array> | AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of source) parts.push(part);
  return Buffer.concat(parts);
}

function* single(bytes: Uint8Array): Generator<Uint8Array> {
  yield bytes;
}
