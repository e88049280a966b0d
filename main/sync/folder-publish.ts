import { ConflictError, NotFoundError } from '../base/errors.js';
import type { SyncDomains } from './runner.js';

/** Placeholder `ipns_name` of a folder whose name is created with its first root (never a real name). */
export const PENDING_IPNS_NAME = 'pending:create';

/**
 * What a sync folder's publish came to: `published`, or `conflict` (a newer record of its name was seen
 * elsewhere, contract section 11: nothing published, the folder shows it and the user decides).
 */
export type FolderPublishOutcome = 'published' | 'conflict';

/**
 * Publishes the folder's current root to its IPNS name now (`sync/publish`): after a conflict, "publish mine
 * anyway" (`force`), with a sequence above every record seen. Run between batches (the runner's queue), or for a
 * folder with no runner (paused by its user).
 */
export async function publishFolderRoot(domains: Pick<SyncDomains, 'store' | 'publish'>, folderId: string, force: boolean): Promise<FolderPublishOutcome> {
  const row = await domains.store.sync.getSyncFolder(folderId);
  if (!row) throw new NotFoundError(`id: sync folder ${folderId} not found`);
  if (row.ipnsName === '' || row.ipnsName === PENDING_IPNS_NAME) throw new ConflictError(`id: sync folder ${folderId} has no IPNS name to publish`);
  if (row.rootCid === '') throw new ConflictError(`id: sync folder ${folderId} has no version yet: nothing to publish`);
  return domains.publish(row.accountId, row.ipnsName, row.rootCid, force);
}
