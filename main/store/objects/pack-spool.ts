import { open, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { PACK_MAGIC, encodeRecordHeader, recordHeaderLength } from '../blockstore/pack-format.js';

/**
 * A pack being staged on local disk before it goes to the object store as one object: the pack file
 * format of store/blockstore/pack-format.ts (magic, then `header | multihash | length | bytes` records),
 * so a pack object is self-describing. Offsets are handed out at once, in call order; the bytes are
 * written at those offsets concurrently, and `finish` waits for every write before the file is read.
 */
export class PackSpool {
  /** Bytes the pack will hold once every write lands (the next record's start). */
  end = PACK_MAGIC.length;
  private readonly writes = new Set<Promise<void>>();
  private failure: Error | undefined;
  private sealed = false;

  private constructor(
    readonly packId: number,
    readonly path: string,
    private readonly handle: FileHandle,
  ) {}

  static async create(dir: string, packId: number): Promise<PackSpool> {
    const path = join(dir, `${String(packId).padStart(8, '0')}.spool`);
    const handle = await open(path, 'wx+', 0o600);
    const spool = new PackSpool(packId, path, handle);
    // A failure is kept and thrown by the next append or by finish.
    spool.track(handle.write(PACK_MAGIC, 0, PACK_MAGIC.length, 0)).catch(() => undefined);
    return spool;
  }

  /** Places one record; returns where its block bytes start and when they are on disk. */
  append(multihash: Uint8Array, bytes: Uint8Array): { offset: number; written: Promise<void> } {
    if (this.sealed) throw new Error(`pack ${this.packId} is sealed: no record may follow once it is being uploaded`);
    if (this.failure !== undefined) throw this.failure;
    const header = encodeRecordHeader(multihash, bytes.byteLength);
    const start = this.end;
    this.end += recordHeaderLength(multihash.byteLength) + bytes.byteLength;
    const written = this.track(this.handle.writev([header, bytes], start));
    return { offset: start + header.byteLength, written };
  }

  /** Waits for every write, then closes the file; throws the first write's failure. */
  async finish(): Promise<void> {
    this.sealed = true;
    while (this.writes.size > 0) await Promise.allSettled([...this.writes]);
    await this.handle.close().catch(() => undefined);
    if (this.failure !== undefined) throw this.failure;
  }

  /** Closes (after pending writes) and deletes the local file. */
  async remove(): Promise<void> {
    await this.finish().catch(() => undefined);
    await rm(this.path, { force: true });
  }

  private track(write: Promise<unknown>): Promise<void> {
    const done = write.then(
      () => undefined,
      (error: unknown) => {
        this.failure ??= error instanceof Error ? error : new Error(`writing pack ${this.packId} failed: ${String(error)}`);
        throw error;
      },
    );
    const settled = done.catch(() => undefined).finally(() => this.writes.delete(settled));
    this.writes.add(settled);
    return done;
  }
}
