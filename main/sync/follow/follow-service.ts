import { randomUUID } from 'node:crypto';
import type { SyncDiscardResult, SyncFolderView, SyncLocalChange } from '../../../shared/api-types.js';
import { unixSeconds, type Clock } from '../../base/clock.js';
import { BadInputError, ConflictError } from '../../base/errors.js';
import type { KeyedLock } from '../../base/keyed-lock.js';
import type { ReadBlockstore } from '../../content/read/index.js';
import { UniqueViolation, type Store } from '../../store/repositories/index.js';
import type { FollowLocalChange, SyncFolderRow } from '../../store/repositories/sync.js';
import { checkApartFromOthers, makeFolder, parseNewOrExistingFolderPath } from '../folder-path.js';
import { checkFolderRoot, detectCaseInsensitive } from '../scanner.js';
import { discardLocalChanges, type Trash } from './follow-applier.js';
import type { FollowTarget } from './follow-target.js';

/**
 * The followed folders' side of the sync service (issue 24, contract section 11): a follow added (the row,
 * then its runner started by the caller; the first copy runs in the background), a discard of its local
 * changes, and the follow fields of a folder's row as the API shows them. The sync service (sync-service.ts)
 * keeps one runner per folder of either mode and delegates here.
 */

/** A follow as the HTTP layer read it: what to follow, and the text of an absolute path to mirror it into. */
export interface FollowInput {
  target: FollowTarget;
  path: string;
}

export interface FollowServiceDeps {
  store: Store;
  blocks: ReadBlockstore;
  clock: Clock;
  /** One writer of a followed folder at a time: the runner's update or a discard (shared with the runners). */
  writeLock: KeyedLock;
  trash?: Trash;
}

/** Checks a follow's folder and stores its row (nothing is stored or made when anything is wrong). */
export async function addFollowedFolder(deps: FollowServiceDeps, accountId: number, input: FollowInput): Promise<SyncFolderRow> {
  const { target } = input;
  const place = await parseNewOrExistingFolderPath(input.path);
  checkApartFromOthers(place.path, await deps.store.sync.listSyncFolders());
  if (!place.exists) await makeFolder(place.path);
  const root = await checkFolderRoot(place.path, '');
  if (!root.ok) throw new BadInputError(`path: ${root.reason}`, 'path');
  const caseInsensitive = await detectCaseInsensitive(place.path);
  const id = randomUUID();
  try {
    return await deps.store.transaction(async (tx) => {
      const row = await tx.sync.insertSyncFolder({
        id,
        accountId,
        path: place.path,
        // A followed folder publishes nothing: it holds no name of its own (the followed one is follow_name).
        ipnsName: '',
        caseInsensitive,
        ignorePatterns: [],
        createdAt: unixSeconds(deps.clock),
        follow: { name: target.name, sources: target.sources },
      });
      await tx.sync.setSyncFolderDevice(id, root.deviceId);
      return row;
    });
  } catch (error) {
    if (error instanceof UniqueViolation) throw new ConflictError(`path: ${place.path} is already synced`, 'path');
    throw error;
  }
}

/** Writes the followed version over the folder's local changes (moved to the trash first); 409 for a sync folder. */
export async function discardFollowed(deps: FollowServiceDeps, row: SyncFolderRow): Promise<SyncDiscardResult> {
  if (row.mode !== 'follow') throw new ConflictError(`id: sync folder ${row.id} is synced, not followed: it has no local changes to discard`);
  return deps.writeLock.run(row.id, async () => {
    const result = await discardLocalChanges({
      folderId: row.id,
      store: deps.store,
      blocks: deps.blocks,
      clock: deps.clock,
      ...(deps.trash ? { trash: deps.trash } : {}),
    });
    await deps.store.sync.setFollowLocalChanges(row.id, result.localChanges);
    return { written: result.written, trashed: result.trashed, local_changes: result.localChanges.map(localChangeView) };
  });
}

function localChangeView(change: FollowLocalChange): SyncLocalChange {
  return { path: change.path, change: change.change, beside: [...change.beside] };
}

/** The follow fields of a folder's row (sync defaults for a synced folder). */
export function followFields(row: SyncFolderRow): Pick<SyncFolderView, 'mode' | 'source' | 'from' | 'seq' | 'checked_at' | 'local_changes'> {
  if (row.mode !== 'follow') return { mode: 'sync', source: '', from: [], seq: 0, checked_at: 0, local_changes: [] };
  const [gateway] = row.followSources;
  return {
    mode: 'follow',
    source: gateway === undefined ? `/ipns/${row.followName}` : `${gateway}/ipns/${row.followName}`,
    from: [...row.followSources],
    seq: row.followSeq === '' ? 0 : Number(row.followSeq),
    checked_at: row.checkedAt,
    local_changes: row.localChanges.map(localChangeView),
  };
}
