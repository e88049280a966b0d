import { readdirSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import type { SyncFolderView, SyncFollowRequest } from '../../shared/api-types.js';
import { folderTree, type TreeRecord } from '../helpers/folder-tree.js';
import { call, makeTempDir, type CallResult } from '../helpers/test-server.js';
import { converged, syncAdd, type Key, type Server } from './sync-helpers.js';
import { until } from '../helpers/until.js';

/**
 * Helpers of the followed folders' tests (issue 24, "Tested on real parts"): A, a `--public-gateway` Pinfold
 * with a sync folder whose name is public; B, a Pinfold following that name. Trees are compared whole (every
 * name, folder and byte), and every wait is a poll with a deadline.
 */

/** The applier's temporary files (follow-applier.ts): what a crash may leave, never under a real name. */
export const FOLLOW_TEMP = /^\.pinfold-follow-.*\.tmp$/;

/**
 * Points the FreeDesktop trash of this process (and of the `pinfold serve` children it starts with
 * `process.env`) at a temp folder, so removed files never reach the user's own trash; answers its folder.
 */
export async function useTempTrash(): Promise<string> {
  const home = await makeTempDir('pinfold-follow-xdg-');
  process.env['XDG_DATA_HOME'] = home;
  return path.join(home, 'Trash');
}

/** A sync folder on A whose IPNS name is public, settled: its id, name and root. */
export async function publicSyncFolder(a: Server, key: Key, folder: string): Promise<{ id: string; name: string; root: string }> {
  const added = await syncAdd(a, key, { path: folder });
  expect(added.status, added.text).toBe(200);
  const { id, ipns_name: name } = added.json.data;
  const marked = await call(a, 'POST', '/api/v0/name/public', { key, query: { arg: name, on: true } });
  expect(marked.status, marked.text).toBe(200);
  const root = await converged(a, key, id, folder);
  return { id, name, root };
}

export async function follow(server: Server, key: Key, body: SyncFollowRequest | Record<string, unknown>): Promise<CallResult<{ data: SyncFolderView }>> {
  return call(server, 'POST', '/api/v0/sync/follow', { key, body });
}

/** `POST /api/v0/sync/follow` that must work: the folder's row. */
export async function followed(server: Server, key: Key, body: SyncFollowRequest): Promise<SyncFolderView> {
  const answer = await follow(server, key, body);
  expect(answer.status, answer.text).toBe(200);
  return answer.json.data;
}

/** The folder's row as `GET /api/v0/sync` lists it. */
export async function listedRow(server: Server, key: Key, id: string): Promise<SyncFolderView> {
  const answer = await call<{ data: SyncFolderView[] }>(server, 'GET', '/api/v0/sync', { key });
  if (answer.status !== 200) throw new Error(`GET /api/v0/sync: ${answer.status} ${answer.text}`);
  const row = answer.json.data.find((candidate) => candidate.id === id);
  if (row === undefined) throw new Error(`folder ${id} not listed`);
  return row;
}

/** Polls B's row until `accept` takes it; a timeout says the last row seen. */
export async function rowWhen(
  server: Server,
  key: Key,
  id: string,
  what: string,
  accept: (row: SyncFolderView) => boolean,
  ms = 60_000,
): Promise<SyncFolderView> {
  let last: SyncFolderView | undefined;
  try {
    return await until(
      what,
      async () => {
        last = await listedRow(server, key, id);
        return accept(last) ? last : undefined;
      },
      ms,
    );
  } catch (error) {
    const seen = last === undefined ? 'none' : JSON.stringify({ ...last, ignore: undefined, unreadable: undefined });
    throw new Error(`${(error as Error).message}; last row seen: ${seen}`, { cause: error });
  }
}

/** The folder's tree without the names `skip` leaves out. */
export function treeOf(folder: string, skip: (rel: string) => boolean = () => false): TreeRecord {
  return folderTree(folder, skip);
}

/** Temporary files of the applier anywhere under `folder` (relative paths). */
export function followTemps(folder: string): string[] {
  const out: string[] = [];
  const visit = (rel: string): void => {
    for (const entry of readdirSync(path.join(folder, rel), { withFileTypes: true })) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (FOLLOW_TEMP.test(entry.name)) out.push(child);
      else if (entry.isDirectory()) visit(child);
    }
  };
  visit('');
  return out;
}

