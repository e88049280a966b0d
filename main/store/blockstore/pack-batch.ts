import type { CID } from 'multiformats/cid';
import { BadInputError } from '../../base/errors.js';
import { IDENTITY_CODE, verifyBlock } from '../../base/hashes.js';
import { multihashKey } from '../../base/multihash-key.js';
import type { BlockBatch, PutOptions } from '../blocks.js';
import type { Transaction } from '../repositories/index.js';
import type { PackWriter } from './pack-writer.js';

/** A block written to a pack but not yet indexed. */
export interface StagedBlock {
  multihash: Uint8Array;
  writer: PackWriter;
  offset: number;
  length: number;
}

/** What a batch needs from its store; kept narrow so the batch's rules are readable on their own. */
export interface BatchHost {
  readonly maxBlockBytes: number;
  isIndexed(multihash: Uint8Array): Promise<boolean>;
  writerForAppend(): PackWriter | Promise<PackWriter>;
  lease(key: string): void;
  unlease(key: string): void;
  releaseWriter(writer: PackWriter): void;
  /**
   * One transaction: index staged blocks, refresh created_at of leased ones, run `alongside` on the same
   * transaction (records that must exist exactly when the blocks do). Returns the staged blocks it did not
   * index because another batch committed the same block first (their copies are dead).
   */
  indexBatch(staged: Iterable<StagedBlock>, leased: Iterable<Uint8Array>, alongside?: (tx: Transaction) => Promise<void>): Promise<StagedBlock[]>;
  /** Staged blocks that will never be indexed: their space is dead (and given back when it can be). */
  discard(staged: Iterable<StagedBlock>): void;
  batchEnded(batch: PackBatch): void;
}

type BatchState = 'open' | 'committing' | 'committed' | 'aborted';

/**
 * The pack store's BlockBatch: all-or-nothing staging of blocks. `put` appends the bytes to a pack at once (so memory stays flat),
 * but nothing is indexed, hence visible, until `commit` has fsynced every pack it touched. `abort` hands
 * what it staged back to the store as dead space (cut off at once when nothing follows it in its pack,
 * else rewritten by compaction); after a crash, the next exclusive open does the same. Blocks already
 * in the store are not written again; they are leased (GC will not delete them) until the batch ends,
 * and commit refreshes their `created_at` so the GC grace period protects the new upload as a whole.
 */
export class PackBatch implements BlockBatch {
  private state: BatchState = 'open';
  private readonly staged = new Map<string, StagedBlock>();
  private readonly leased = new Map<string, Uint8Array>();
  private readonly writers = new Map<PackWriter, number>();
  private readonly pending = new Set<string>();
  /** Blocks accepted by put (staged, leased or repeated). */
  blockCount = 0;
  /** Bytes of the blocks accepted by put. */
  byteCount = 0;
  /** Bytes this batch newly wrote to packs (duplicates of stored blocks are not written). */
  newBytes = 0;

  constructor(private readonly host: BatchHost) {}

  get isOpen(): boolean {
    return this.state === 'open';
  }

  /** Verifies the bytes against the CID's hash, then stages them. */
  async put(cid: CID, bytes: Uint8Array, options?: PutOptions): Promise<CID> {
    try {
      this.assertOpen();
      verifyBlock(cid, bytes);
    } catch (error) {
      options?.release?.();
      throw error;
    }
    return this.putTrusted(cid, bytes, options);
  }

  /** Stages bytes whose CID the caller has just computed from them (no second hash). */
  async putTrusted(cid: CID, bytes: Uint8Array, options?: PutOptions): Promise<CID> {
    let appended = false;
    try {
      const result = await this.stage(cid, bytes, options, () => {
        appended = true;
      });
      return result;
    } finally {
      if (!appended) options?.release?.();
    }
  }

