import type { SyncBatchView, SyncConflict, SyncFolderView } from '../../shared/api-types.js';
import { parseContentPath } from '../names/content-path.js';
import type { SeenRecordRow } from '../store/repositories/names.js';
import type { SyncBatchRow, SyncFolderRow } from '../store/repositories/sync.js';
import { PENDING_IPNS_NAME } from './folder-publish.js';
import type { RunnerStatus } from './folder-status.js';
import { followFields } from './follow/follow-service.js';

/**
 * A sync folder as the API shows it (contract section 9 and the window's extensions), from its stored row,
 * its runner's live status when it runs, and what is known of its name. Pure: the reads are the caller's.
 */

/** What the folder shows of its name: public or not, and a newer record of it seen elsewhere. */
export interface NameFacts {
  public: boolean;
  conflict: SyncConflict | null;
}

export const NO_NAME_FACTS: NameFacts = { public: false, conflict: null };

/** The API's view of a record seen elsewhere: a plain `/ipfs/<cid>` value as its CID, as a folder's root reads. */
export function conflictView(seen: SeenRecordRow): SyncConflict {
  const target = parseContentPath(seen.value);
  const value = target?.namespace === 'ipfs' && target.rest === '' ? target.cid.toString() : seen.value;
  return { seq: seen.seq, value, seen_at: seen.seenAt, source: seen.source };
}

/** The name the folder shows: the followed one, its own, or '' while it has none (or its own is still to be made). */
export function shownName(row: Pick<SyncFolderRow, 'mode' | 'followName' | 'ipnsName'>): string {
  if (row.mode === 'follow') return row.followName;
  return row.ipnsName === PENDING_IPNS_NAME ? '' : row.ipnsName;
}

/** The folder's row in the list: the live status wins over the stored one while a runner runs. */
export function folderView(row: SyncFolderRow, live: RunnerStatus | undefined, historyBytes: number, name: NameFacts): SyncFolderView {
  return {
    id: row.id,
    path: row.path,
    root: row.rootCid,
    ipns_name: shownName(row),
    state: live?.state ?? row.state,
    files: row.files,
    bytes: row.bytes,
    pending: live?.pending ?? 0,
    last_synced_at: row.lastSyncedAt,
    error: live ? live.error : row.error,
    current_file: live?.currentFile ?? '',
    files_done: live?.filesDone ?? 0,
    bytes_done: live?.bytesDone ?? 0,
    bytes_pending: live?.bytesPending ?? 0,
    unreadable: live?.unreadable ?? [],
    ignore: row.ignorePatterns,
    created_at: row.createdAt,
    public: name.public,
    history_bytes: historyBytes,
    conflict: name.conflict,
    ...followFields(row),
  };
}

export function batchView(batch: SyncBatchRow): SyncBatchView {
  return { root: batch.root, finished_at: batch.finishedAt, added: batch.added, modified: batch.modified, removed: batch.removed, bytes: batch.bytes };
}
