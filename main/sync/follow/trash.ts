import type { Stats } from 'node:fs';
import { lstat, rename, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freedesktopTrash } from './freedesktop-trash.js';

/**
 * The OS trash, where a followed folder's removed files and discarded local changes go (issue 24: "moved to
 * the OS trash where one exists"). Chosen per platform, without spawning anything:
 * - Linux and the other free Unixes: the FreeDesktop.org trash (freedesktop-trash.ts), what their file
 *   managers show and restore from;
 * - macOS: `~/.Trash` for the home's volume (what Finder's Trash shows; "Put Back" needs Finder's own
 *   record, which only its scripting bridge writes: the file is there, under its name, to drag back);
 *   another volume has no trash here;
 * - Windows: none. Its Recycle Bin takes files only through a shell call (SHFileOperation/IFileOperation),
 *   which Node reaches only through a native module or a PowerShell process per call.
 * Where there is no trash, `moveToTrash` answers false and moves nothing: the caller decides (a file the
 * version removed is deleted, its bytes stay in the folder's history; a local change is never deleted).
 * (`trash` from npm was the alternative: it adds a dependency and, on macOS and Windows, runs a bundled binary.)
 */
export interface Trash {
  /** Moves `target` (a file or a folder; a link itself, never what it leads to) to the trash; false: no trash takes it. */
  moveToTrash(target: string): Promise<boolean>;
}

export const noTrash: Trash = { moveToTrash: async () => false };

export interface TrashPlace {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  home: string;
  /** undefined on Windows. */
  uid: number | undefined;
}

function currentPlace(): TrashPlace {
  return { platform: process.platform, env: process.env, home: os.homedir(), uid: process.getuid?.() };
}

/** `$XDG_DATA_HOME` when set and absolute (the spec ignores a relative one), else `~/.local/share`. */
export function xdgDataHome(env: NodeJS.ProcessEnv, home: string): string {
  const given = env['XDG_DATA_HOME'];
  return given !== undefined && path.isAbsolute(given) ? given : path.join(home, '.local', 'share');
}

async function statOrNull(target: string): Promise<Stats | null> {
  return stat(target).catch(() => null);
}

/** Finder's per-user trash of the home volume: a rename into `~/.Trash`, under a free name. */
export function macosHomeTrash(home: string): Trash {
  const trashDir = path.join(home, '.Trash');
  return {
    async moveToTrash(target) {
      const [found, trash] = await Promise.all([lstat(target), statOrNull(trashDir)]);
      if (trash === null || !trash.isDirectory() || trash.dev !== found.dev) return false;
      const { name, ext } = path.parse(target);
      for (let attempt = 1; attempt <= 1000; attempt++) {
        const candidate = path.join(trashDir, attempt === 1 ? `${name}${ext}` : `${name} ${attempt}${ext}`);
        if ((await lstat(candidate).catch(() => null)) !== null) continue;
        await rename(target, candidate);
        return true;
      }
      return false;
    },
  };
}

/** The trash of the platform described by `place` (the running one by default). */
export function systemTrash(place: TrashPlace = currentPlace()): Trash {
  if (place.platform === 'win32') return noTrash;
  if (place.platform === 'darwin') return macosHomeTrash(place.home);
  if (place.uid === undefined) return noTrash;
  return freedesktopTrash({ dataHome: xdgDataHome(place.env, place.home), uid: place.uid });
}
