import { randomUUID } from 'node:crypto';
import type { Stats } from 'node:fs';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { CID } from 'multiformats/cid';
import { BadInputError } from '../base/errors.js';
import { inspectNode, readFileContent, type NodeInfo, type ReadBlockstore } from '../content/read/index.js';

/**
 * Writing a version's file to the disk without ever leaving half of it under its real name (restore.ts and
 * the followed folders' applier, follow/follow-applier.ts): the bytes go to a temporary name in the same
 * folder, are flushed to the disk (fsync), and only then renamed over the real name, and the folder's entry
 * is flushed too, so neither a kill nor a power cut leaves a torn file where the user looks.
 */

export interface WriteVersionFileOptions {
  /** The temporary name beside the target, from a random id (the caller's own pattern, so its leftovers are known). */
  tempName: (id: string) => string;
  /** Set the file's modification time from the version's UnixFS metadata, when it has one. */
  keepMtime?: boolean;
  signal?: AbortSignal;
}

/** The written file as it stands (fstat just before the rename: the rename keeps its identity and mtime). */
export type WrittenFile = Pick<Stats, 'size' | 'mtimeMs' | 'ino'>;

/** The UnixFS mtime as seconds (fractional), or undefined when the node has none. */
export function unixfsMtimeSeconds(info: NodeInfo): number | undefined {
  const mtime = info.unixfs?.mtime;
  if (mtime === undefined) return undefined;
  return Number(mtime.secs) + (mtime.nsecs ?? 0) / 1e9;
}

async function writeAll(handle: FileHandle, chunk: Uint8Array): Promise<void> {
  for (let offset = 0; offset < chunk.byteLength;) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.byteLength - offset);
    offset += bytesWritten;
  }
}

/** Flushes a folder's entries (the rename) to the disk; Windows cannot open a folder for it. */
export async function syncFolderEntry(folder: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes the file `cid` of the version to `local` through a temporary name beside it. The temporary file is
 * removed when anything fails (a full disk, an abort), so only a kill can leave one, under the caller's
 * recognisable name. A link at `local` is replaced by the file, never followed.
 */
export async function writeVersionFile(store: ReadBlockstore, cid: CID, local: string, options: WriteVersionFileOptions): Promise<WrittenFile> {
  const { signal } = options;
  const info = await inspectNode(store, cid, { signal });
  if (info.kind !== 'file') throw new BadInputError(`${basename(local)}: ${cid.toString()} is a ${info.kind}, not a file`);
  const folder = dirname(local);
  const temporary = join(folder, options.tempName(randomUUID()));
  // 'wx': never opens something already there (a link planted under the temporary name included).
  const handle = await open(temporary, 'wx');
  let closed = false;
  try {
    for await (const chunk of readFileContent(store, info, { signal })) await writeAll(handle, chunk);
    await handle.sync();
    const mtime = options.keepMtime === true ? unixfsMtimeSeconds(info) : undefined;
    if (mtime !== undefined) await handle.utimes(mtime, mtime);
    const written = await handle.stat();
    closed = true;
    await handle.close();
    signal?.throwIfAborted();
    await rename(temporary, local);
    await syncFolderEntry(folder);
    return { size: written.size, mtimeMs: written.mtimeMs, ino: written.ino };
  } catch (error) {
    if (!closed) await handle.close().catch(() => undefined);
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

/** Whether the local file holds exactly the version's bytes: sizes first, then the bytes side by side. */
export async function sameContent(store: ReadBlockstore, local: string, localSize: number, cid: CID, signal?: AbortSignal): Promise<boolean> {
  const info = await inspectNode(store, cid, { signal });
  if (info.kind !== 'file' || info.size !== localSize) return false;
  const handle = await open(local, 'r');
  try {
    let position = 0;
    for await (const chunk of readFileContent(store, info, { signal })) {
      const mine = Buffer.allocUnsafe(chunk.byteLength);
      const { bytesRead } = await handle.read(mine, 0, chunk.byteLength, position);
      if (bytesRead !== chunk.byteLength || !mine.equals(chunk)) return false;
      position += chunk.byteLength;
    }
    return position === localSize;
  } finally {
    await handle.close();
  }
}
