import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { OFFLOAD_MIN_BYTES } from '../base/hash-pool.js';
import { sameStat } from './coalescer.js';
import { describeFsError } from './scanner.js';

/**
 * One file of a batch streamed into the importer. The file must hold still: its stat before, after,
 * and the one the watcher saw must agree, else it is deferred to a later batch (never half a write).
 */

export const READ_CHUNK = 1024 * 1024;

export interface ImportJob {
  key: string;
  path: string;
  /** What the scan or the watcher saw; the file must still be exactly this when read. */
  expected: { size?: number; mtimeMs?: number; ino?: number };
}

interface Identity {
  size: number;
  mtimeMs: number;
  ino: number;
}

export type ImportOutcome =
  { kind: 'ok'; cid: string; stat: Identity } | { kind: 'unstable'; stat: Identity } | { kind: 'unreadable'; reason: string } | { kind: 'gone' };

/** The importer a file's bytes go to (the reconciler's `importFile` component). */
export type FileImporter = (source: AsyncIterable<Uint8Array>, options: { signal?: AbortSignal; transfer?: boolean }) => Promise<{ cid: string; size: number }>;

const NOT_REGULAR: ImportOutcome = { kind: 'unreadable', reason: 'not a regular file' };

export async function importOne(
  importFile: FileImporter,
  abs: string,
  job: ImportJob,
  signal: AbortSignal | undefined,
  onBytes: (n: number) => void,
): Promise<ImportOutcome> {
  let handle;
  try {
    // O_NONBLOCK: a FIFO that replaced the file must not hang the import; regular files ignore it.
    handle = await open(abs, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'gone' };
    return { kind: 'unreadable', reason: describeFsError(error) };
  }
  try {
    const want = await identityToRead(handle, job.expected);
    if ('kind' in want) return want;
    const reader = new SizedReader(handle, want.size, onBytes);
    let result;
    try {
      // Each read buffer is fresh, so a small file goes to the store as read, with no copy; a
      // bigger one is copied into the hash workers' shared memory, to be hashed off the event loop.
      result = await importFile(reader.chunks(), { signal, transfer: want.size < OFFLOAD_MIN_BYTES });
    } catch (error) {
      if (reader.error === undefined) throw error;
      // A folder or a FIFO in the file's place fails its read.
      const now = await handle.stat().catch(() => undefined);
      if (now !== undefined && !now.isFile()) return NOT_REGULAR;
      return { kind: 'unreadable', reason: describeFsError(reader.error) };
    }
    return await judgeAfterRead(handle, want, result);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * The identity the read must find. With the whole identity already seen (scan or watcher), one fstat
 * after the read proves the file held still; the one before is only needed when part of it is unknown.
 */
async function identityToRead(handle: FileHandle, expected: ImportJob['expected']): Promise<Identity | ImportOutcome> {
  const { size, mtimeMs, ino } = expected;
  if (size !== undefined && mtimeMs !== undefined && ino !== undefined) return { size, mtimeMs, ino };
  const before = await handle.stat();
  if (!before.isFile()) return NOT_REGULAR;
  const want = { size: before.size, mtimeMs: before.mtimeMs, ino: before.ino };
  if ((size !== undefined && size !== before.size) || (mtimeMs !== undefined && mtimeMs !== before.mtimeMs)) return { kind: 'unstable', stat: want };
  return want;
}

/**
 * The inode read, after the read: same identity, size and mtime as seen, so these are its bytes.
 * (Renamed or replaced meanwhile, the watcher reports the path again.)
 */
async function judgeAfterRead(handle: FileHandle, want: Identity, result: { cid: string; size: number }): Promise<ImportOutcome> {
  const after = await handle.stat();
  if (after.nlink === 0) return { kind: 'gone' };
  const stat = { size: after.size, mtimeMs: after.mtimeMs, ino: after.ino };
  if (!after.isFile()) return NOT_REGULAR;
  if (!sameStat(after, want) || result.size !== want.size) return { kind: 'unstable', stat };
  return { kind: 'ok', cid: result.cid, stat };
}

/**
 * Reads sized to the file (a 1 MiB read buffer per 4 KiB file costs more than the import), and no
 * read past the size seen: a file that grew meanwhile fails the stat comparison after. Keeps the
 * read's own error apart from the importer's.
 */
class SizedReader {
  error: unknown = undefined;

  constructor(
    private readonly handle: FileHandle,
    private readonly size: number,
    private readonly onBytes: (n: number) => void,
  ) {}

  async *chunks(): AsyncGenerator<Uint8Array> {
    try {
      for (let position = 0; position < this.size;) {
        const length = Math.min(READ_CHUNK, this.size - position);
        const buffer = Buffer.allocUnsafe(length);
        const { bytesRead } = await this.handle.read(buffer, 0, length, position);
        if (bytesRead === 0) return;
        position += bytesRead;
        this.onBytes(bytesRead);
        yield buffer.subarray(0, bytesRead);
      }
    } catch (error) {
      this.error = error;
      throw error;
    }
  }
}
