import type { CID } from 'multiformats/cid';
import type { SyncVersion, SyncVersionDiff, SyncVersionEntry } from '../../shared/api-types.js';
import { BadInputError, NotFoundError } from '../base/errors.js';
import { diffTrees } from '../content/directory/diff-trees.js';
import type { DirectoryBlockstore } from '../content/directory/index.js';
import { inspectNode, isDirectoryKind, listDirectory, resolvePath, type ReadBlockstore } from '../content/read/index.js';
import type { Repositories, Store } from '../store/repositories/index.js';
import type { SyncFolderRow } from '../store/repositories/sync.js';
import { DEFAULT_RETENTION, keptVersions, parseRetention, type RetentionPolicy } from './retention.js';

/**
 * Every version of a synced folder (issue "every version of a synced folder"): each settled batch's root is
 * a version, held from garbage collection while the folder's retention policy keeps it (the GC reads
 * keptVersionRoots beside the pins), listed newest first, and compared with another by a diff that reads
 * only what differs.
 */

export function retentionOf(folder: Pick<SyncFolderRow, 'retention'>): RetentionPolicy {
  return folder.retention === null ? DEFAULT_RETENTION : parseRetention(folder.retention);
}

/** Releases the versions the folder's policy no longer keeps at `nowSeconds`; returns how many. */
export async function applyRetention(store: Store, folder: Pick<SyncFolderRow, 'id' | 'retention'>, nowSeconds: number): Promise<number> {
  const policy = retentionOf(folder);
  // One transaction: the versions read are the ones released, whatever batch settles meanwhile.
  return store.transaction(async (tx) => {
    const versions = await tx.sync.syncVersions(folder.id, Number.MAX_SAFE_INTEGER, 0);
    const kept = keptVersions(
      versions.map((version) => ({ createdAt: version.finishedAt })),
      policy,
      nowSeconds,
    );
    const released = versions.filter((_, index) => !kept.has(index)).map((version) => version.id);
    await tx.sync.releaseSyncVersions(folder.id, released);
    return released.length;
  });
}

export const MAX_VERSIONS_PAGE = 1000;

export async function listVersions(
  store: Repositories,
  folderId: string,
  page: { limit: number; start: number },
): Promise<{ versions: SyncVersion[]; total: number }> {
  const versions = (await store.sync.syncVersions(folderId, page.limit, page.start)).map((version) => ({
    root: version.root,
    created_at: version.finishedAt,
    added: version.added,
    modified: version.modified,
    removed: version.removed,
    bytes: version.bytes,
  }));
  return { versions, total: await store.sync.countSyncVersions(folderId) };
}

/** A root (the parameter `name`) that must name a kept version of the folder: 404 when it is not one. */
export async function requireVersion(store: Repositories, folderId: string, cid: CID, name: string): Promise<{ root: CID; createdAt: number }> {
  const version = await store.sync.syncVersionByRoot(folderId, cid.toString());
  if (!version) throw new NotFoundError(`${name}: ${cid.toString()} is not a version of sync folder ${folderId}`);
  return { root: cid, createdAt: version.finishedAt };
}

/** What changed from version `from` to version `to` of the folder, as paths relative to it. */
export async function diffVersions(
  store: Repositories,
  blocks: Pick<DirectoryBlockstore, 'get'>,
  folderId: string,
  from: CID,
  to: CID,
): Promise<SyncVersionDiff> {
  const before = await requireVersion(store, folderId, from, 'from');
  const after = await requireVersion(store, folderId, to, 'to');
  return diffTrees({ blockstore: blocks }, before.root, after.root, 'version');
}

/** At most this many entries of one directory are listed (the window pages nothing; a bigger folder is cut). */
export const MAX_TREE_ENTRIES = 5000;

/**
 * One directory of a kept version (for the window's tree view): its entries with their kind, read from the
 * local blocks (each entry's own node once, to tell a file from a folder). `path` [] is the folder itself.
 */
export async function versionDirectory(
  store: Repositories,
  blocks: ReadBlockstore,
  folderId: string,
  root: CID,
  path: readonly string[],
): Promise<{ entries: SyncVersionEntry[]; truncated: boolean }> {
  const version = await requireVersion(store, folderId, root, 'root');
  const cid = path.length === 0 ? version.root : (await resolvePath(blocks, version.root, path)).cid;
  const info = await inspectNode(blocks, cid);
  if (!isDirectoryKind(info.kind)) throw new BadInputError(`path: "${path.join('/')}" is not a folder in this version`);
  const entries: SyncVersionEntry[] = [];
  let truncated = false;
  for await (const entry of listDirectory(blocks, info)) {
    if (entries.length === MAX_TREE_ENTRIES) {
      truncated = true;
      break;
    }
    const child = await inspectNode(blocks, entry.cid);
    const kind = child.kind === 'file' ? 'file' : isDirectoryKind(child.kind) ? 'dir' : 'other';
    entries.push({ name: entry.name, kind, size: kind === 'file' ? child.size : entry.size, cid: entry.cid.toString() });
  }
  return { entries, truncated };
}
