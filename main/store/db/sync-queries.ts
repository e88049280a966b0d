import type { Db } from './database.js';
import { inTransaction, stmt } from './database.js';
import type {
  PendingHistoryBytes,
  SyncFolderState,
  SyncEntryKind,
  SyncFolderRow,
  SyncEntry,
  JournalOp,
  SyncJournal,
  NewSyncFolder,
  SyncBatchRow,
  SyncVersionRow,
  SyncFolderMode,
  FollowLocalChange,
} from '../repositories/sync.js';
import { KEPT_SYNC_BATCHES } from '../repositories/sync.js';

/** Typed access to the sync tables (migrations 6, 15, 16, 17 and 20). All SQL of the sync domain lives here. */

interface FolderDbRow {
  id: string;
  account_id: number;
  path: string;
  ipns_name: string;
  root_cid: string;
  state: SyncFolderState;
  error: string;
  user_paused: number;
  device_id: string;
  case_insensitive: number;
  ignore_patterns: string;
  retention: string | null;
  files: number;
  bytes: number;
  created_at: number;
  last_synced_at: number;
  mode: SyncFolderMode;
  follow_name: string;
  follow_sources: string;
  follow_seq: string;
  checked_at: number;
  local_changes: string;
}

const FOLDER_SELECT = 'SELECT sync_folders.* FROM sync_folders';

interface EntryDbRow {
  path_key: string;
  path: string;
  kind: SyncEntryKind;
  size: number;
  mtime_ms: number;
  ino: number;
  cid: string;
}

function toFolder(row: FolderDbRow): SyncFolderRow {
  return {
    id: row.id,
    accountId: row.account_id,
    path: row.path,
    ipnsName: row.ipns_name,
    rootCid: row.root_cid,
    state: row.state,
    error: row.error,
    userPaused: row.user_paused === 1,
    deviceId: row.device_id,
    caseInsensitive: row.case_insensitive === 1,
    ignorePatterns: JSON.parse(row.ignore_patterns) as string[],
    retention: row.retention,
    files: row.files,
    bytes: row.bytes,
    createdAt: row.created_at,
    lastSyncedAt: row.last_synced_at,
    mode: row.mode,
    followName: row.follow_name,
    followSources: JSON.parse(row.follow_sources) as string[],
    followSeq: row.follow_seq,
    checkedAt: row.checked_at,
    localChanges: JSON.parse(row.local_changes) as FollowLocalChange[],
  };
}

function toEntry(row: EntryDbRow): SyncEntry {
  return { pathKey: row.path_key, path: row.path, kind: row.kind, size: row.size, mtimeMs: row.mtime_ms, ino: row.ino, cid: row.cid };
}

/** Throws the SQLite unique violation (see isUniqueViolation) when the path is already synced. */
export function insertSyncFolder(db: Db, folder: NewSyncFolder): SyncFolderRow {
  stmt(
    db,
    `INSERT INTO sync_folders (id, account_id, path, ipns_name, state, case_insensitive, ignore_patterns, created_at, mode, follow_name, follow_sources)
     VALUES (?, ?, ?, ?, 'scanning', ?, ?, ?, ?, ?, ?)`,
  ).run(
    folder.id,
    folder.accountId,
    folder.path,
    folder.ipnsName,
    folder.caseInsensitive ? 1 : 0,
    JSON.stringify(folder.ignorePatterns),
    folder.createdAt,
    folder.follow ? 'follow' : 'sync',
    folder.follow?.name ?? '',
    JSON.stringify(folder.follow?.sources ?? []),
  );
  const row = getSyncFolder(db, folder.id);
  if (!row) throw new Error('sync folder vanished after insert');
  return row;
}

export function getSyncFolder(db: Db, id: string): SyncFolderRow | undefined {
  const row = stmt(db, `${FOLDER_SELECT} WHERE id = ?`).get(id) as FolderDbRow | undefined;
  return row ? toFolder(row) : undefined;
}

export function getSyncFolderByPath(db: Db, folderPath: string): SyncFolderRow | undefined {
  const row = stmt(db, `${FOLDER_SELECT} WHERE path = ?`).get(folderPath) as FolderDbRow | undefined;
  return row ? toFolder(row) : undefined;
}

