import type { CID } from 'multiformats/cid';
import type { SyncVersion, SyncVersionDiff, SyncVersionEntry } from '../../shared/api-types.js';
import { diffVersions, listVersions, versionDirectory } from './history.js';
import { ownedFolder, type SyncContext } from './sync-context.js';

/** The reads of a folder's history (issue "every version of a synced folder") for the account that owns it. */

/** The folder's kept versions, newest first. */
export async function folderVersions(
  ctx: SyncContext,
  accountId: number,
  id: string,
  page: { limit: number; start: number },
): Promise<{ versions: SyncVersion[]; total: number }> {
  const row = await ownedFolder(ctx, accountId, id);
  return listVersions(ctx.store, row.id, page);
}

/** What changed between two kept versions of the folder. */
export async function folderDiff(ctx: SyncContext, accountId: number, id: string, from: CID, to: CID): Promise<SyncVersionDiff> {
  const row = await ownedFolder(ctx, accountId, id);
  return diffVersions(ctx.store, ctx.blocks, row.id, from, to);
}

/** One directory of a kept version (`path` [] for the folder itself): its entries and their kinds. */
export async function folderTree(
  ctx: SyncContext,
  accountId: number,
  id: string,
  root: CID,
  dirPath: readonly string[],
): Promise<{ entries: SyncVersionEntry[]; truncated: boolean }> {
  const row = await ownedFolder(ctx, accountId, id);
  return versionDirectory(ctx.store, ctx.blocks, row.id, root, dirPath);
}
