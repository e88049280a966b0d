import type { CID } from 'multiformats/cid';
import { unixSeconds } from '../base/clock.js';
import { NotFoundError } from '../base/errors.js';
import { directoryStats, type DirectoryStats } from '../content/directory/index.js';
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
    await joinRunningImport(ctx, accountId, key, now);
    return { cid, stats: await running };
  }
  // Registered in the same turn as the look-up above (no await between), so a second import of the
  // root always finds this one and waits for it.
  const work = indexFolderRoot(ctx, accountId, cid, key, now, options);
  ctx.imports.set(key, work);
  try {
    return { cid, stats: await work };
  } finally {
    ctx.imports.delete(key);
  }
}

/**
 * Makes the account a member of a root another import is indexing, so that its operations on the root
 * answer 423 until the import ends (and it loses the membership with the root if the import fails).
 * The running import opened its first transaction before it was registered, and transactions run one
 * after another, so the root's row is there by now, unless that import has already failed and dropped
 * it: then there is nothing to join, and the import's error is what the caller gets.
 */
async function joinRunningImport(ctx: FoldersContext, accountId: number, key: string, now: number): Promise<void> {
  await ctx.store.transaction(async (tx) => {
    if ((await tx.folders.folderRootOf(key)) !== null) await tx.folders.insertFolderMember(accountId, key, 'import', now);
  });
}

/** The work of one import: the root's row and the account's membership first, then the walk, then the stats. */
async function indexFolderRoot(
  ctx: FoldersContext,
  accountId: number,
  cid: CID,
  key: string,
  now: number,
  options: FolderImportOptions,
): Promise<DirectoryStats> {
  // The transaction opens before the first await, so a joining import's transaction runs after it.
  const known = await ctx.store.transaction(async (tx) => {
    const existing = await tx.folders.folderRootOf(key);
    if (existing?.state === 'ready' && existing.stats !== null) {
      await tx.folders.insertFolderMember(accountId, key, 'import', now);
      return existing.stats;
    }
    if (existing !== null) await tx.folders.deleteFolderRoot(key);
    await tx.folders.insertImportingFolderRoot(key, now);
    await tx.folders.insertFolderMember(accountId, key, 'import', now);
    return null;
  });
  if (known !== null) return known;
  try {
    const stats = await directoryStats(ctx.blockstore, cid, { signal: options.signal, shardCache: ctx.shardCache, onProgress: options.onProgress });
    await ctx.store.folders.upsertReadyFolderRoot(key, stats, now);
    return stats;
  } catch (error) {
    await ctx.store.folders.deleteFolderRoot(key);
    throw error;
  }
}
