import type { CID } from 'multiformats/cid';
import type { SyncRestoreResult } from '../../shared/api-types.js';
import { requireVersion } from './history.js';
import { restoreFromVersion, type RestoreTarget } from './restore.js';
import { restoreStamp } from './restore-name.js';
import { checkRestoreTo } from './restore-target.js';
import { checkOpen, ownedFolder, type SyncContext } from './sync-context.js';

/**
 * A file or folder of a kept version written back to the synced folder (where the watcher syncs it like any
 * change) or into `to`; never over different local content unless `overwrite` (see restore.ts).
 */

/** Where the entry goes under its base: into the folder, back where it was; into `to`, under its own name. */
export function restorePlacement(target: RestoreTarget): readonly string[] {
  return target.to === undefined ? target.path : target.path.slice(-1);
}

export async function restoreFolderVersion(ctx: SyncContext, accountId: number, id: string, root: CID, target: RestoreTarget): Promise<SyncRestoreResult> {
  checkOpen(ctx);
  const row = await ownedFolder(ctx, accountId, id);
  const version = await requireVersion(ctx.store, row.id, root, 'root');
  const stamp = restoreStamp(version.createdAt, -new Date(version.createdAt * 1000).getTimezoneOffset());
  const { to } = target;
  const confirmTo = to === undefined ? undefined : () => checkRestoreTo(to, row.path);
  await confirmTo?.();
  const write = (): Promise<SyncRestoreResult> =>
    restoreFromVersion(ctx.blocks, {
      root: version.root,
      path: target.path,
      base: to ?? row.path,
      placeAt: restorePlacement(target),
      overwrite: target.overwrite,
      stamp,
      ...(confirmTo === undefined ? {} : { confirmBase: confirmTo }),
    });
  // Into a followed folder, never while an update writes it (what it writes is a local change to the next one).
  return row.mode === 'follow' && ctx.follow ? ctx.follow.domains.writeLock.run(row.id, write) : write();
}
