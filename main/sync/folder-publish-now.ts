import type { SyncConflict, SyncFolderView } from '../../shared/api-types.js';
import { ConflictError } from '../base/errors.js';
import { publishFolderRoot } from './folder-publish.js';
import { checkOpen, folderChanged, ownedFolder, showFolder, type SyncContext } from './sync-context.js';

/**
 * Contract section 11 (two machines, one name): a sync folder's current version published to its name now,
 * between batches; `force` over a newer record of the name seen elsewhere, with a sequence above it.
 */

/** The 409 of a publish that met a newer record of `name` seen elsewhere (`seen`, when still shown). */
export function publishConflictMessage(name: string, seen: SyncConflict | null): string {
  const where = seen ? ` (sequence ${seen.seq}, ${seen.source})` : '';
  return `id: a newer record of ${name} was seen elsewhere${where}; publish with force=true to publish this folder's version over it`;
}

/** Publishes now; answers the folder as listed. Without `force`, a conflict is a 409. */
export async function publishFolderNow(ctx: SyncContext, accountId: number, id: string, force: boolean): Promise<SyncFolderView> {
  checkOpen(ctx);
  const row = await ownedFolder(ctx, accountId, id);
  if (row.mode === 'follow') throw new ConflictError(`id: sync folder ${row.id} follows ${row.followName}: a followed folder is never published`);
  const runner = ctx.runners.get(row.id);
  // A running folder publishes between its batches; a paused one has nothing running to wait for.
  const outcome = runner ? await runner.publishNow(force) : await publishFolderRoot(ctx.domains, row.id, force);
  const now = await ownedFolder(ctx, accountId, row.id);
  const shown = await showFolder(ctx, now);
  if (outcome === 'conflict') throw new ConflictError(publishConflictMessage(now.ipnsName, shown.conflict));
  // A runner tells the event stream itself.
  if (!runner) folderChanged(ctx, accountId, row.id);
  return shown;
}
