import type { Stats } from 'node:fs';
import { lstat, mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Trash } from './trash.js';

/**
 * The FreeDesktop.org Trash specification 1.0 (what GNOME, KDE and every Linux file manager read): a file is
 * trashed by writing `info/<name>.trashinfo` (its original path and the deletion time) with O_EXCL, which
 * reserves `<name>`, then renaming the file to `files/<name>`. The home trash (`$XDG_DATA_HOME/Trash`) takes
 * files of the home's file system; a file on another one goes to its top directory's trash:
 * `$topdir/.Trash/$uid` when the administrator made `$topdir/.Trash` (a sticky folder, not a link), else
 * `$topdir/.Trash-$uid`. A rename never crosses file systems, so nothing is copied; where no trash can be
 * made the answer is false and nothing was moved.
 */

export interface FreedesktopTrashInit {
  /** `$XDG_DATA_HOME`, or `~/.local/share` when it is unset or not absolute. */
  dataHome: string;
  uid: number;
  /** For the DeletionDate (local time, as the spec asks). */
  now?: () => Date;
}

const MAX_NAMES = 1000;
const STICKY = 0o1000;

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** `YYYY-MM-DDThh:mm:ss` in local time. */
function deletionDate(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** The spec's Path: URL-escaped (RFC 2396) segment by segment, `/` kept. */
function escapePath(original: string): string {
  return original
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
}

async function statOrNull(target: string, follow: boolean): Promise<Stats | null> {
  try {
    return follow ? await stat(target) : await lstat(target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
}

/** The device of `target`, or of its nearest existing folder (the home trash may not exist yet). */
async function deviceOf(target: string): Promise<number | null> {
  for (let current = target; ; current = path.dirname(current)) {
    const found = await statOrNull(current, true);
    if (found !== null) return found.dev;
    if (path.dirname(current) === current) return null;
  }
}

/** The mount point of the file system holding `folder` (a folder of device `dev`). */
async function topDirectoryOf(folder: string, dev: number): Promise<string> {
  let current = folder;
  while (path.dirname(current) !== current) {
    const parent = path.dirname(current);
    const above = await statOrNull(parent, true);
    if (above === null || above.dev !== dev) break;
    current = parent;
  }
  return current;
}

/** `dir` as a folder of ours: made (0700) when missing, and then no link nor a file. */
async function ownFolder(dir: string): Promise<boolean> {
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
  } catch {
    return false;
  }
  const found = await statOrNull(dir, false);
  return found !== null && found.isDirectory() && !found.isSymbolicLink();
}

interface TrashDir {
  /** Holds `files/` and `info/`. */
  dir: string;
  /** What Path is relative to (the top directory), or null for absolute paths (the home trash). */
  relativeTo: string | null;
}

async function trashDirFor(init: FreedesktopTrashInit, target: string, dev: number): Promise<TrashDir | null> {
  if ((await deviceOf(init.dataHome)) === dev) return { dir: path.join(init.dataHome, 'Trash'), relativeTo: null };
  const top = await topDirectoryOf(path.dirname(target), dev);
  const shared = path.join(top, '.Trash');
  const sharedFound = await statOrNull(shared, false);
  if (sharedFound !== null && sharedFound.isDirectory() && (sharedFound.mode & STICKY) !== 0) {
    const mine = path.join(shared, String(init.uid));
    if (await ownFolder(mine)) return { dir: mine, relativeTo: top };
  }
  const own = path.join(top, `.Trash-${init.uid}`);
  if (await ownFolder(own)) return { dir: own, relativeTo: top };
  return null;
}

/** `name`, then `name.2.ext`, `name.3.ext`... (the numbering file managers use). */
function candidateName(name: string, attempt: number): string {
  if (attempt === 1) return name;
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)}.${attempt}${name.slice(dot)}` : `${name}.${attempt}`;
}

export function freedesktopTrash(init: FreedesktopTrashInit): Trash {
  const now = init.now ?? (() => new Date());
  return {
    async moveToTrash(target) {
      const found = await lstat(target);
      const trash = await trashDirFor(init, target, found.dev);
      if (trash === null) return false;
      const files = path.join(trash.dir, 'files');
      const info = path.join(trash.dir, 'info');
      if (!(await ownFolder(files)) || !(await ownFolder(info))) return false;
      const original = trash.relativeTo === null ? target : path.relative(trash.relativeTo, target);
      const text = `[Trash Info]\nPath=${escapePath(original.split(path.sep).join('/'))}\nDeletionDate=${deletionDate(now())}\n`;
      for (let attempt = 1; attempt <= MAX_NAMES; attempt++) {
        const name = candidateName(path.basename(target), attempt);
        if ((await statOrNull(path.join(files, name), false)) !== null) continue;
        const infoFile = path.join(info, `${name}.trashinfo`);
        let handle;
        try {
          handle = await open(infoFile, 'wx', 0o600);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
          throw error;
        }
        try {
          await handle.writeFile(text);
          await handle.sync();
        } finally {
          await handle.close();
        }
        try {
          await rename(target, path.join(files, name));
          return true;
        } catch (error) {
          await unlink(infoFile).catch(() => undefined);
          // Across file systems after all (a bind mount the device test could not see): not ours to copy.
          if ((error as NodeJS.ErrnoException).code === 'EXDEV') return false;
          throw error;
        }
      }
      return false;
    },
  };
}
