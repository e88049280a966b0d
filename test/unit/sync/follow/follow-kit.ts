import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { importer, type ImportCandidate } from 'ipfs-unixfs-importer';
import type { CID } from 'multiformats/cid';
import { sqliteStore } from '../../../../main/store/db/sqlite-store.js';
import { openBlockstore, type PinfoldBlockstore } from '../../../../main/store/blockstore/blockstore.js';
import type { Store } from '../../../../main/store/repositories/index.js';
import { applyFollowedVersion, type FollowApplyInit, type FollowApplyResult } from '../../../../main/sync/follow/follow-applier.js';
import { freedesktopTrash } from '../../../../main/sync/follow/freedesktop-trash.js';
import type { Trash } from '../../../../main/sync/follow/trash.js';
import { createSyncTestEnv, type SyncTestEnv } from '../../../helpers/sync-fixtures.js';

/**
 * A followed folder on real parts: the sync folder row and its entries in a SQLite file, versions imported
 * into a real block store, and a FreeDesktop trash in a home of the test's own ($XDG_DATA_HOME), so the
 * files an apply removes can be looked at.
 */

/** A version's files by path: text or bytes, with a UnixFS mtime (seconds) if given; `dir/` is an empty folder. */
export type VersionFiles = Record<string, string | Uint8Array | { content: string | Uint8Array; mtime: number }>;

export interface FollowEnv {
  env: SyncTestEnv;
  folder: string;
  folderId: string;
  store: Pick<Store, 'sync'>;
  blocks: PinfoldBlockstore;
  /** `$XDG_DATA_HOME` of the test's trash. */
  dataHome: string;
  trash: Trash;
  /** Every movePin call, as `new<-old`. */
  pins: string[];
  version(files: VersionFiles): Promise<CID>;
  apply(root: CID, extra?: Partial<FollowApplyInit>): Promise<FollowApplyResult>;
  /** The trash's files (names) and their .trashinfo texts. */
  trashed(): Promise<Record<string, string>>;
  cleanup(): Promise<void>;
}

const bytesOf = (value: string | Uint8Array): Uint8Array => (typeof value === 'string' ? new TextEncoder().encode(value) : value);

export async function importVersion(blocks: PinfoldBlockstore, files: VersionFiles): Promise<CID> {
  const source: ImportCandidate[] = [{ path: 'root' }];
  for (const [name, value] of Object.entries(files)) {
    if (name.endsWith('/')) source.push({ path: `root/${name.slice(0, -1)}` });
    else if (typeof value === 'string' || value instanceof Uint8Array) source.push({ path: `root/${name}`, content: bytesOf(value) });
    else source.push({ path: `root/${name}`, content: bytesOf(value.content), mtime: { secs: BigInt(value.mtime) } });
  }
  let root: CID | undefined;
  for await (const entry of importer(source, blocks, { cidVersion: 1, rawLeaves: true, wrapWithDirectory: false })) if (entry.path === 'root') root = entry.cid;
  if (!root) throw new Error('no root');
  return root;
}

export async function createFollowEnv(): Promise<FollowEnv> {
  const env = await createSyncTestEnv({ ipnsName: '' });
  const blocks = await openBlockstore(path.join(env.base, 'blocks'));
  const dataHome = path.join(env.base, 'xdg-data');
  await mkdir(dataHome);
  const trash = freedesktopTrash({ dataHome, uid: process.getuid?.() ?? 0 });
  const pins: string[] = [];
  const follow: FollowEnv = {
    env,
    folder: env.folder,
    folderId: env.folderId,
    store: sqliteStore(env.db),
    blocks,
    dataHome,
    trash,
    pins,
    version: (files) => importVersion(blocks, files),
    apply: (root, extra = {}) =>
      applyFollowedVersion({
        folderId: env.folderId,
        store: follow.store,
        blocks,
        root: root.toString(),
        source: 'peer.example:8080',
        movePin: async (newRoot, oldRoot) => void pins.push(`${newRoot}<-${oldRoot ?? ''}`),
        trash,
        ...extra,
      }),
    async trashed() {
      const files = path.join(dataHome, 'Trash', 'files');
      const names = await readdir(files).catch(() => []);
      const out: Record<string, string> = {};
      for (const name of names.sort()) out[name] = await readFile(path.join(dataHome, 'Trash', 'info', `${name}.trashinfo`), 'utf8');
      return out;
    },
    async cleanup() {
      await blocks.close();
      await env.cleanup();
      await rm(env.base, { recursive: true, force: true });
    },
  };
  return follow;
}
