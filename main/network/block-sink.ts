import type { CID } from 'multiformats/cid';
import type { BlockBatch, Blocks } from '../store/blocks.js';
import type { Transaction } from '../store/repositories/index.js';
import type { FetchTuning } from './fetch-tuning.js';

/** What one commit made newly stored. */
export interface StoredBatch {
  /** Blocks put into the batch (a block the store held already counts here, not in `bytes`). */
  blocks: number;
  /** Bytes the commit newly stored: what a fetch's ingress is. */
  bytes: number;
}

export interface BlockSinkInit {
  blocks: Pick<Blocks, 'createBatch'>;
  tuning: Pick<FetchTuning, 'batchBytes' | 'batchBlocks' | 'batchMs'>;
  /**
   * Runs on the transaction that makes a batch's blocks visible (charge the ingress, check the owner still
   * wants them): writes through `tx` only. If it throws, nothing of that batch is stored and the sink fails
   * with its error.
   */
  onCommit?: (tx: Transaction, stored: StoredBatch) => Promise<void>;
  /**
   * Runs each batch's commit (outside its transaction), e.g. under the GC lock's shared side, so a GC cycle
   * never falls between its mark and its sweep.
   */
  commitUnder?: <T>(commit: () => Promise<T>) => Promise<T>;
  /** After a batch committed. */
  onCommitted?: (stored: StoredBatch) => void;
}

interface OpenBatch {
  batch: BlockBatch;
  blocks: number;
  puts: Set<Promise<unknown>>;
  timer: NodeJS.Timeout | null;
}

/**
 * Verified blocks into the store in batches (store/blocks.ts BlockBatch: nothing visible until its commit),
 * committed every `batchBytes`/`batchBlocks`/`batchMs`, one commit after another: a kill -9 loses at most
 * the batches not yet committed (never a torn or half-counted one), and what was committed stays for a
 * restart to walk. One batch fills while the one before commits; a put waits when both are busy.
 */
export class BlockSink {
  private open: OpenBatch | null = null;
  private committing: Promise<void> = Promise.resolve();
  private failure: { error: unknown } | null = null;

  constructor(private readonly init: BlockSinkInit) {}

  /** Stages one verified block (the caller hashed it against `cid`); `release` as in PutOptions. */
  async put(cid: CID, bytes: Uint8Array, release?: () => void): Promise<void> {
    this.throwIfFailed();
    const open = this.current();
    const put = open.batch.putTrusted(cid, bytes, release === undefined ? undefined : { release });
    // Counted before the await: a rotation that waits for this put then sees it.
    open.blocks++;
    open.puts.add(put);
    try {
      await put;
    } catch (error) {
      open.blocks--;
      throw error;
    } finally {
      open.puts.delete(put);
    }
    if (this.open === open && (open.batch.newBytes >= this.init.tuning.batchBytes || open.blocks >= this.init.tuning.batchBlocks)) await this.rotate();
  }

  /** Commits what is staged and waits for every commit; throws the first commit's failure. */
  async flush(): Promise<void> {
    await this.rotate();
    await this.committing;
    this.throwIfFailed();
  }

  /** Drops what is staged and not yet committing (a commit under way finishes). */
  abort(): void {
    const open = this.open;
    this.open = null;
    if (open === null) return;
    if (open.timer) clearTimeout(open.timer);
    open.batch.abort();
  }

  private current(): OpenBatch {
    if (this.open === null) {
      const open: OpenBatch = { batch: this.init.blocks.createBatch(), blocks: 0, puts: new Set(), timer: null };
      // A slow source still gets what it sent kept: the batch commits after batchMs whatever its size.
      open.timer = setTimeout(() => {
        if (this.open === open) this.rotate().catch(() => undefined);
      }, this.init.tuning.batchMs);
      open.timer.unref();
      this.open = open;
    }
    return this.open;
  }

  /** Closes the open batch and chains its commit after the one under way; resolves once that one is under way. */
  private async rotate(): Promise<void> {
    const full = this.open;
    if (full === null) return;
    this.open = null;
    if (full.timer) clearTimeout(full.timer);
    // At most one batch commits while the next fills: a put that closes a batch waits for the commit before.
    const before = this.committing;
    const commit = (async () => {
      await Promise.allSettled([...full.puts]);
      await before;
      if (this.failure !== null || full.blocks === 0) {
        full.batch.abort();
        return;
      }
      const stored: StoredBatch = { blocks: full.blocks, bytes: full.batch.newBytes };
      const { onCommit, commitUnder = (commit) => commit() } = this.init;
      try {
        await commitUnder(() => full.batch.commit(onCommit && ((tx) => onCommit(tx, stored))));
      } catch (error) {
        this.failure ??= { error };
        return;
      }
      this.init.onCommitted?.(stored);
    })();
    this.committing = commit;
    await before;
  }

  private throwIfFailed(): void {
    if (this.failure !== null) throw this.failure.error;
  }
}
