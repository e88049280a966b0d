import type { SyncFolderDetail, SyncFolderView } from '../../shared/api-types.js';
import { batchView } from './folder-view.js';
import { retentionOf } from './history.js';
import { readIgnoreFileView } from './ignore-file-view.js';
import { formatRetention } from './retention.js';
import { ownedFolder, showFolder, type SyncContext } from './sync-context.js';

/** The reads of an account's sync folders: the list, one folder's row, and one folder's page for the window. */

export async function listFolders(ctx: SyncContext, accountId: number): Promise<SyncFolderView[]> {
  const rows = await ctx.store.sync.listSyncFolders(accountId);
  const historyBytes = await ctx.store.sync.folderHistoryBytes(rows.map((row) => row.id));
  return Promise.all(rows.map((row) => showFolder(ctx, row, historyBytes.get(row.id) ?? 0)));
}

/** One of the account's folders as the list shows it; undefined when it has no such folder. */
export async function folderStatus(ctx: SyncContext, accountId: number, id: string): Promise<SyncFolderView | undefined> {
  const row = await ctx.store.sync.getSyncFolder(id);
  return row && row.accountId === accountId ? showFolder(ctx, row) : undefined;
}

/** The row, `.pinfoldignore`, the last settled batches and recent errors (newest first), the retention policy. */
export async function folderDetail(ctx: SyncContext, accountId: number, id: string): Promise<SyncFolderDetail> {
  const row = await ownedFolder(ctx, accountId, id);
  const ignoreFile = await readIgnoreFileView(row.path);
  const errors = ctx.runners.get(row.id)?.status().errors ?? [];
  return {
    ...(await showFolder(ctx, row)),
    pinfoldignore: ignoreFile.text,
    pinfoldignore_truncated: ignoreFile.truncated,
    batches: (await ctx.store.sync.recentSyncBatches(row.id)).map(batchView),
    errors: [...errors].reverse(),
    retention: formatRetention(retentionOf(row)),
  };
}
