import { mkdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { BadInputError, ConflictError } from '../base/errors.js';
import type { SyncFolderRow } from '../store/repositories/sync.js';

/**
 * The folder a sync/add or a sync/follow names (contract sections 9 and 11): an absolute path, canonical
 * (symlinks resolved) so that one folder has one spelling, and apart from every folder already synced or
 * followed (not the same, not inside one, not around one).
 */

async function canonical(value: string): Promise<string | undefined> {
  try {
    return await realpath(path.resolve(value));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ENOTDIR') throw new BadInputError(`path: not a folder: ${value}`, 'path');
    throw new BadInputError(`path: cannot be read: ${value} (${code ?? 'error'})`, 'path');
  }
}

async function requireDirectory(real: string, value: string): Promise<string> {
  const info = await stat(real);
  if (!info.isDirectory()) throw new BadInputError(`path: not a folder: ${value}`, 'path');
  return real;
}

/** `text` (an absolute path: http/input/sync-input.ts checked its shape) to an existing folder, canonical. */
export async function parseFolderPath(text: string): Promise<string> {
  const real = await canonical(text);
  if (real === undefined) throw new BadInputError(`path: folder not found: ${text}`, 'path');
  return requireDirectory(real, text);
}

/**
 * A followed folder's path: an existing folder, or a new one whose parent exists (made by {@link makeFolder}
 * once everything else was checked, so a refused follow leaves nothing behind).
 */
export async function parseNewOrExistingFolderPath(text: string): Promise<{ path: string; exists: boolean }> {
  const real = await canonical(text);
  if (real !== undefined) return { path: await requireDirectory(real, text), exists: true };
  const parent = await canonical(path.dirname(path.resolve(text)));
  if (parent === undefined) throw new BadInputError(`path: neither the folder nor its parent exists: ${text}`, 'path');
  await requireDirectory(parent, path.dirname(text));
  return { path: path.join(parent, path.basename(path.resolve(text))), exists: false };
}

/** Makes the new folder a follow named (its parent exists); refused as bad input when it cannot be made. */
export async function makeFolder(folderPath: string): Promise<void> {
  try {
    await mkdir(folderPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    throw new BadInputError(`path: the folder cannot be made: ${folderPath} (${code ?? 'error'})`, 'path');
  }
}

const isInside = (child: string, parent: string): boolean => {
  const rel = path.relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
};

/** 409 when `folderPath` is a folder already synced or followed, or inside or around one. */
export function checkApartFromOthers(folderPath: string, others: readonly Pick<SyncFolderRow, 'id' | 'path' | 'mode'>[]): void {
  for (const other of others) {
    const what = other.mode === 'follow' ? 'followed' : 'synced';
    if (other.path === folderPath) throw new ConflictError(`path: ${folderPath} is already ${what} (id ${other.id})`, 'path');
    if (isInside(folderPath, other.path) || isInside(other.path, folderPath)) {
      throw new ConflictError(`path: ${folderPath} overlaps the ${what} folder ${other.path} (id ${other.id})`, 'path');
    }
  }
}
