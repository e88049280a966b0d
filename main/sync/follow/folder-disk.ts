import type { Stats } from 'node:fs';
import { lstat, readdir, rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import { isFromSourceNameOf } from '../restore-name.js';
import type { Trash } from './trash.js';

/**
 * What a followed folder holds at a path, read without following any link: the applier writes only into
 * real folders, so a link (or a file) where the version has a folder blocks everything below it.
 */

/** The temporary name a file is written under before its rename (restore-write.ts): recognisable, so leftovers of a kill are removed. */
export function followTempName(id: string): string {
  return `.pinfold-follow-${id}.tmp`;
}
const FOLLOW_TEMP = /^\.pinfold-follow-[0-9a-f-]+\.tmp$/;

export function isFollowTemp(name: string): boolean {
  return FOLLOW_TEMP.test(name);
}

export type DiskState =
  | { kind: 'absent' }
  /** Something other than a folder (a link, a file) sits at `at`, a folder above the path. */
  | { kind: 'blocked'; at: string }
  | { kind: 'file'; stat: Stats }
  | { kind: 'dir'; stat: Stats }
  /** A link, a FIFO, a socket, a device. */
  | { kind: 'other'; stat: Stats };

const parentOf = (rel: string): string => {
  const at = rel.lastIndexOf('/');
  return at < 0 ? '' : rel.slice(0, at);
};

export const relParent = parentOf;
export const relName = (rel: string): string => rel.slice(rel.lastIndexOf('/') + 1);

/** `/`-separated paths of a folder on the disk. */
export interface FolderDisk {
  readonly root: string;
  abs(rel: string): string;
  /** What is at `rel`, its folders checked to be real folders on the way. */
  stateOf(rel: string): Promise<DiskState>;
  /** Forget what is known of folders at and below `rel` (after something there was moved or made). */
  forget(rel: string): void;
}

async function lstatOrNull(target: string): Promise<Stats | null> {
  try {
    return await lstat(target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
}

function stateFrom(stat: Stats | null): DiskState {
  if (stat === null) return { kind: 'absent' };
  if (stat.isFile()) return { kind: 'file', stat };
  if (stat.isDirectory()) return { kind: 'dir', stat };
  return { kind: 'other', stat };
}

export function folderDisk(root: string): FolderDisk {
  // Folders seen to be real folders (not links) during this pass.
  const realFolders = new Set<string>(['']);
  const abs = (rel: string): string => (rel === '' ? root : path.join(root, ...rel.split('/')));

  // Null when `rel` and every folder above it are real folders, else what stands in the way.
  const folderProblem = async (rel: string): Promise<DiskState | null> => {
    if (realFolders.has(rel)) return null;
    const above = rel === '' ? null : await folderProblem(parentOf(rel));
    if (above !== null) return above;
    const state = stateFrom(await lstatOrNull(abs(rel)));
    if (state.kind === 'dir') {
      realFolders.add(rel);
      return null;
    }
    return state.kind === 'absent' ? state : { kind: 'blocked', at: rel };
  };

  return {
    root,
    abs,
    async stateOf(rel) {
      if (rel === '') return stateFrom(await lstatOrNull(root));
      const problem = await folderProblem(parentOf(rel));
      if (problem !== null) return problem;
      const state = stateFrom(await lstatOrNull(abs(rel)));
      if (state.kind === 'dir') realFolders.add(rel);
      return state;
    },
    forget(rel) {
      for (const known of [...realFolders]) if (known === rel || known.startsWith(`${rel}/`)) realFolders.delete(known);
    },
  };
}

/** Removes the temporary files a killed apply left in the folder at `absDir` (none of them is anybody's data). */
export async function removeLeftovers(absDir: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(absDir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!isFollowTemp(name)) continue;
    await unlink(path.join(absDir, name)).catch(() => undefined);
    removed++;
  }
  return removed;
}

/** The copies written beside `rel` (`name (from <source>, <stamp>).ext`), as paths of the folder. */
export async function besideCopiesOf(disk: FolderDisk, rel: string): Promise<string[]> {
  const parent = parentOf(rel);
  let names: string[];
  try {
    names = await readdir(disk.abs(parent));
  } catch {
    return [];
  }
  const name = relName(rel);
  return names
    .filter((candidate) => candidate !== name && isFromSourceNameOf(candidate, name))
    .sort()
    .map((candidate) => (parent === '' ? candidate : `${parent}/${candidate}`));
}

/**
 * Moves what is at `target` to the trash; with no trash, deletes it when `deleteWithoutTrash` (what the
 * version removed: its bytes stay in the folder's history). Returns whether it is gone.
 */
export async function trashOrDelete(trash: Trash, target: string, deleteWithoutTrash: boolean): Promise<boolean> {
  if (await trash.moveToTrash(target)) return true;
  if (!deleteWithoutTrash) return false;
  await rm(target, { recursive: true, force: true });
  return true;
}
