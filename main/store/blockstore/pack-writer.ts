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

/**
 * The one appender of one pack file. Offsets are handed out synchronously at `append`, bytes reach the
 * file in order by coalesced positional writes, and `syncTo` makes a prefix durable. A write failure
 * poisons the writer: every later wait rejects, and the store rotates to a new pack.
 */
export class PackWriter {
  /** Next append offset (logical end of the file, including queued bytes). */
  end: number;
  /** Batches that staged records here and have not finished; the pack stays open while any do. */
  users = 0;
  rotated = false;

  private readonly queue: Uint8Array[] = [];
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
  private releases: Array<{ end: number; release: () => void }> = [];
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
   * `release` is called (after they are written, or when the writer fails).
   */
  append(multihash: Uint8Array, bytes: Uint8Array, release?: () => void): number {
    if (this.failure !== undefined) throw this.failure;
    if (this.closed) throw new Error('pack writer is closed');
    const header = encodeRecordHeader(multihash, bytes.byteLength);
    const dataOffset = this.end + recordHeaderLength(multihash.byteLength);
    this.queue.push(header, bytes);
    const size = header.byteLength + bytes.byteLength;
    this.queueBytes += size;
    this.end += size;
    if (release !== undefined) this.releases.push({ end: this.end, release });
    if (this.pumping === undefined) this.pumping = this.pump();
    return dataOffset;
  }

  /** Resolves once the queue is below the low-water mark; call when `pendingBytes` is high. */
  async drain(): Promise<void> {
    if (this.failure !== undefined) throw this.failure;
    if (this.pendingBytes <= HIGH_WATER_BYTES) return;
    await new Promise<void>((resolve) => this.drainWaiters.push(resolve));
    if (this.failure !== undefined) throw this.failure;
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
      if (this.failure !== undefined) throw this.failure;
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
    try {
      await this.handle.datasync();
      if (target > this.syncedEnd) this.syncedEnd = target;
    } catch (error) {
      this.fail(error as Error);
      throw error;
    } finally {
      this.syncing = undefined;
    }
  }

  private async pump(): Promise<void> {
    try {
      while (this.queue.length > 0 && this.failure === undefined) {
        let count = 0;
        let bytes = 0;
        while (count < this.queue.length && count < MAX_WRITE_BUFFERS && bytes < MAX_WRITE_BYTES) {
          bytes += (this.queue[count] as Uint8Array).byteLength;
          count++;
        }
        const buffers = this.queue.splice(0, count);
        const position = this.queueStart;
        this.queueStart += bytes;
        this.queueBytes -= bytes;
        this.inFlightBytes = bytes;
        await writeAll(this.handle, buffers, position, bytes);
        this.inFlightBytes = 0;
        this.writtenEnd = position + bytes;
        this.runReleases(false);
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

  private runReleases(all: boolean): void {
    if (this.releases.length === 0) return;
    let count = 0;
    while (count < this.releases.length && (all || (this.releases[count] as { end: number }).end <= this.writtenEnd)) count++;
    for (const entry of this.releases.splice(0, count)) entry.release();
  }

  private fail(error: Error): void {
    if (this.failure === undefined) this.failure = error;
    this.runReleases(true);
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
