import { open, type FileHandle } from 'node:fs/promises';
import { fsyncDir } from '../../base/atomic-write.js';
import { PACK_MAGIC, encodeRecordHeader, packFileName, recordHeaderLength } from './pack-format.js';

/** Coalesce queued records into one writev of at most this many bytes / buffers (IOV_MAX is 1024). */
const MAX_WRITE_BYTES = 8 * 1024 * 1024;
const MAX_WRITE_BUFFERS = 512;
/**
 * A producer waits once this much is queued and not yet written, so memory stays bounded. Kept well
 * under the hash pool's 32 MiB arena (hash-pool.ts): queued import chunks hold arena slots, and once the
 * slots run out every further chunk is a fresh SharedArrayBuffer that only both isolates' GCs free, so
 * on a disk slower than the network memory and GC time grew without bound.
 */
const HIGH_WATER_BYTES = 16 * 1024 * 1024;
const LOW_WATER_BYTES = 4 * 1024 * 1024;
/** Flush written bytes to disk in the background every so often so a commit's fsync has little left. */
const BACKGROUND_SYNC_BYTES = 64 * 1024 * 1024;

interface Waiter {
  end: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

/** One queued buffer (a record header or a block's bytes), with what to run once the file no longer needs it. */
interface Queued {
  bytes: Uint8Array;
  release: (() => void) | undefined;
}

/** A byte range [start, end) of the pack. */
export interface PackRange {
  start: number;
  end: number;
}

/**
 * The one appender of one pack file. Offsets are handed out synchronously at `append`, bytes reach the
 * file in order by coalesced positional writes, and `syncTo` makes a prefix durable. A write failure
 * poisons the writer: every later wait rejects, and the store rotates to a new pack.
 *
 * Records that will never be indexed (an aborted batch's, a copy that lost a race) are `discard`ed: they
 * count as dead bytes, and once dead records reach the end of the pack they are cut off at once (the
 * queue drops them, the file is truncated before anything new is written), so a rejected upload that
 * nothing committed follows gives its space back without any compaction. Only never-indexed records are
 * ever cut: a reader can hold the location of an indexed block (even one GC just deleted), so space an
 * index row ever pointed at is never reused.
 */
export class PackWriter {
  /** Next append offset (logical end of the file, including queued bytes). */
  end: number;
  /** Batches that staged records here and have not finished; the pack stays open while any do. */
  users = 0;
  rotated = false;
  /**
   * Bytes of this pack that no index row uses or will use (discarded records not cut off yet, plus
   * indexed blocks GC deleted), counting record headers. Known for the packs this process writes.
   */
  deadBytes = 0;

  private readonly queue: Queued[] = [];
  private inFlight: Queued[] = [];
  /** Discarded ranges still inside the pack, sorted and merged; the last one may reach `end`. */
  private deadRanges: PackRange[] = [];
  /** Where the file must be truncated before the next write (a dead tail was cut). */
  private cut: number | undefined;
  /** Bytes the file may hold: the furthest write since the last truncation. */
  private fileEnd: number;
  /** Moves at every cut, so a sync that started before it does not claim bytes written after it. */
  private cuts = 0;
  private queueStart: number;
  private queueBytes = 0;
  private inFlightBytes = 0;
  private writtenEnd: number;
  private syncedEnd: number;
  private lastBackgroundSync: number;
  private pumping: Promise<void> | undefined;
  private syncing: Promise<void> | undefined;
  private failure: Error | undefined;
  private closed = false;
  private readonly writeWaiters: Waiter[] = [];
  private drainWaiters: Array<() => void> = [];

  private constructor(
    readonly id: number,
    readonly path: string,
    private readonly handle: FileHandle,
  ) {
    this.end = PACK_MAGIC.length;
    this.queueStart = PACK_MAGIC.length;
    this.writtenEnd = PACK_MAGIC.length;
    this.syncedEnd = PACK_MAGIC.length;
    this.lastBackgroundSync = PACK_MAGIC.length;
    this.fileEnd = PACK_MAGIC.length;
  }

  static async create(packsDir: string, id: number): Promise<PackWriter> {
    const path = packFileName(packsDir, id);
    const handle = await open(path, 'wx');
    try {
      await handle.write(PACK_MAGIC, 0, PACK_MAGIC.length, 0);
      await handle.datasync();
      await fsyncDir(packsDir);
    } catch (error) {
      await handle.close();
      throw error;
    }
    return new PackWriter(id, path, handle);
  }

