import type { SyncDiscardResult, SyncFolderView } from '../../shared/api-types.js';
import { ConflictError } from '../base/errors.js';
import { addFollowedFolder, discardFollowed, type FollowInput, type FollowServiceDeps } from './follow/follow-service.js';
import { folderView, NO_NAME_FACTS } from './folder-view.js';
import { checkOpen, folderChanged, ownedFolder, type SyncContext } from './sync-context.js';

/** The sync service's calls on followed folders (contract section 11), delegated to follow/follow-service.ts. */

function followDeps(ctx: SyncContext): FollowServiceDeps {
  if (!ctx.follow) throw new ConflictError('following a folder is not available in this service');
  const { domains } = ctx.follow;
  return { store: ctx.store, blocks: ctx.blocks, clock: ctx.clock, writeLock: domains.writeLock, ...(domains.trash ? { trash: domains.trash } : {}) };
}

/** Follows an IPNS name held elsewhere into a folder: answers the folder as listed at once, its first copy running in the background. */
export async function followFolder(ctx: SyncContext, accountId: number, input: FollowInput): Promise<SyncFolderView> {
  checkOpen(ctx);
  const row = await addFollowedFolder(followDeps(ctx), accountId, input);
  folderChanged(ctx, accountId, row.id);
  ctx.runners.start(row);
  return folderView(row, ctx.runners.get(row.id)?.status(), 0, NO_NAME_FACTS);
}

/** A followed folder's local changes replaced by the version it holds (moved to the trash); 409 for a sync folder. */
export async function discardFolderChanges(ctx: SyncContext, accountId: number, id: string): Promise<SyncDiscardResult> {
  checkOpen(ctx);
  const row = await ownedFolder(ctx, accountId, id);
  const result = await discardFollowed(followDeps(ctx), row);
  folderChanged(ctx, accountId, row.id);
  return result;
}
