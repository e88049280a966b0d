import type { Stats } from 'node:fs';
import { lstat, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { BadInputError } from '../base/errors.js';
import { windowsNameProblem } from './windows-names.js';

/**
 * Where a restore may write when the caller names a folder (`to`; contract section 9, issue 22, item 6):
 * `POST /api/v0/sync/restore?…&to=/tmp/../etc` wrote `/etc/keep.txt`. `to` must be absolute and normalized
 * (no `.` or `..` segment, none empty), no symlink on the way, and either inside the synced folder or a
 * folder that does not exist yet (it is created) or is empty: a restore never writes into an arbitrary
 * existing folder of the machine. Read in two steps: the text (pure, the API's parameter) and the disk.
 */

const MAX_TO = 4096;

/** A drive (`C:\`, `C:/`) or a UNC share (`\\server\share\`): a Windows path that names no current drive. */
const WINDOWS_ROOTED = /^(?:[a-z]:[\\/]|[\\/]{2}[^\\/])/i;

/**
 * `to` as the API takes it: an absolute, normalized path, given back in the platform's own spelling
 * (one trailing separator dropped). `platform` picks the rules (Windows: a drive or a share, either
 * slash, and each name one Windows can hold), so each platform's are tested on every platform.
 */
export function readRestoreTo(value: string, platform: NodeJS.Platform = process.platform): string {
  const windows = platform === 'win32';
  const paths = windows ? path.win32 : path.posix;
  if (value === '') throw new BadInputError('to must be the absolute path of a folder');
  if (value.length > MAX_TO || value.includes('\0')) throw new BadInputError(`to must be the absolute path of a folder, at most ${MAX_TO} characters, no NUL`);
  const shown = JSON.stringify(value.slice(0, 200));
  if (!paths.isAbsolute(value) || (windows && !WINDOWS_ROOTED.test(value))) {
    throw new BadInputError(`to must be an absolute path (a relative one would depend on the service's working folder), not ${shown}`);
  }
  const { root } = paths.parse(value);
  const segments = value.slice(root.length).split(windows ? /[\\/]/ : '/');
  if (segments.length > 1 && segments.at(-1) === '') segments.pop();
  if (segments.length === 1 && segments[0] === '') segments.pop();
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..') {
      throw new BadInputError(`to must be a normalized path, without empty, "." or ".." segments: ${shown}`);
    }
    const problem = windows ? windowsNameProblem(segment) : undefined;
    if (problem !== undefined) throw new BadInputError(`to: ${JSON.stringify(segment)} ${problem}`);
  }
  return paths.join(root, ...segments);
}

async function lstatOrNull(target: string): Promise<Stats | null> {
  try {
    return await lstat(target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    throw new BadInputError(`to: ${target} cannot be read (${code ?? 'error'})`);
  }
}

/** `child` is `parent` or below it. */
function isWithin(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Checks `to` (read by readRestoreTo) on the disk for a restore of the folder synced at `syncedFolder`:
 * every folder on the way that exists is a folder, not a symlink (a link would send the files elsewhere)
 * nor a file; and `to` is inside the synced folder, or does not exist yet, or is an empty folder.
 * Writes nothing. Run again once the restore made the folder, so a folder swapped in meanwhile is found.
 */
export async function checkRestoreTo(to: string, syncedFolder: string): Promise<void> {
  const { root } = path.parse(to);
  let current = root;
  for (const segment of path
    .relative(root, to)
    .split(path.sep)
    .filter((name) => name !== '')) {
    current = path.join(current, segment);
    const found = await lstatOrNull(current);
    // Nothing more exists on the way: the restore makes a new folder.
    if (found === null) return;
    if (found.isSymbolicLink()) {
      const leadsTo = await realpath(current).catch(() => null);
      throw new BadInputError(
        `to: ${current} is a symbolic link${leadsTo === null ? '' : ` (to ${leadsTo})`}; a restore goes through no link: name the folder itself`,
      );
    }
    if (!found.isDirectory()) throw new BadInputError(`to: ${current} is a file, not a folder`);
  }
  if (isWithin(to, syncedFolder)) return;
  const entries = await readdir(to).catch((error: NodeJS.ErrnoException) => {
    throw new BadInputError(`to: ${to} cannot be read (${error.code ?? 'error'})`);
  });
  if (entries.length > 0) {
    throw new BadInputError(
      `to: ${to} is a folder that already holds files, outside the synced folder; a restore writes only into the synced folder, a new folder or an empty one`,
    );
  }
}
