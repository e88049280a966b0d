import type { CID } from 'multiformats/cid';
import { unixSeconds } from '../base/clock.js';
import { NotFoundError } from '../base/errors.js';
import { directoryStats, type DirectoryStats } from '../content/directory/index.js';
import { inTransaction } from '../store/db/database.js';
import { deleteFolderRoot, folderRootOf, insertFolderMember, insertImportingFolderRoot, upsertReadyFolderRoot } from '../store/db/folders-queries.js';
import type { FoldersContext } from './context.js';
import { folderKey } from './folder-key.js';

export interface FolderImportOptions {
  signal?: AbortSignal;
  onProgress?: (progress: { shards: number; entries: number }) => void;
}

export interface FolderSummary {
  cid: CID;
  stats: DirectoryStats;
}

/**
 * Folder import (PUT /api/v0/folder/{cid}): checks that `cid` is pinned by the account (else 404) and
 * is a UnixFS directory, plain or HAMT (else 400), then indexes it once: a HAMT is walked whole to count
 * its entries and size estimates, so later operations read only the shards on their paths. While it
 * runs, operations on the root answer 423. A failed import leaves no trace. Importing a root that is
 * already indexed (by anyone) only grants the account access to it.
 */
export async function importFolder(ctx: FoldersContext, accountId: number, cid: CID, options: FolderImportOptions = {}): Promise<FolderSummary> {
  if (!(await ctx.pins.isPinned(accountId, cid))) {
    throw new NotFoundError(`cid: ${cid.toString()} is not pinned by this account`);
  }
  const key = folderKey(cid);
  const now = unixSeconds(ctx.clock);
  const running = ctx.imports.get(key);
  if (running !== undefined) {
    insertFolderMember(ctx.db, accountId, key, 'import', now);
    return { cid, stats: await running };
  }
  const existing = folderRootOf(ctx.db, key);
  if (existing?.state === 'ready' && existing.stats !== null) {
    insertFolderMember(ctx.db, accountId, key, 'import', now);
    return { cid, stats: existing.stats };
  }

  inTransaction(ctx.db, () => {
    if (existing !== null) deleteFolderRoot(ctx.db, key);
    insertImportingFolderRoot(ctx.db, key, now);
    insertFolderMember(ctx.db, accountId, key, 'import', now);
  });
  const work = directoryStats(ctx.blockstore, cid, { signal: options.signal, shardCache: ctx.shardCache, onProgress: options.onProgress });
  ctx.imports.set(key, work);
  try {
    const stats = await work;
    upsertReadyFolderRoot(ctx.db, key, stats, now);
    return { cid, stats };
  } catch (error) {
    deleteFolderRoot(ctx.db, key);
    throw error;
  } finally {
    ctx.imports.delete(key);
  }
}
