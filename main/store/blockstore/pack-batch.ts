import { BatchFront, type BatchFrontHost, type BatchState } from '../batch-front.js';
import type { PutOptions } from '../blocks.js';
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
export interface BatchHost extends BatchFrontHost {
  writerForAppend(): PackWriter | Promise<PackWriter>;
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

/**
 * The pack store's BlockBatch: all-or-nothing staging of blocks. `put` appends the bytes to a pack at once (so memory stays flat),
 * but nothing is indexed, hence visible, until `commit` has fsynced every pack it touched. `abort` hands
 * what it staged back to the store as dead space (cut off at once when nothing follows it in its pack,
 * else rewritten by compaction); after a crash, the next exclusive open does the same. Blocks already
 * in the store are not written again; they are leased (GC will not delete them) until the batch ends,
 * and commit refreshes their `created_at` so the GC grace period protects the new upload as a whole.
 */
export class PackBatch extends BatchFront<PackWriter, StagedBlock> {
  private readonly writers = new Map<PackWriter, number>();
  /** Blocks accepted by put (staged, leased or repeated). */
  blockCount = 0;
  /** Bytes of the blocks accepted by put. */
  byteCount = 0;

  constructor(private readonly host: BatchHost) {
    super(host);
  }

  get isOpen(): boolean {
    return this.state === 'open';
  }

  protected override accepted(bytes: Uint8Array): void {
    this.blockCount++;
    this.byteCount += bytes.byteLength;
  }

  protected override isStored(multihash: Uint8Array): Promise<boolean> {
    return this.host.isIndexed(multihash);
  }

  protected target(): PackWriter | Promise<PackWriter> {
    return this.host.writerForAppend();
  }

  protected write(
    writer: PackWriter,
    key: string,
    multihash: Uint8Array,
    bytes: Uint8Array,
    options: PutOptions | undefined,
    handOver: () => void,
  ): Promise<void> | undefined {
    if (!this.writers.has(writer)) {
      writer.users++;
      this.writers.set(writer, 0);
    }
    const offset = writer.append(multihash, bytes, options?.release);
    handOver();
    this.writers.set(writer, writer.end);
    this.staged.set(key, { multihash, writer, offset, length: bytes.byteLength });
    return writer.needsDrain() ? writer.drain() : undefined;
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
      superseded = await this.host.indexBatch(this.staged.values(), this.kept.values(), alongside);
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
    for (const key of this.kept.keys()) this.host.unlease(key);
    for (const writer of this.writers.keys()) this.host.releaseWriter(writer);
    this.kept.clear();
    this.staged.clear();
    this.writers.clear();
    this.host.batchEnded(this);
  }
}
