import { open, type FileHandle } from 'node:fs/promises';
import { packFileName } from './pack-format.js';

interface Entry {
  handle: Promise<FileHandle>;
  reads: number;
  retired: boolean;
}

/** Open read handles at most; the least recently used one closes first. */
const MAX_OPEN_PACKS = 128;

/**
 * Read handles of pack files, opened on first use and kept open (up to MAX_OPEN_PACKS). Compaction
 * retires a pack: its handle closes once the reads in flight finish (an unlinked file stays readable
 * through an open handle).
 */
export class PackReaders {
  private readonly entries = new Map<number, Entry>();

  constructor(private readonly packsDir: string) {}

  /** `length` bytes at `offset` of a pack, into `target` (exactly `length` bytes) when given. */
  async read(packId: number, offset: number, length: number, target?: Uint8Array): Promise<Uint8Array> {
    if (target !== undefined && target.byteLength !== length) throw new RangeError(`read target holds ${target.byteLength} bytes, not ${length}`);
    let entry = this.entries.get(packId);
    if (entry === undefined) {
      if (this.entries.size >= MAX_OPEN_PACKS) this.retire(this.entries.keys().next().value as number);
      const opened: Entry = { handle: open(packFileName(this.packsDir, packId), 'r'), reads: 0, retired: false };
      entry = opened;
      this.entries.set(packId, entry);
      entry.handle.catch(() => {
        if (this.entries.get(packId) === opened) this.entries.delete(packId);
      });
    } else {
      // Map order is the LRU order: move this pack to the end.
      this.entries.delete(packId);
      this.entries.set(packId, entry);
    }
    entry.reads++;
    try {
      const handle = await entry.handle;
      const buffer = target ?? Buffer.allocUnsafe(length);
      let filled = 0;
      while (filled < length) {
        const { bytesRead } = await handle.read(buffer, filled, length - filled, offset + filled);
        if (bytesRead === 0) throw new Error(`pack ${packId} is shorter than its index says`);
        filled += bytesRead;
      }
      return buffer;
    } finally {
      entry.reads--;
      if (entry.retired && entry.reads === 0) void closeQuietly(entry.handle);
    }
  }

  /** Stops serving a pack (compaction moved its blocks away). */
  retire(packId: number): void {
    const entry = this.entries.get(packId);
    if (entry === undefined) return;
    this.entries.delete(packId);
    entry.retired = true;
    if (entry.reads === 0) void closeQuietly(entry.handle);
  }

  async closeAll(): Promise<void> {
    const entries = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(entries.map((entry) => closeQuietly(entry.handle)));
  }
}

async function closeQuietly(handle: Promise<FileHandle>): Promise<void> {
  try {
    await (await handle).close();
  } catch {
    // A handle that never opened, or closed already, needs nothing more.
  }
}