/**
 * The bytes each folder's history alone holds: the sum over its kept versions but the current one
 * (migration 17). Apart from the folder row, so only the views that show it pay for the sum.
 */
export function folderHistoryBytes(db: Db, ids: readonly string[]): Map<string, number> {
  const sum = stmt(
    db,
    `SELECT coalesce(sum(b.unique_bytes), 0) AS bytes FROM sync_batches b JOIN sync_folders f ON f.id = b.folder_id
     WHERE b.folder_id = ? AND b.kept = 1 AND b.root != f.root_cid`,
  );
  return new Map(ids.map((id) => [id, (sum.get(id) as { bytes: number }).bytes]));
}

/** Newest first, like every list of the API. */
export function listSyncFolders(db: Db, accountId?: number): SyncFolderRow[] {
  const rows = (
    accountId === undefined
      ? stmt(db, `${FOLDER_SELECT} ORDER BY created_at DESC, sync_folders.rowid DESC`).all()
      : stmt(db, `${FOLDER_SELECT} WHERE account_id = ? ORDER BY created_at DESC, sync_folders.rowid DESC`).all(accountId)
  ) as FolderDbRow[];
  return rows.map(toFolder);
}

export function setSyncFolderState(db: Db, id: string, state: SyncFolderState, error: string): void {
  stmt(db, 'UPDATE sync_folders SET state = ?, error = ? WHERE id = ?').run(state, error, id);
}

export function setSyncFolderUserPaused(db: Db, id: string, paused: boolean): void {
  stmt(db, 'UPDATE sync_folders SET user_paused = ? WHERE id = ?').run(paused ? 1 : 0, id);
}

export function setSyncFolderDevice(db: Db, id: string, deviceId: string): void {
  stmt(db, 'UPDATE sync_folders SET device_id = ? WHERE id = ?').run(deviceId, id);
}

export function setSyncFolderIgnore(db: Db, id: string, patterns: readonly string[]): void {
  stmt(db, 'UPDATE sync_folders SET ignore_patterns = ? WHERE id = ?').run(JSON.stringify(patterns), id);
}

export function setSyncFolderIpnsName(db: Db, id: string, ipnsName: string): void {
  stmt(db, 'UPDATE sync_folders SET ipns_name = ? WHERE id = ?').run(ipnsName, id);
}

/** Removes the folder, its entries and any prepared batch. Pins and names are not touched. */
export function deleteSyncFolder(db: Db, id: string): boolean {
  return stmt(db, 'DELETE FROM sync_folders WHERE id = ?').run(id).changes > 0;
}

export function setFollowChecked(db: Db, id: string, checkedAt: number): void {
  stmt(db, 'UPDATE sync_folders SET checked_at = ? WHERE id = ?').run(checkedAt, id);
}

export function setFollowSequence(db: Db, id: string, sequence: string): void {
  stmt(db, 'UPDATE sync_folders SET follow_seq = ? WHERE id = ?').run(sequence, id);
}

export function setFollowLocalChanges(db: Db, id: string, changes: readonly FollowLocalChange[]): void {
  stmt(db, 'UPDATE sync_folders SET local_changes = ? WHERE id = ?').run(JSON.stringify(changes), id);
}

const SELECT_ENTRIES = 'SELECT path_key, path, kind, size, mtime_ms, ino, cid FROM sync_entries';

export function listSyncEntries(db: Db, folderId: string): SyncEntry[] {
  return (stmt(db, `${SELECT_ENTRIES} WHERE folder_id = ?`).all(folderId) as EntryDbRow[]).map(toEntry);
}

export function getSyncEntry(db: Db, folderId: string, pathKey: string): SyncEntry | undefined {
  const row = stmt(db, `${SELECT_ENTRIES} WHERE folder_id = ? AND path_key = ?`).get(folderId, pathKey) as EntryDbRow | undefined;
  return row ? toEntry(row) : undefined;
}

/** Entries strictly below folder `dirKey` ('' = the whole tree). */
export function listSyncEntriesUnder(db: Db, folderId: string, dirKey: string): SyncEntry[] {
  if (dirKey === '') return listSyncEntries(db, folderId);
  // '/' is 0x2F and '0' is 0x30: the range [dir/, dir0) is exactly the keys below dir, on the index.
  return (stmt(db, `${SELECT_ENTRIES} WHERE folder_id = ? AND path_key >= ? AND path_key < ?`).all(folderId, `${dirKey}/`, `${dirKey}0`) as EntryDbRow[]).map(
    toEntry,
  );
}

