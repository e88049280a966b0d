import { BatchFront, type BatchFrontHost, type BatchState } from '../batch-front.js';
import type { Transaction } from '../repositories/index.js';
import type { PackSpool } from './pack-spool.js';

/** A block written to a spooled pack but not yet indexed. */
export interface SpooledBlock {
  multihash: Uint8Array;
  packId: number;
  offset: number;
  length: number;
}

/** What a batch needs from its store; narrow, so the batch's rules read on their own. */
export interface ObjectBatchHost extends BatchFrontHost {
  readonly packSizeBytes: number;
  /** How often a batch renews what it holds (re-touches reused blocks, heart-beats its unsealed packs). */
  readonly leaseRenewMs: number;
  /** Moves a stored block's created_at to now; false when it is not stored (then the batch stages it). */
  touchBlock(multihash: Uint8Array): Promise<boolean>;
  renew(reused: readonly Uint8Array[], packIds: readonly number[]): Promise<void>;
  /** A new pack: its row (unsealed) exists before its spool, hence before its object. */
  newSpool(): Promise<PackSpool>;
  /** Uploads a finished spool as the pack's object, then deletes the local file. */
  upload(spool: PackSpool): Promise<void>;
  /** One transaction: the staged rows, the reused blocks touched, the packs sealed, then `alongside`. */
  indexBatch(
    staged: readonly SpooledBlock[],
    reused: readonly Uint8Array[],
    packIds: readonly number[],
    alongside?: (tx: Transaction) => Promise<void>,
  ): Promise<void>;
  /** Best effort, in the background: the packs' objects, rows and local files go. */
  discard(spools: readonly PackSpool[], uploads: readonly Promise<void>[], opening: Promise<PackSpool> | undefined): void;
  batchEnded(batch: ObjectBatch): void;
  reportRenewalFailure(error: unknown): void;
}

/**
 * The S3 store's BlockBatch. `put` writes the bytes to a local spool file at once (memory stays flat);
 * a spool that reaches `packSizeBytes` is uploaded as one pack object while staging goes on in a new one.
 * Nothing is indexed, hence visible, until `commit` has uploaded every pack and one metadata transaction
 * indexes the blocks, seals the packs and runs `alongside`. So an interrupted batch leaves nothing a pin
 * points at: at worst an unsealed pack row and its object, which compaction sweeps once their heartbeat
 * is older than the orphan grace.
 *
 * A block already stored is not staged again: the batch touches it first (created_at = now) and takes
 * "touched" as "stored". GC deletes only rows older than its cutoff, checked in the delete itself, so a
 * sweep on any instance that starts after the touch keeps the block; the batch re-touches its reused
 * blocks every `leaseRenewMs` while open (that is the lease; GC's grace covers the rest), and commit
 * touches them once more in its transaction.
 */
export class ObjectBatch extends BatchFront<PackSpool, SpooledBlock> {
  private readonly spools: PackSpool[] = [];
  private readonly uploads: Promise<void>[] = [];
  private spool: PackSpool | undefined;
  private opening: Promise<PackSpool> | undefined;
  private renewal: NodeJS.Timeout | undefined;

  constructor(private readonly host: ObjectBatchHost) {
    super(host);
  }

  /**
   * Touch first, then count on it: a block whose created_at this batch moved cannot be swept by a GC that
   * starts afterwards (the same-process lease also covers a sweep without a cutoff).
   */
  protected isStored(multihash: Uint8Array): Promise<boolean> {
    return this.host.touchBlock(multihash);
  }

  protected override onKept(): void {
    this.startRenewal();
  }

  protected target(): Promise<PackSpool> {
    return this.spoolForAppend();
  }

  /** Only the current spool: another put may have filled and rotated the one this put waited for. */
  protected override takesWrites(spool: PackSpool): boolean {
    return spool === this.spool;
  }

  protected write(spool: PackSpool, key: string, multihash: Uint8Array, bytes: Uint8Array): Promise<void> {
    const { offset, written } = spool.append(multihash, bytes);
    this.staged.set(key, { multihash, packId: spool.packId, offset, length: bytes.byteLength });
    if (spool.end >= this.host.packSizeBytes) this.rotate(spool);
    // Awaited before the put resolves: the caller's memory is released (by putTrusted) once it is on disk.
    return written;
  }

  async commit(alongside?: (tx: Transaction) => Promise<void>): Promise<void> {
    this.assertOpen();
    this.state = 'committing';
    try {
      if (this.opening !== undefined) await this.opening;
      if (this.spool !== undefined) this.rotate(this.spool);
      await Promise.all(this.uploads);
      await this.host.indexBatch([...this.staged.values()], [...this.kept.values()], [...this.spools.map((spool) => spool.packId)], alongside);
    } catch (error) {
      this.finish('aborted');
      throw error;
    }
    this.finish('committed');
  }

  /** Drops everything staged: its objects, pack rows and spool files go in the background. */
  abort(): void {
    if (this.state !== 'open') return;
    this.finish('aborted');
  }

  private async spoolForAppend(): Promise<PackSpool> {
    if (this.spool !== undefined) return this.spool;
    this.opening ??= this.host
      .newSpool()
      .then((spool) => {
        this.spools.push(spool);
        this.spool = spool;
        this.startRenewal();
        return spool;
      })
      .finally(() => {
        this.opening = undefined;
      });
    return this.opening;
  }

  /** The spool takes no more records: it goes up as one object while staging goes on in a new one. */
  private rotate(spool: PackSpool): void {
    if (this.spool === spool) this.spool = undefined;
    const upload = this.host.upload(spool);
    // Awaited by commit; an abort only waits for it to settle.
    upload.catch(() => undefined);
    this.uploads.push(upload);
  }

  private startRenewal(): void {
    if (this.renewal !== undefined) return;
    this.renewal = setInterval(() => {
      const packIds = this.spools.map((spool) => spool.packId);
      this.host.renew([...this.kept.values()], packIds).catch((error: unknown) => this.host.reportRenewalFailure(error));
    }, this.host.leaseRenewMs);
    this.renewal.unref();
  }

  private finish(state: BatchState): void {
    this.state = state;
    clearInterval(this.renewal);
    if (state === 'aborted') this.host.discard([...this.spools], [...this.uploads], this.opening);
    for (const key of this.kept.keys()) this.host.unlease(key);
    this.kept.clear();
    this.staged.clear();
    this.host.batchEnded(this);
  }
}