  private async stage(cid: CID, bytes: Uint8Array, options: PutOptions | undefined, onAppend: () => void): Promise<CID> {
    this.assertOpen();
    options?.signal?.throwIfAborted();
    this.blockCount++;
    this.byteCount += bytes.byteLength;
    if (cid.multihash.code === IDENTITY_CODE) return cid;
    if (bytes.byteLength > this.host.maxBlockBytes) {
      throw new BadInputError(`block ${cid.toString()}: ${bytes.byteLength} bytes is over the ${this.host.maxBlockBytes}-byte limit`);
    }
    const multihash = cid.multihash.bytes;
    const key = multihashKey(multihash);
    if (this.staged.has(key) || this.leased.has(key) || this.pending.has(key)) return cid;
    this.pending.add(key);
    let writer: PackWriter;
    try {
      if (await this.leaseIfStored(key, multihash)) return cid;
      const maybe = this.host.writerForAppend();
      writer = maybe instanceof Promise ? await maybe : maybe;
      this.assertOpen();
    } finally {
      this.pending.delete(key);
    }
    if (!this.writers.has(writer)) {
      writer.users++;
      this.writers.set(writer, 0);
    }
    const offset = writer.append(multihash, bytes, options?.release);
    onAppend();
    this.writers.set(writer, writer.end);
    this.staged.set(key, { multihash, writer, offset, length: bytes.byteLength });
    this.newBytes += bytes.byteLength;
    if (writer.needsDrain()) await writer.drain();
    return cid;
  }

  /**
   * Leases a block the store holds already, so the batch need not write it again. The lease comes before
   * the question: GC skips leased blocks, so a block found here cannot be deleted before the batch ends
   * (asked the other way round, GC could delete it between the answer and the lease).
   */
  private async leaseIfStored(key: string, multihash: Uint8Array): Promise<boolean> {
    this.host.lease(key);
    let kept = false;
    try {
      if (await this.host.isIndexed(multihash)) {
        this.assertOpen();
        this.leased.set(key, multihash);
        kept = true;
      }
    } finally {
      if (!kept) this.host.unlease(key);
    }
    return kept;
  }

  /** True when the block is staged here or already stored. */
  async has(cid: CID): Promise<boolean> {
    if (cid.multihash.code === IDENTITY_CODE) return true;
    const key = multihashKey(cid.multihash.bytes);
    return this.staged.has(key) || this.leased.has(key) || this.host.isIndexed(cid.multihash.bytes);
  }

  /**
   * Makes every staged block durable, then visible, in one index transaction. `alongside` runs on that
   * transaction (records that must exist exactly when the blocks do); if it throws, no block becomes visible.
   */
  async commit(alongside?: (tx: Transaction) => Promise<void>): Promise<void> {
    this.assertOpen();
    this.state = 'committing';
    let superseded: StagedBlock[];
    try {
      await Promise.all([...this.writers].map(([writer, end]) => writer.syncTo(end)));
      superseded = await this.host.indexBatch(this.staged.values(), this.leased.values(), alongside);
    } catch (error) {
      this.finish('aborted', this.staged.values());
      throw error;
    }
    this.finish('committed', superseded);
  }

  /** Drops everything staged and gives its space back to the store. */
  abort(): void {
    // A commit in progress decides the outcome itself.
    if (this.state !== 'open') return;
    this.finish('aborted', this.staged.values());
  }

  /**
   * Ends the batch; `dead` are staged blocks no row points at. They go back before the writers are
   * released, so a pack is cut while it is still open.
   */
  private finish(state: BatchState, dead: Iterable<StagedBlock>): void {
    this.state = state;
    this.host.discard(dead);
    for (const key of this.leased.keys()) this.host.unlease(key);
    for (const writer of this.writers.keys()) this.host.releaseWriter(writer);
    this.leased.clear();
    this.staged.clear();
    this.writers.clear();
    this.host.batchEnded(this);
  }

  private assertOpen(): void {
    if (this.state !== 'open') throw new Error(`write batch is ${this.state}`);
  }
}