export function getSyncJournal(db: Db, folderId: string): SyncJournal | undefined {
  const head = stmt(db, 'SELECT old_root, new_root, created_at FROM sync_journal WHERE folder_id = ?').get(folderId) as
    { old_root: string; new_root: string; created_at: number } | undefined;
  if (!head) return undefined;
  const rows = stmt(db, 'SELECT op, path_key, path, kind, size, mtime_ms, ino, cid FROM sync_journal_entries WHERE folder_id = ? ORDER BY seq').all(
    folderId,
  ) as (EntryDbRow & { op: 'put' | 'delete_tree' })[];
  const ops = rows.map((row): JournalOp =>
    row.op === 'put' ? { op: 'put', ...toEntry(row) } : { op: 'delete_tree', pathKey: row.path_key, path: row.path, kind: row.kind },
  );
  return { folderId, oldRoot: head.old_root, newRoot: head.new_root, createdAt: head.created_at, ops };
}

/** Records a prepared batch in one transaction; replaces any older prepared batch of the folder. */
export function writeSyncJournal(db: Db, journal: SyncJournal): void {
  inTransaction(db, () => {
    stmt(db, 'DELETE FROM sync_journal WHERE folder_id = ?').run(journal.folderId);
    stmt(db, 'INSERT INTO sync_journal (folder_id, old_root, new_root, created_at) VALUES (?, ?, ?, ?)').run(
      journal.folderId,
      journal.oldRoot,
      journal.newRoot,
      journal.createdAt,
    );
    const insert = stmt(
      db,
      'INSERT INTO sync_journal_entries (folder_id, seq, op, path_key, path, kind, size, mtime_ms, ino, cid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    journal.ops.forEach((op, seq) => {
      if (op.op === 'put') insert.run(journal.folderId, seq, 'put', op.pathKey, op.path, op.kind, op.size, op.mtimeMs, op.ino, op.cid);
      else insert.run(journal.folderId, seq, 'delete_tree', op.pathKey, op.path, op.kind, 0, 0, 0, '');
    });
  });
}

export function discardSyncJournal(db: Db, folderId: string): void {
  stmt(db, 'DELETE FROM sync_journal WHERE folder_id = ?').run(folderId);
}

/** Drops the notes of released versions beyond the folder's newest KEPT_SYNC_BATCHES batches; versions stay. */
function pruneSyncBatchNotes(db: Db, folderId: string): void {
  stmt(
    db,
    'DELETE FROM sync_batches WHERE folder_id = ? AND kept = 0 AND id NOT IN (SELECT id FROM sync_batches WHERE folder_id = ? ORDER BY id DESC LIMIT ?)',
  ).run(folderId, folderId, KEPT_SYNC_BATCHES);
}

/** A sync_batches row as SQLite returns it. */
interface RawBatch {
  root: string;
  finished_at: number;
  added: number;
  modified: number;
  removed: number;
  bytes: number;
}

interface RawVersion extends RawBatch {
  id: number;
}

function toBatch(r: RawBatch): SyncBatchRow {
  return { root: r.root, finishedAt: r.finished_at, added: r.added, modified: r.modified, removed: r.removed, bytes: r.bytes };
}

function toVersion(r: RawVersion): SyncVersionRow {
  return { id: r.id, ...toBatch(r) };
}

/** The folder's kept versions, newest first, `limit` from position `start`. */
export function syncVersions(db: Db, folderId: string, limit: number, start: number): SyncVersionRow[] {
  const rows = stmt(
    db,
    'SELECT id, root, finished_at, added, modified, removed, bytes FROM sync_batches WHERE folder_id = ? AND kept = 1 ORDER BY id DESC LIMIT ? OFFSET ?',
  ).all(folderId, limit, start) as RawVersion[];
  return rows.map(toVersion);
}

export function countSyncVersions(db: Db, folderId: string): number {
  return (stmt(db, 'SELECT count(*) AS n FROM sync_batches WHERE folder_id = ? AND kept = 1').get(folderId) as { n: number }).n;
}

