import type { Blockstore } from 'interface-blockstore';
import type { CID } from 'multiformats/cid';
import type { Transaction } from './repositories/index.js';

/**
 * The block seam: what the domains know of the block store. interface-blockstore's `Blockstore` (so
 * ipfs-unixfs-importer/exporter use it directly) plus what Pinfold needs: staging batches, reads into a
 * given buffer, reads of held blocks without a promise, sizes from the index, and GC's removals. The
 * implementation (store/blockstore/: pack files, indexed through the metadata store's BlockIndexRepository)
 * is seen only by the composition root, which opens it; a second implementation (object storage, a
 * separate index) implements this. Each domain asks for the narrowest part it uses (`Pick<Blocks, ...>`),
 * as Helia's commands do. Whatever asks the index returns a promise: never await one inside a metadata
 * transaction's work (its autocommit call would wait for that very transaction).
 */

export interface AbortOptions {
  signal?: AbortSignal;
}

export interface PutOptions extends AbortOptions {
  /** Called once the store no longer reads `bytes` (written, not needed, or failed): the caller may reuse them. */
  release?: () => void;
}

/**
 * All-or-nothing staging: nothing put is visible until `commit` resolves; `abort` (or a failed commit)
 * leaves nothing visible. Blocks already stored are kept from GC until the batch ends.
 */
export interface BlockBatch {
  /** Verifies the bytes against the CID's hash, then stages them. */
  put(cid: CID, bytes: Uint8Array, options?: PutOptions): Promise<CID>;
  /** Stages bytes whose CID the caller has just computed from them (no second hash). */
  putTrusted(cid: CID, bytes: Uint8Array, options?: PutOptions): Promise<CID>;
  /** True when the block is staged here or already stored. */
  has(cid: CID): Promise<boolean>;
  /**
   * Bytes this batch newly stages: a block the store holds already, or one put twice, is not counted. What
   * the commit makes newly stored, so a caller can count exactly that (a fetch's ingress).
   */
  readonly newBytes: number;
  /**
   * Makes every staged block durable, then visible, at once. `alongside` runs on the metadata transaction
   * that indexes the blocks (records that must exist exactly when the blocks do: write them through `tx`
   * only, and do no other I/O); if it throws, no block becomes visible.
   */
  commit(alongside?: (tx: Transaction) => Promise<void>): Promise<void>;
  /** Drops everything staged; a no-op once the batch has ended or is committing. */
  abort(): void;
}

/** One stored block as GC sees it. */
export interface StoredBlock {
  multihash: Uint8Array;
  size: number;
  /** Unix seconds of the last write of this block (a re-upload refreshes it). */
  createdAt: number;
}

export interface CompactOptions extends AbortOptions {
  /** Compact a sealed pack when its live records are below this share of its records. Default 0.5. */
  maxLiveRatio?: number;
}

export interface CompactResult {
  packsCompacted: number;
  bytesReclaimed: number;
}

/** Blocks keyed by multihash: any codec or CID version finds a block. Identity CIDs are never stored. */
export interface Blocks extends Blockstore {
  /** Largest block accepted. */
  readonly maxBlockBytes: number;
  /**
   * Moves whenever blocks leave the store (garbage collection): what was worked out from its blocks
   * before (a resolved path) may no longer hold.
   */
  readonly removals: number;
  /** A staging batch: nothing it puts is visible until its commit resolves. */
  createBatch(): BlockBatch;
  /** Answered from the index. */
  has(cid: CID, options?: AbortOptions): Promise<boolean>;
  /** The block's bytes; NotFoundError (by name) when absent. */
  getBlock(cid: CID, options?: AbortOptions): Promise<Uint8Array>;
  /** The block's bytes, or undefined when it is not stored. */
  findBlock(cid: CID, options?: AbortOptions): Promise<Uint8Array | undefined>;
  /**
   * The block's bytes read into `allocate(length)` (memory the caller reuses), or the copy the store
   * holds in memory when it has one; NotFoundError (by name) when absent.
   */
  readBlockInto(cid: CID, allocate: (length: number) => Uint8Array, options?: AbortOptions): Promise<Uint8Array>;
  /**
   * The block when the store holds it in memory (a recently read small block), else undefined: no I/O and
   * no promise. Readers try it first, so a cached block costs a map lookup, not an async read.
   */
  heldBlock(cid: CID): Uint8Array | undefined;
  /** Bytes of a stored block (from the index, without reading it), or undefined. */
  blockSize(cid: CID): Promise<number | undefined>;
  /** Every stored block with its size and created_at, in pages (safe to delete between pages). */
  listBlocks(): AsyncIterable<StoredBlock>;
  /**
   * Removes blocks (GC sweep); returns how many went. Blocks a batch in progress holds are kept, and with
   * `createdBefore` (unix seconds) so is any block written since then.
   */
  deleteMultihashes(multihashes: Iterable<Uint8Array>, options?: { createdBefore?: number }): Promise<number>;
  /** Reclaims the space of removed blocks. */
  compact(options?: CompactOptions): Promise<CompactResult>;
}
