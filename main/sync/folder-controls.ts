import { ConflictError } from '../base/errors.js';
import type { SyncFolderRow } from '../store/repositories/sync.js';
import type { FolderRunner } from './runner.js';
import { checkOpen, folderChanged, ownedFolder, type SyncContext } from './sync-context.js';

/**
 * What a user does to a folder's running (contract section 9, and the window's rescan, retry and ignore
 * patterns): pause, resume, remove, rescan now, retry now, new ignore patterns.
 */

/** Why a rescan or a retry of the folder is refused (a 409's message), or undefined when it may go ahead. */
export function refusalOf(
  action: 'rescan' | 'retry',
  folder: Pick<SyncFolderRow, 'id' | 'userPaused'>,
  runner: Pick<FolderRunner, 'status'> | undefined,
): string | undefined {
  if (folder.userPaused || runner === undefined) {
    return `id: sync folder ${folder.id} is paused; ${action === 'rescan' ? 'resume it to rescan' : 'resume it instead'}`;
  }
  if (action === 'rescan') return undefined;
  const { state } = runner.status();
  return state === 'error' || state === 'paused' ? undefined : `id: sync folder ${folder.id} is ${state}, not in error: nothing to retry`;
}

/** A full rescan now, or (`retry`) a folder in error or paused because its root vanished tries again now. */
export async function nudgeFolder(ctx: SyncContext, accountId: number, id: string, action: 'rescan' | 'retry'): Promise<void> {
  checkOpen(ctx);
  const row = await ownedFolder(ctx, accountId, id);
  const runner = ctx.runners.get(row.id);
  const refusal = refusalOf(action, row, runner);
  if (refusal !== undefined) throw new ConflictError(refusal);
  // No refusal: the runner runs.
  if (action === 'rescan') runner?.rescan();
  else runner?.retry();
}

export async function pauseFolder(ctx: SyncContext, accountId: number, id: string): Promise<void> {
  checkOpen(ctx);
  const row = await ownedFolder(ctx, accountId, id);
  await ctx.store.sync.setSyncFolderUserPaused(row.id, true);
  await ctx.runners.stop(row.id);
  await ctx.store.sync.setSyncFolderState(row.id, 'paused', '');
  folderChanged(ctx, accountId, row.id);
}

export async function resumeFolder(ctx: SyncContext, accountId: number, id: string): Promise<void> {
  checkOpen(ctx);
  const row = await ownedFolder(ctx, accountId, id);
  await ctx.store.sync.setSyncFolderUserPaused(row.id, false);
  await ctx.runners.stop(row.id);
  ctx.runners.start(row);
}

export async function removeFolder(ctx: SyncContext, accountId: number, id: string): Promise<void> {
  checkOpen(ctx);
  const row = await ownedFolder(ctx, accountId, id);
  await ctx.runners.stop(row.id);
  await ctx.store.sync.deleteSyncFolder(row.id);
  folderChanged(ctx, accountId, row.id, true);
}

/**
 * Replaces the folder's own ignore patterns and applies them at once: a running folder boots again with them
 * (newly ignored files leave the root, un-ignored ones join it, in one batch); one paused by its user takes
 * them up when resumed.
 */
export async function setFolderIgnore(ctx: SyncContext, accountId: number, id: string, patterns: readonly string[]): Promise<void> {
  checkOpen(ctx);
  const row = await ownedFolder(ctx, accountId, id);
  const ignorePatterns = [...patterns];
  await ctx.store.sync.setSyncFolderIgnore(row.id, ignorePatterns);
  folderChanged(ctx, accountId, row.id);
  if (row.userPaused || !ctx.runners.has(row.id)) return;
  await ctx.runners.stop(row.id);
  ctx.runners.start({ ...row, ignorePatterns });
}