/**
 * The folder's kept versions, but the newest, whose unique bytes are not known yet, each with its next
 * newer kept version's root, newest first, at most `limit`.
 */
export function pendingHistoryBytes(db: Db, folderId: string, limit: number): PendingHistoryBytes[] {
  return stmt(
    db,
    `SELECT b.id, b.root, (SELECT n.root FROM sync_batches n WHERE n.folder_id = b.folder_id AND n.kept = 1 AND n.id > b.id ORDER BY n.id LIMIT 1) AS newerRoot
     FROM sync_batches b WHERE b.folder_id = ? AND b.kept = 1 AND b.unique_bytes IS NULL AND newerRoot IS NOT NULL ORDER BY b.id DESC LIMIT ?`,
  ).all(folderId, limit) as PendingHistoryBytes[];
}

/** Records a version's unique bytes, unless it is no longer kept or its next newer kept version changed since. */
export function setHistoryBytes(db: Db, id: number, newerRoot: string, bytes: number): boolean {
  return (
    stmt(
      db,
      `UPDATE sync_batches SET unique_bytes = ? WHERE id = ? AND kept = 1
         AND (SELECT n.root FROM sync_batches n WHERE n.folder_id = sync_batches.folder_id AND n.kept = 1 AND n.id > sync_batches.id ORDER BY n.id LIMIT 1) = ?`,
    ).run(bytes, id, newerRoot).changes > 0
  );
}

/** The folder's newest kept version whose root is `root`, if any. */
export function syncVersionByRoot(db: Db, folderId: string, root: string): SyncVersionRow | null {
  const raw = stmt(
    db,
    'SELECT id, root, finished_at, added, modified, removed, bytes FROM sync_batches WHERE folder_id = ? AND kept = 1 AND root = ? ORDER BY id DESC LIMIT 1',
  ).get(folderId, root) as RawVersion | undefined;
  return raw ? toVersion(raw) : null;
}

/** Whether `root` is a kept version of the folder. */
export function isSyncVersion(db: Db, folderId: string, root: string): boolean {
  return stmt(db, 'SELECT 1 FROM sync_batches WHERE folder_id = ? AND kept = 1 AND root = ? LIMIT 1').get(folderId, root) !== undefined;
}

/** Releases versions (they become notes) and prunes the notes; their roots are no longer held from GC. */
export function releaseSyncVersions(db: Db, folderId: string, ids: readonly number[]): void {
  if (ids.length === 0) return;
  const release = stmt(db, 'UPDATE sync_batches SET kept = 0 WHERE folder_id = ? AND id = ?');
  // The next older kept version gets a new next newer one: its unique bytes are computed again.
  const recount = stmt(
    db,
    'UPDATE sync_batches SET unique_bytes = NULL WHERE id = (SELECT id FROM sync_batches WHERE folder_id = ? AND kept = 1 AND id < ? ORDER BY id DESC LIMIT 1)',
  );
  for (const id of ids) {
    recount.run(folderId, id);
    release.run(folderId, id);
  }
  pruneSyncBatchNotes(db, folderId);
}

/** Every root a kept version of any folder holds: garbage collection treats each as a root. */
export function keptVersionRoots(db: Db): string[] {
  return (stmt(db, 'SELECT DISTINCT root FROM sync_batches WHERE kept = 1').all() as { root: string }[]).map((r) => r.root);
}

export function setSyncRetention(db: Db, folderId: string, retention: string | null): void {
  stmt(db, 'UPDATE sync_folders SET retention = ? WHERE id = ?').run(retention, folderId);
}

/** The folder's settled batches, newest first. */
export function recentSyncBatches(db: Db, folderId: string, limit = KEPT_SYNC_BATCHES): SyncBatchRow[] {
  const rows = stmt(db, 'SELECT root, finished_at, added, modified, removed, bytes FROM sync_batches WHERE folder_id = ? ORDER BY id DESC LIMIT ?').all(
    folderId,
    limit,
  ) as RawBatch[];
  return rows.map(toBatch);
}

