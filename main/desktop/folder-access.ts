import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * Which folders the window may have opened in the file manager: a sync folder or the data folder, or
 * a folder inside one. shell.openPath would open anything (a program, a document with its default
 * app), so the path is checked here: absolute, under an allowed root after `..` and symbolic links are
 * resolved, and a directory.
 */
export class FolderNotAllowedError extends Error {
  override readonly name = 'FolderNotAllowedError';
}

export const MAX_PATH_LENGTH = 4096;

/** The folder to open (its real path), or null when it does not exist or is not a folder. */
export async function openableFolder(path: unknown, allowedRoots: readonly string[]): Promise<string | null> {
  if (typeof path !== 'string' || path === '' || path.length > MAX_PATH_LENGTH || path.includes('\0')) {
    throw new FolderNotAllowedError('path must be an absolute folder path');
  }
  if (!isAbsolute(path)) throw new FolderNotAllowedError('path must be an absolute folder path');
  const wanted = resolve(path);
  if (!allowedRoots.some((root) => isInside(wanted, resolve(root)))) {
    throw new FolderNotAllowedError('only a sync folder or the data folder (or a folder inside one) can be opened');
  }
  const real = await realpath(wanted).catch(() => null);
  if (real === null) return null;
  const realRoots = await Promise.all(allowedRoots.map((root) => realpath(root).catch(() => null)));
  if (!realRoots.some((root) => root !== null && isInside(real, root))) {
    throw new FolderNotAllowedError('the path leads out of its folder through a link');
  }
  const info = await stat(real).catch(() => null);
  return info?.isDirectory() ? real : null;
}

function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