  get failed(): boolean {
    return this.failure !== undefined;
  }

  get pendingBytes(): number {
    return this.queueBytes + this.inFlightBytes;
  }

  /**
   * Queues one record and returns the offset of its block bytes. The bytes must not change until
   * `release` is called (after they are written, when the writer fails, or when the record is discarded
   * and cut off before it was written).
   */
  append(multihash: Uint8Array, bytes: Uint8Array, release?: () => void): number {
    this.throwIfFailed();
    if (this.closed) throw new Error('pack writer is closed');
    const header = encodeRecordHeader(multihash, bytes.byteLength);
    const dataOffset = this.end + recordHeaderLength(multihash.byteLength);
    this.queue.push({ bytes: header, release: undefined }, { bytes, release });
    const size = header.byteLength + bytes.byteLength;
    this.queueBytes += size;
    this.end += size;
    if (this.pumping === undefined) this.pumping = this.pump();
    return dataOffset;
  }

  /**
   * Marks whole records (header included) that no index row will ever point at as dead. When dead
   * records reach the end of the pack, the pack shrinks back to where they start.
   */
  discard(ranges: Iterable<PackRange>): void {
    let added = 0;
    for (const range of ranges) {
      if (range.end <= range.start || range.start < PACK_MAGIC.length || range.end > this.end) continue;
      this.deadRanges.push({ start: range.start, end: range.end });
      added += range.end - range.start;
    }
    if (added === 0) return;
    this.deadBytes += added;
    this.deadRanges = mergeRanges(this.deadRanges);
    const last = this.deadRanges[this.deadRanges.length - 1];
    if (last === undefined || last.end !== this.end || this.failure !== undefined || this.closed) return;
    this.deadRanges.pop();
    this.deadBytes -= this.end - last.start;
    this.retract(last.start);
  }

  /** Counts bytes of indexed records that GC deleted: dead, but never cut off (see the class comment). */
  countDead(bytes: number): void {
    this.deadBytes += bytes;
  }

  /** A failed write fails every later call: the pack's tail is unknown from then on. */
  private throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure;
  }

  /** Resolves once the queue is below the low-water mark; call when `pendingBytes` is high. */
  async drain(): Promise<void> {
    this.throwIfFailed();
    if (this.pendingBytes <= HIGH_WATER_BYTES) return;
    await new Promise<void>((resolve) => this.drainWaiters.push(resolve));
    this.throwIfFailed();
  }

  needsDrain(): boolean {
    return this.pendingBytes > HIGH_WATER_BYTES;
  }

