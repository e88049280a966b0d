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
  /** How often a batch heart-beats its unsealed packs. */
  readonly leaseRenewMs: number;
  renew(packIds: readonly number[]): Promise<void>;
  /** A new pack: its row (unsealed) exists before its spool, hence before its object. */
  newSpool(): Promise<PackSpool>;
  /** Uploads a finished spool as the pack's object, then deletes the local file. */
  upload(spool: PackSpool): Promise<void>;
  /** One transaction: the staged rows (a copy indexed already touched instead), the packs sealed, then `alongside`. */
  indexBatch(staged: readonly SpooledBlock[], packIds: readonly number[], alongside?: (tx: Transaction) => Promise<void>): Promise<void>;
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
 * Every block is staged without asking the store about it first: asking is a round trip to the database a
 * block, which cost uploads two thirds of their speed, while a block stored already costs only its bytes
 * again (dead space in the pack, counted so, which compaction reclaims). Commit sorts the copies out in a
 * statement a few hundred blocks: a block indexed already keeps its copy and has its created_at moved to
 * now (an upsert, atomic against a GC delete beside it; GC deletes only rows older than its cutoff), any
 * other is indexed at its place here. So the batch relies on no stored block before its commit, and holds
 * no lease; it heart-beats its unsealed packs every `leaseRenewMs` while open.
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
      await this.host.indexBatch([...this.staged.values()], [...this.spools.map((spool) => spool.packId)], alongside);
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
      this.host.renew(packIds).catch((error: unknown) => this.host.reportRenewalFailure(error));
    }, this.host.leaseRenewMs);
    this.renewal.unref();
  }

  private finish(state: BatchState): void {
    this.state = state;
    clearInterval(this.renewal);
    if (state === 'aborted') this.host.discard([...this.spools], [...this.uploads], this.opening);
    this.staged.clear();
    this.host.batchEnded(this);
  }
}
