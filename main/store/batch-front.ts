import type { CID } from 'multiformats/cid';
import { BadInputError } from '../base/errors.js';
import { IDENTITY_CODE, verifyBlock } from '../base/hashes.js';
import { multihashKey } from '../base/multihash-key.js';
import type { BlockBatch, PutOptions } from './blocks.js';
import type { Transaction } from './repositories/index.js';

/** What every batch front needs of its store. */
export interface BatchFrontHost {
  readonly maxBlockBytes: number;
  isIndexed(multihash: Uint8Array): Promise<boolean>;
  lease(key: string): void;
  unlease(key: string): void;
}

export type BatchState = 'open' | 'committing' | 'committed' | 'aborted';

/**
 * The front of a staging batch, the same for every block store: put verifies, identity CIDs are never
 * staged, blocks over the size limit are refused, a block is staged once, and a block the store already
 * holds is leased before the store is asked about it (asked the other way round, GC could delete it
 * between the answer and the lease). A batch adds where it writes (`target`, `write`) and how it commits.
 * `Target` is where staged bytes go (a pack being appended to, a spool), `Staged` what a staged block is.
 */
export abstract class BatchFront<Target, Staged> implements BlockBatch {
  protected state: BatchState = 'open';
  protected readonly staged = new Map<string, Staged>();
  /** Blocks the store held already, leased instead of staged again. */
  protected readonly kept = new Map<string, Uint8Array>();
  /** Blocks a put is staging right now (a second put of one waits for nothing and writes nothing). */
  private readonly pending = new Set<string>();
  /** Bytes this batch newly staged (blocks already stored are not). */
  newBytes = 0;

  constructor(private readonly front: BatchFrontHost) {}

  abstract commit(alongside?: (tx: Transaction) => Promise<void>): Promise<void>;
  abstract abort(): void;
  /**
   * Whether the store holds the block, asked once it is leased (a store may also refresh its created_at).
   * A batch without it stages every block without asking and sorts the copies out as it commits (a store
   * a round trip away, where asking block by block costs more than a copy written twice).
   */
  protected isStored?(multihash: Uint8Array): Promise<boolean>;
  /** Where the next block goes: without a promise when it is at hand. */
  protected abstract target(): Target | Promise<Target>;
  /** Whether `target` still takes records (one reached while waiting may have been retired since). */
  protected takesWrites(target: Target): boolean {
    void target;
    return true;
  }

  /**
   * Writes the block to `target` and records it as staged; `handOver` says the bytes now belong to the
   * writer (it calls `release`). What it returns, when anything, is the wait for the write.
   */
  protected abstract write(
    target: Target,
    key: string,
    multihash: Uint8Array,
    bytes: Uint8Array,
    options: PutOptions | undefined,
    handOver: () => void,
  ): Promise<void> | undefined;

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
    let handedOver = false;
    try {
      return await this.stage(cid, bytes, options, () => {
        handedOver = true;
      });
    } finally {
      // Unless the writer took them, the bytes are written (stage awaits the write) or not needed.
      if (!handedOver) options?.release?.();
    }
  }

  /** True when the block is staged here or already stored. */
  async has(cid: CID): Promise<boolean> {
    if (cid.multihash.code === IDENTITY_CODE) return true;
    const key = multihashKey(cid.multihash.bytes);
    return this.staged.has(key) || this.kept.has(key) || this.front.isIndexed(cid.multihash.bytes);
  }

  /** Called for every block put accepts (staged, kept or repeated), before anything is decided. */
  protected accepted(bytes: Uint8Array): void {
    void bytes;
  }

  /** Called when a block the store held is kept. */
  protected onKept(): void {}

  protected assertOpen(): void {
    if (this.state !== 'open') throw new Error(`write batch is ${this.state}`);
  }

  private async stage(cid: CID, bytes: Uint8Array, options: PutOptions | undefined, handOver: () => void): Promise<CID> {
    this.assertOpen();
    options?.signal?.throwIfAborted();
    this.accepted(bytes);
    if (cid.multihash.code === IDENTITY_CODE) return cid;
    if (bytes.byteLength > this.front.maxBlockBytes) {
      throw new BadInputError(`block ${cid.toString()}: ${bytes.byteLength} bytes is over the ${this.front.maxBlockBytes}-byte limit`);
    }
    const multihash = cid.multihash.bytes;
    const key = multihashKey(multihash);
    if (this.staged.has(key) || this.kept.has(key) || this.pending.has(key)) return cid;
    this.pending.add(key);
    let target: Target;
    try {
      if (this.isStored !== undefined && (await this.keepIfStored(key, multihash, this.isStored.bind(this)))) return cid;
      for (;;) {
        const next = this.target();
        target = next instanceof Promise ? await next : next;
        // Nothing is awaited from here to the write: a target another put filled and retired while this
        // one waited is asked for again.
        if (this.takesWrites(target)) break;
        this.assertOpen();
      }
      this.assertOpen();
    } finally {
      this.pending.delete(key);
    }
    const written = this.write(target, key, multihash, bytes, options, handOver);
    this.newBytes += bytes.byteLength;
    if (written !== undefined) await written;
    return cid;
  }

  /**
   * Leases a block the store holds already, so the batch need not write it again. The lease comes before
   * the question: GC skips leased blocks, so a block found here cannot be deleted before the batch ends.
   */
  private async keepIfStored(key: string, multihash: Uint8Array, isStored: (multihash: Uint8Array) => Promise<boolean>): Promise<boolean> {
    this.front.lease(key);
    let kept = false;
    try {
      if (await isStored(multihash)) {
        this.assertOpen();
        this.kept.set(key, multihash);
        this.onKept();
        kept = true;
      }
    } finally {
      if (!kept) this.front.unlease(key);
    }
    return kept;
  }
}
