import { existsSync, type Stats } from 'node:fs';
import { lstat, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { CID } from 'multiformats/cid';
import type { SyncRestoredEntry, SyncRestoreResult } from '../../shared/api-types.js';
import { BadInputError } from '../base/errors.js';
import { inspectNode, isDirectoryKind, listDirectory, resolvePath, validateSegments, type ReadBlockstore } from '../content/read/index.js';
import { restoreTempName } from './ignore-rules.js';
import { restoredName } from './restore-name.js';
import { sameContent, writeVersionFile as writeFileAtomically } from './restore-write.js';
import { windowsNameProblem } from './windows-names.js';

/**
 * Restore (issue "every version of a synced folder"): a file or a directory of a version written back to
 * the disk, into the synced folder (the watcher then syncs it like any other change) or into another
 * folder the user names. Nothing local is overwritten silently: a file whose local content differs is
 * written beside it as `name (restored YYYY-MM-DD HHMM).ext` unless `overwrite` is set, and a restore never
 * deletes a file the version does not have. The version's tree is read and every name in it checked
 * before the first byte is written, so a refused restore writes nothing; each file is written under a
 * temporary name (never synced) and renamed into place when complete, and no local symlink is followed.
 * On Windows a version holding a name Windows cannot hold (`a:b`, `x\y`, `CON.txt`) is refused whole.
 */

/** What a restore asks for, as the API's caller gives it. */
export interface RestoreTarget {
  /** Below the version's root, `[]` for the whole folder. */
  path: string[];
  /** The folder to restore into instead of the synced folder: absolute, normalized. */
  to?: string;
  overwrite: boolean;
}

export interface RestoreRequest {
  /** The version's root. */
  root: CID;
  /** What to restore, below the root ([] for the whole folder). */
  path: readonly string[];
  /** Where the restore writes: the synced folder, or the folder the user named (absolute). */
  base: string;
  /** The path below `base` the restored entry takes ([] for `base` itself). */
  placeAt: readonly string[];
  overwrite: boolean;
  /** `YYYY-MM-DD HHMM` of the version (restore-name.ts's restoreStamp), for names written beside. */
  stamp: string;
  /** Refuse names Windows cannot hold (windows-names.ts); by default on Windows only. */
  windowsNames?: boolean;
  /**
   * Checks `base` again once it exists, before the first file is written (restore-target.ts's
   * checkRestoreTo for a folder the caller named): a folder swapped in since the first check is refused.
   */
  confirmBase?: () => Promise<void>;
  signal?: AbortSignal;
}

/** One entry of the plan: where it goes below `base`, where it is in the version, and what it is. */
interface Planned {
  place: string[];
  versionPath: string[];
  kind: 'file' | 'dir';
  /** Unset for the directories above the restored entry, which the version only passes through. */
  cid?: CID;
}

/** A name of the version this machine can hold, or a refusal naming it and where it is. */
function checkName(name: string, versionPath: readonly string[], windowsNames: boolean): void {
  validateSegments([name]);
  const problem = windowsNames ? windowsNameProblem(name) : undefined;
  if (problem !== undefined) {
    throw new BadInputError(`path: the version's ${JSON.stringify([...versionPath, name].join('/'))} ${problem}; nothing was restored`);
  }
}

/** Reads the version's tree under the restored path and checks every name in it; writes nothing. */
async function planRestore(store: ReadBlockstore, request: RestoreRequest): Promise<Planned[]> {
  const options = { signal: request.signal };
  const windowsNames = request.windowsNames ?? process.platform === 'win32';
  request.placeAt.forEach((name, depth) => checkName(name, request.path.slice(0, request.path.length - request.placeAt.length + depth), windowsNames));
  const target = request.path.length === 0 ? request.root : (await resolvePath(store, request.root, request.path, options)).cid;
  const plan: Planned[] = [];
  // The directories the restored entry sits in locally come first, so they exist (or are made) before it.
  for (let depth = 1; depth < request.placeAt.length; depth++) {
    plan.push({ place: request.placeAt.slice(0, depth), versionPath: request.path.slice(0, depth), kind: 'dir' });
  }
  const pending: Array<{ place: string[]; versionPath: string[]; cid: CID }> = [{ place: [...request.placeAt], versionPath: [...request.path], cid: target }];
  while (pending.length > 0) {
    const next = pending.pop();
    if (!next) break;
    request.signal?.throwIfAborted();
    const info = await inspectNode(store, next.cid, options);
    if (info.kind === 'file') {
      plan.push({ ...next, kind: 'file' });
      continue;
    }
    // A version made by sync holds files and directories only; anything else is not the user's file.
    if (!isDirectoryKind(info.kind)) {
      if (next.versionPath.length === request.path.length) throw new BadInputError(`path: "${request.path.join('/')}" is a ${info.kind}, not a file or folder`);
      continue;
    }
    plan.push({ ...next, kind: 'dir' });
    const children: typeof pending = [];
    for await (const entry of listDirectory(store, info, options)) {
      checkName(entry.name, next.versionPath, windowsNames);
      children.push({ place: [...next.place, entry.name], versionPath: [...next.versionPath, entry.name], cid: entry.cid });
    }
    // Depth first, in the directory's order.
    pending.push(...children.reverse());
  }
  return plan;
}

export async function restoreFromVersion(store: ReadBlockstore, request: RestoreRequest): Promise<SyncRestoreResult> {
  const plan = await planRestore(store, request);
  const written: SyncRestoredEntry[] = [];
  let unchanged = 0;
  await mkdir(request.base, { recursive: true });
  await request.confirmBase?.();
  // Where each planned directory went locally (beside a file of its name, it went elsewhere).
  const localDirs = new Map<string, string>([['', request.base]]);
  for (const entry of plan) {
    request.signal?.throwIfAborted();
    const parentKey = entry.place.slice(0, -1).join('/');
    const parent = localDirs.get(parentKey);
    if (parent === undefined) throw new Error(`restore: the folder of ${entry.place.join('/')} was not placed`);
    const name = entry.place[entry.place.length - 1];
    if (name === undefined) continue;
    const report = (local: string, outcome: Pick<SyncRestoredEntry, 'beside' | 'replaced'>): void =>
      void written.push({ path: entry.versionPath.join('/'), local, kind: entry.kind, ...outcome });
    if (entry.kind === 'dir') {
      localDirs.set(entry.place.join('/'), await placeDirectory(parent, name, request, report));
      continue;
    }
    if (!entry.cid) throw new Error('restore: a planned file has no CID');
    if (await placeFile(store, parent, name, entry.cid, request, report)) unchanged++;
  }
  return { written, unchanged };
}

type Report = (local: string, outcome: Pick<SyncRestoredEntry, 'beside' | 'replaced'>) => void;

async function lstatOrNull(path: string): Promise<Stats | null> {
  try {
    return await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function besideName(parent: string, name: string, stamp: string): string {
  return join(
    parent,
    restoredName(name, stamp, (candidate) => existsSync(join(parent, candidate))),
  );
}

/** The local directory for a directory of the version: the one there, a new one, or one beside a file of its name. */
async function placeDirectory(parent: string, name: string, request: RestoreRequest, report: Report): Promise<string> {
  const local = join(parent, name);
  const found = await lstatOrNull(local);
  if (found?.isDirectory()) return local;
  if (found === null) {
    await mkdir(local);
    report(local, { beside: false, replaced: false });
    return local;
  }
  if (request.overwrite) {
    await rm(local, { force: true });
    await mkdir(local);
    report(local, { beside: false, replaced: true });
    return local;
  }
  const beside = besideName(parent, name, request.stamp);
  await mkdir(beside);
  report(beside, { beside: true, replaced: false });
  return beside;
}

/** Writes one file of the version; true when the local file already held its content. */
async function placeFile(store: ReadBlockstore, parent: string, name: string, cid: CID, request: RestoreRequest, report: Report): Promise<boolean> {
  const local = join(parent, name);
  const found = await lstatOrNull(local);
  if (found?.isFile() && (await sameContent(store, local, found.size, cid, request.signal))) return true;
  if (found === null) {
    await writeVersionFile(store, cid, local, request.signal);
    report(local, { beside: false, replaced: false });
  } else if (request.overwrite) {
    // A folder (or link) of the file's name goes; a file is replaced by the rename itself.
    if (!found.isFile()) await rm(local, { recursive: true, force: true });
    await writeVersionFile(store, cid, local, request.signal);
    report(local, { beside: false, replaced: true });
  } else {
    const beside = besideName(parent, name, request.stamp);
    await writeVersionFile(store, cid, beside, request.signal);
    report(beside, { beside: true, replaced: false });
  }
  return false;
}

/** Writes the file under a restore's temporary name (never synced: ignore-rules.ts), then renames it to `local`. */
async function writeVersionFile(store: ReadBlockstore, cid: CID, local: string, signal?: AbortSignal): Promise<void> {
  await writeFileAtomically(store, cid, local, { tempName: restoreTempName, signal });
}
