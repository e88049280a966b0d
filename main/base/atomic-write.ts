import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Writes a whole file so that a crash leaves either the old content or the new, never a torn file:
 * write a sibling temp file, fsync it, rename over the target, fsync the folder.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o644): Promise<void> {
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temp, 'wx', mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await handle.close();
  await rename(temp, path);
  await fsyncDir(dirname(path));
}

export async function fsyncDir(dir: string): Promise<void> {
  // Windows cannot open a directory for fsync; the rename is durable enough there.
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