/**
 * Waits until B's followed folder holds A's version: B's row is idle, without error or local changes, at A's
 * root, and B's folder is A's folder byte for byte and name for name. Answers B's row.
 */
export async function mirrored(
  b: Server,
  bKey: Key,
  id: string,
  want: { root: string; folder: string },
  folderB: string,
  ms = 60_000,
): Promise<SyncFolderView> {
  let seen = '';
  try {
    return await until(
      `B's folder to mirror A's version ${want.root}`,
      async () => {
        const row = await listedRow(b, bKey, id);
        seen = `state=${row.state} root=${row.root} seq=${row.seq} error=${row.error} local_changes=${JSON.stringify(row.local_changes)}`;
        if (row.root !== want.root || row.state !== 'idle' || row.error !== '') return undefined;
        return JSON.stringify(treeOf(folderB)) === JSON.stringify(treeOf(want.folder)) ? row : undefined;
      },
      ms,
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}; last seen ${seen}`, { cause: error });
  }
}

/** A's sync folder settled after a change: its new root. */
export async function settledOnA(a: Server, key: Key, id: string, folder: string): Promise<string> {
  return converged(a, key, id, folder);
}

/** Writes a file, making its folders. */
export async function write(folder: string, rel: string, content: string | Uint8Array): Promise<void> {
  const abs = path.join(folder, ...rel.split('/'));
  await mkdir(path.dirname(abs), { recursive: true });
  await writeFile(abs, content);
}

/**
 * One of the edits a person makes in a synced folder, chosen from `step` so the run is the same each time:
 * new files (in new nested folders too), edits, renames of files and folders, deletes of files and folders.
 * `live` is the files there now (relative paths), kept up to date.
 */
export async function editStep(folder: string, live: string[], step: number): Promise<string> {
  const abs = (rel: string): string => path.join(folder, ...rel.split('/'));
  const pick = (): string => live[(step * 7919) % live.length] as string;
  // Adds twice as often as anything else, so the folder keeps growing while it changes.
  const kind = live.length < 6 ? 0 : step % 8;
  if (kind === 0 || kind === 1) {
    const rel = `d${step % 5}/e${step % 3}/${step % 2 === 0 ? 'f' + String(step % 4) + '/' : ''}new-${step}.txt`;
    await write(folder, rel, `file ${step}\n`.repeat(1 + (step % 50)));
    live.push(rel);
    return `add ${rel}`;
  }
  if (kind === 2 || kind === 3) {
    const rel = pick();
    await writeFile(abs(rel), `edited at step ${step}: ${'x'.repeat(step)}\n`);
    return `edit ${rel}`;
  }
  if (kind === 4) {
    const from = pick();
    const to = `${path.posix.dirname(from) === '.' ? '' : path.posix.dirname(from) + '/'}renamed-${step}.txt`;
    await rename(abs(from), abs(to));
    live.splice(live.indexOf(from), 1, to);
    return `rename ${from} -> ${to}`;
  }
  if (kind === 5) {
    const rel = pick();
    await rm(abs(rel));
    live.splice(live.indexOf(rel), 1);
    return `delete ${rel}`;
  }
  // A whole folder renamed (its files with it), or, one time in four, deleted.
  const nested = live.filter((file) => file.includes('/'));
  if (nested.length === 0) return editStep(folder, live, step + 1);
  const dir = path.posix.dirname(nested[(step * 31) % nested.length] as string);
  const inside = live.filter((file) => file.startsWith(`${dir}/`));
  if (step % 32 === 7) {
    await rm(abs(dir), { recursive: true });
    for (const file of inside) live.splice(live.indexOf(file), 1);
    return `delete folder ${dir}`;
  }
  const to = `${dir}-moved-${step}`;
  await rename(abs(dir), abs(to));
  for (const file of inside) live.splice(live.indexOf(file), 1, `${to}${file.slice(dir.length)}`);
  return `rename folder ${dir} -> ${to}`;
}