/** The files (path_key -> entry) at `pathKey` and below it, as stored now. */
function filesAtOrBelow(db: Db, folderId: string, pathKey: string): Map<string, SyncEntry> {
  const files = new Map<string, SyncEntry>();
  const one = getSyncEntry(db, folderId, pathKey);
  if (one?.kind === 'file') files.set(one.pathKey, one);
  for (const entry of listSyncEntriesUnder(db, folderId, pathKey)) if (entry.kind === 'file') files.set(entry.pathKey, entry);
  return files;
}

/**
 * Makes a prepared batch the folder's state, in one transaction: applies its entry ops in order,
 * sets the root, the totals and `last_synced_at`, records the batch (files added, modified, removed,
 * bytes) keeping the last KEPT_SYNC_BATCHES, and drops the journal. Returns false (and changes
 * nothing) when no journal for `newRoot` is pending, so a replay is harmless.
 */
export function commitSyncJournal(db: Db, folderId: string, newRoot: string, syncedAt: number): boolean {
  return inTransaction(db, () => {
    const journal = getSyncJournal(db, folderId);
    if (!journal || journal.newRoot !== newRoot) return false;
    // The files the batch touches, before: compared with the same paths after to count what changed.
    const before = new Map<string, SyncEntry>();
    for (const op of journal.ops) {
      if (op.op === 'put') {
        const entry = getSyncEntry(db, folderId, op.pathKey);
        if (entry?.kind === 'file' && !before.has(entry.pathKey)) before.set(entry.pathKey, entry);
      } else for (const [key, entry] of filesAtOrBelow(db, folderId, op.pathKey)) if (!before.has(key)) before.set(key, entry);
    }
    const touched = new Set([...before.keys(), ...journal.ops.filter((op) => op.op === 'put' && op.kind === 'file').map((op) => op.pathKey)]);
    const put = stmt(
      db,
      `INSERT INTO sync_entries (folder_id, path_key, path, kind, size, mtime_ms, ino, cid) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (folder_id, path_key) DO UPDATE SET path = excluded.path, kind = excluded.kind, size = excluded.size,
         mtime_ms = excluded.mtime_ms, ino = excluded.ino, cid = excluded.cid`,
    );
    const dropOne = stmt(db, 'DELETE FROM sync_entries WHERE folder_id = ? AND path_key = ?');
    const dropBelow = stmt(db, 'DELETE FROM sync_entries WHERE folder_id = ? AND path_key >= ? AND path_key < ?');
    for (const op of journal.ops) {
      if (op.op === 'put') put.run(folderId, op.pathKey, op.path, op.kind, op.size, op.mtimeMs, op.ino, op.cid);
      else {
        dropOne.run(folderId, op.pathKey);
        dropBelow.run(folderId, `${op.pathKey}/`, `${op.pathKey}0`);
      }
    }
    const totals = stmt(db, "SELECT count(*) AS files, coalesce(sum(size), 0) AS bytes FROM sync_entries WHERE folder_id = ? AND kind = 'file'").get(
      folderId,
    ) as { files: number; bytes: number };
    stmt(db, 'UPDATE sync_folders SET root_cid = ?, files = ?, bytes = ?, last_synced_at = ? WHERE id = ?').run(
      newRoot,
      totals.files,
      totals.bytes,
      syncedAt,
      folderId,
    );
    stmt(db, 'DELETE FROM sync_journal WHERE folder_id = ?').run(folderId);
    const batch = { added: 0, modified: 0, removed: 0, bytes: 0 };
    for (const key of touched) {
      const was = before.get(key);
      const now = getSyncEntry(db, folderId, key);
      const file = now?.kind === 'file' ? now : undefined;
      if (was && !file) batch.removed++;
      else if (!was && file) {
        batch.added++;
        batch.bytes += file.size;
      } else if (was && file && was.cid !== file.cid) {
        batch.modified++;
        batch.bytes += file.size;
      }
    }
    if (journal.oldRoot !== newRoot || batch.added + batch.modified + batch.removed > 0) {
      stmt(db, 'INSERT INTO sync_batches (folder_id, root, finished_at, added, modified, removed, bytes) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
        folderId,
        newRoot,
        syncedAt,
        batch.added,
        batch.modified,
        batch.removed,
        batch.bytes,
      );
      pruneSyncBatchNotes(db, folderId);
    }
    return true;
  });
}