  /** Resolves when every byte before `end` is written (not necessarily durable). */
  whenWritten(end: number): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.writtenEnd >= end) return Promise.resolve();
    return new Promise<void>((resolve, reject) => this.writeWaiters.push({ end, resolve, reject }));
  }

  /** Makes every byte before `end` durable: written, then fdatasync'd. */
  async syncTo(end: number): Promise<void> {
    await this.whenWritten(end);
    while (this.syncedEnd < end) {
      this.throwIfFailed();
      if (this.syncing === undefined) this.syncing = this.syncWritten();
      await this.syncing;
    }
  }

  /** Waits for queued writes, then closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    while (this.pumping !== undefined) await this.pumping.catch(() => undefined);
    if (this.syncing !== undefined) await this.syncing.catch(() => undefined);
    await this.handle.close();
  }

  private async syncWritten(): Promise<void> {
    const target = this.writtenEnd;
    const cuts = this.cuts;
    try {
      await this.handle.datasync();
      // After a cut, bytes below `target` may be new ones this sync did not cover: syncTo syncs again.
      if (cuts === this.cuts && target > this.syncedEnd) this.syncedEnd = target;
    } catch (error) {
      this.fail(error as Error);
      throw error;
    } finally {
      this.syncing = undefined;
    }
  }

  /**
   * Cuts the pack back to `from` (a record boundary; every byte from there on is dead and was never
   * indexed). Queued bytes past it are dropped and released now; bytes already written or being written
   * are removed by a truncation that the pump runs before it writes anything new, so a later record
   * appended at `from` can never be overwritten by the truncation or outrun by it.
   */
  private retract(from: number): void {
    let drop = this.end - Math.max(from, this.queueStart);
    while (drop > 0) {
      const entry = this.queue.pop() as Queued;
      drop -= entry.bytes.byteLength;
      this.queueBytes -= entry.bytes.byteLength;
      entry.release?.();
    }
    if (from < this.queueStart) this.queueStart = from;
    this.end = from;
    this.writtenEnd = Math.min(this.writtenEnd, from);
    this.syncedEnd = Math.min(this.syncedEnd, from);
    this.lastBackgroundSync = Math.min(this.lastBackgroundSync, from);
    this.cuts++;
    this.wakeDrainers();
    if (this.pumping !== undefined) {
      // The running pump (maybe mid-write past `from`) truncates before its next write.
      this.cut = Math.min(this.cut ?? from, from);
    } else if (this.fileEnd > from) {
      // Started only with a truncation to await, so it cannot finish before `pumping` is assigned.
      this.cut = from;
      this.pumping = this.pump();
    }
  }

  private async pump(): Promise<void> {
    try {
      while ((this.queue.length > 0 || this.cut !== undefined) && this.failure === undefined) {
        if (this.cut !== undefined) {
          const target = this.cut;
          this.cut = undefined;
          if (this.fileEnd > target) {
            await this.handle.truncate(target);
            this.fileEnd = target;
          }
          continue;
        }
        let count = 0;
        let bytes = 0;
        while (count < this.queue.length && count < MAX_WRITE_BUFFERS && bytes < MAX_WRITE_BYTES) {
          bytes += (this.queue[count] as Queued).bytes.byteLength;
          count++;
        }
        this.inFlight = this.queue.splice(0, count);
        const position = this.queueStart;
        this.queueStart += bytes;
        this.queueBytes -= bytes;
        this.inFlightBytes = bytes;
        await writeAll(
          this.handle,
          this.inFlight.map((entry) => entry.bytes),
          position,
          bytes,
        );
        this.inFlightBytes = 0;
        this.fileEnd = Math.max(this.fileEnd, position + bytes);
        // A cut that came while these bytes were in flight keeps them out of the written prefix.
        this.writtenEnd = Math.min(position + bytes, this.cut ?? Number.POSITIVE_INFINITY);
        this.releaseInFlight();
        this.wakeWriters();
        this.wakeDrainers();
        if (this.writtenEnd - this.lastBackgroundSync >= BACKGROUND_SYNC_BYTES && this.syncing === undefined) {
          this.lastBackgroundSync = this.writtenEnd;
          this.syncing = this.syncWritten();
          this.syncing.catch(() => undefined);
        }
      }
    } catch (error) {
      this.fail(error as Error);
    } finally {
      this.pumping = undefined;
    }
  }

  private wakeWriters(): void {
    for (let i = this.writeWaiters.length - 1; i >= 0; i--) {
      const waiter = this.writeWaiters[i] as Waiter;
      if (waiter.end <= this.writtenEnd) {
        this.writeWaiters.splice(i, 1);
        waiter.resolve();
      }
    }
  }

  private wakeDrainers(): void {
    if (this.pendingBytes > LOW_WATER_BYTES || this.drainWaiters.length === 0) return;
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private releaseInFlight(): void {
    const written = this.inFlight;
    this.inFlight = [];
    for (const entry of written) entry.release?.();
  }

  private fail(error: Error): void {
    if (this.failure === undefined) this.failure = error;
    // Nothing queued will be written now, and a failed write no longer reads its buffers.
    this.releaseInFlight();
    for (const entry of this.queue) entry.release?.();
    this.queue.length = 0;
    this.queueBytes = 0;
    for (const waiter of this.writeWaiters.splice(0)) waiter.reject(this.failure);
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

async function writeAll(handle: FileHandle, buffers: Uint8Array[], position: number, total: number): Promise<void> {
  let written = 0;
  let pending = buffers;
  while (written < total) {
    const { bytesWritten } = await handle.writev(pending, position + written);
    if (bytesWritten <= 0) throw new Error('pack write made no progress');
    written += bytesWritten;
    if (written < total) pending = dropPrefix(pending, bytesWritten);
  }
}

/** Sorted, with touching or overlapping ranges joined. */
function mergeRanges(ranges: PackRange[]): PackRange[] {
  ranges.sort((a, b) => a.start - b.start);
  const merged: PackRange[] = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last !== undefined && range.start <= last.end) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  return merged;
}

function dropPrefix(buffers: Uint8Array[], count: number): Uint8Array[] {
  const rest: Uint8Array[] = [];
  let skip = count;
  for (const buffer of buffers) {
    if (skip >= buffer.byteLength) {
      skip -= buffer.byteLength;
      continue;
    }
    rest.push(skip > 0 ? buffer.subarray(skip) : buffer);
    skip = 0;
  }
  return rest;
}
