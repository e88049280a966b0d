import type {
  FollowLocalChange,
  JournalOp,
  NewSyncFolder,
  PendingHistoryBytes,
  SyncBatchRow,
  SyncEntry,
  SyncEntryKind,
  SyncFolderMode,
  SyncFolderRow,
  SyncFolderState,
  SyncJournal,
  SyncVersionRow,
} from '../repositories/sync.js';
import { KEPT_SYNC_BATCHES } from '../repositories/sync.js';
import { flag, flagValue, int, orNull, orUndefined, type Int } from '../sql/columns.js';
import { BYTEWISE, inList, insertionOrder } from '../sql/dialects.js';
import { call, exec, insertEach, lockRow, queryRow, queryRows, row, rows, statement, steps, type Steps } from '../sql/query.js';
import { raw, sql } from '../sql/sql.js';

/**
 * The sync tables (folders, entries, the journal, batches): SyncRepository. Path keys compare byte by byte
 * (BYTEWISE): the range [dir/, dir0) is then exactly the keys below dir ('/' is 0x2F and '0' is 0x30).
 */

interface FolderDbRow {
  id: string;
  account_id: Int;
  path: string;
  ipns_name: string;
  root_cid: string;
  state: SyncFolderState;
  error: string;
  user_paused: Int;
  device_id: string;
  case_insensitive: Int;
  ignore_patterns: string;
  retention: string | null;
  files: Int;
  bytes: Int;
  created_at: Int;
  last_synced_at: Int;
  mode: SyncFolderMode;
  follow_name: string;
  follow_sources: string;
  follow_seq: string;
  checked_at: Int;
  local_changes: string;
}

const FOLDER_COLUMNS = raw(
  'id, account_id, path, ipns_name, root_cid, state, error, user_paused, device_id, case_insensitive, ignore_patterns, retention, files, bytes, ' +
    'created_at, last_synced_at, mode, follow_name, follow_sources, follow_seq, checked_at, local_changes',
);

function toFolder(r: FolderDbRow): SyncFolderRow {
  return {
    id: r.id,
    accountId: int(r.account_id),
    path: r.path,
    ipnsName: r.ipns_name,
    rootCid: r.root_cid,
    state: r.state,
    error: r.error,
    userPaused: flag(r.user_paused),
    deviceId: r.device_id,
    caseInsensitive: flag(r.case_insensitive),
    ignorePatterns: JSON.parse(r.ignore_patterns) as string[],
    retention: r.retention,
    files: int(r.files),
    bytes: int(r.bytes),
    createdAt: int(r.created_at),
    lastSyncedAt: int(r.last_synced_at),
    mode: r.mode,
    followName: r.follow_name,
    followSources: JSON.parse(r.follow_sources) as string[],
    followSeq: r.follow_seq,
    checkedAt: int(r.checked_at),
    localChanges: JSON.parse(r.local_changes) as FollowLocalChange[],
  };
}

interface EntryDbRow {
  path_key: string;
  path: string;
  kind: SyncEntryKind;
  size: Int;
  mtime_ms: number;
  ino: Int;
  cid: string;
}

const ENTRY_COLUMNS = raw('path_key, path, kind, size, mtime_ms, ino, cid');

function toEntry(r: EntryDbRow): SyncEntry {
  return { pathKey: r.path_key, path: r.path, kind: r.kind, size: int(r.size), mtimeMs: Number(r.mtime_ms), ino: int(r.ino), cid: r.cid };
}

/** Locks the folder's row until the transaction ends: writers of one folder's journal and batches take turns. */
function lockFolder(folderId: string): Steps<void> {
  return lockRow(sql`SELECT 1 AS one FROM sync_folders WHERE id = ${folderId}`);
}

export const getSyncFolder = queryRow((id: string) => sql`SELECT ${FOLDER_COLUMNS} FROM sync_folders WHERE id = ${id}`, orUndefined(toFolder));

export const getSyncFolderByPath = queryRow(
  (folderPath: string) => sql`SELECT ${FOLDER_COLUMNS} FROM sync_folders WHERE path = ${folderPath}`,
  orUndefined(toFolder),
);

/** Throws UniqueViolation (through the store) when the path is already synced. */
export const insertSyncFolder = steps(
  function* (folder: NewSyncFolder) {
    yield* exec(
      sql`INSERT INTO sync_folders (id, account_id, path, ipns_name, state, case_insensitive, ignore_patterns, created_at, mode, follow_name, follow_sources)
          VALUES (${folder.id}, ${folder.accountId}, ${folder.path}, ${folder.ipnsName}, 'scanning', ${flagValue(folder.caseInsensitive)},
            ${JSON.stringify(folder.ignorePatterns)}, ${folder.createdAt}, ${folder.follow ? 'follow' : 'sync'}, ${folder.follow?.name ?? ''},
            ${JSON.stringify(folder.follow?.sources ?? [])})`,
    );
    const inserted = yield* call(getSyncFolder, folder.id);
    if (!inserted) throw new Error('sync folder vanished after insert');
    return inserted;
  },
  { atomic: false },
);

/**
 * The bytes each folder's history alone holds: the sum over its kept versions but the current one
 * (migration 17); 0 for an unknown id. Apart from the folder row, so only the views that show it pay for the sum.
 */
export const folderHistoryBytes = steps(
  function* (ids: readonly string[]) {
    const found = yield* rows<{ id: string; bytes: Int }>(
      sql`SELECT f.id, COALESCE(SUM(b.unique_bytes), 0) AS bytes FROM sync_folders f
          LEFT JOIN sync_batches b ON b.folder_id = f.id AND b.kept = 1 AND b.root != f.root_cid
          WHERE ${inList(sql`f.id`, ids, 'text')} GROUP BY f.id`,
    );
    const sums = new Map(found.map((r) => [r.id, int(r.bytes)]));
    return new Map(ids.map((id) => [id, sums.get(id) ?? 0]));
  },
  { atomic: false },
);

const FOLDERS_NEWEST_FIRST = insertionOrder('sync_folders');

/** Newest first, like every list of the API; ties in insertion order, newest first. */
export const listSyncFolders = queryRows(
  (accountId?: number) =>
    accountId === undefined
      ? sql`SELECT ${FOLDER_COLUMNS} FROM sync_folders ORDER BY created_at DESC, ${FOLDERS_NEWEST_FIRST} DESC`
      : sql`SELECT ${FOLDER_COLUMNS} FROM sync_folders WHERE account_id = ${accountId} ORDER BY created_at DESC, ${FOLDERS_NEWEST_FIRST} DESC`,
  toFolder,
);

export const setSyncFolderState = statement(
  (id: string, state: SyncFolderState, error: string) => sql`UPDATE sync_folders SET state = ${state}, error = ${error} WHERE id = ${id}`,
);

export const setSyncFolderUserPaused = statement(
  (id: string, paused: boolean) => sql`UPDATE sync_folders SET user_paused = ${flagValue(paused)} WHERE id = ${id}`,
);

export const setSyncFolderDevice = statement((id: string, deviceId: string) => sql`UPDATE sync_folders SET device_id = ${deviceId} WHERE id = ${id}`);

export const setSyncFolderIgnore = statement(
  (id: string, patterns: readonly string[]) => sql`UPDATE sync_folders SET ignore_patterns = ${JSON.stringify(patterns)} WHERE id = ${id}`,
);

export const setSyncFolderIpnsName = statement((id: string, ipnsName: string) => sql`UPDATE sync_folders SET ipns_name = ${ipnsName} WHERE id = ${id}`);

/** Removes the folder, its entries and any prepared batch. Pins and names are not touched. */
export const deleteSyncFolder = statement(
  (id: string) => sql`DELETE FROM sync_folders WHERE id = ${id}`,
  (changes) => changes > 0,
);

export const setFollowChecked = statement((id: string, checkedAt: number) => sql`UPDATE sync_folders SET checked_at = ${checkedAt} WHERE id = ${id}`);

export const setFollowSequence = statement((id: string, sequence: string) => sql`UPDATE sync_folders SET follow_seq = ${sequence} WHERE id = ${id}`);

export const setFollowLocalChanges = statement(
  (id: string, changes: readonly FollowLocalChange[]) => sql`UPDATE sync_folders SET local_changes = ${JSON.stringify(changes)} WHERE id = ${id}`,
);

/** A folder's entries in their key's order, byte by byte (the primary key's order). */
export const listSyncEntries = queryRows(
  (folderId: string) => sql`SELECT ${ENTRY_COLUMNS} FROM sync_entries WHERE folder_id = ${folderId} ORDER BY path_key${BYTEWISE}`,
  toEntry,
);

export const getSyncEntry = queryRow(
  (folderId: string, pathKey: string) => sql`SELECT ${ENTRY_COLUMNS} FROM sync_entries WHERE folder_id = ${folderId} AND path_key = ${pathKey}`,
  orUndefined(toEntry),
);

const listEntriesBelow = queryRows(
  (folderId: string, dirKey: string) =>
    sql`SELECT ${ENTRY_COLUMNS} FROM sync_entries WHERE folder_id = ${folderId} AND path_key${BYTEWISE} >= ${`${dirKey}/`} AND path_key${BYTEWISE} < ${`${dirKey}0`}
        ORDER BY path_key${BYTEWISE}`,
  toEntry,
);

/** Entries strictly below folder `dirKey` ('' = the whole tree), on the primary key's index. */
export const listSyncEntriesUnder = steps(
  function* (folderId: string, dirKey: string) {
    return dirKey === '' ? yield* call(listSyncEntries, folderId) : yield* call(listEntriesBelow, folderId, dirKey);
  },
  { atomic: false },
);

export const getSyncJournal = steps(
  function* (folderId: string) {
    const head = yield* row<{ old_root: string; new_root: string; created_at: Int }>(
      sql`SELECT old_root, new_root, created_at FROM sync_journal WHERE folder_id = ${folderId}`,
    );
    if (!head) return undefined;
    const opRows = yield* rows<EntryDbRow & { op: 'put' | 'delete_tree' }>(
      sql`SELECT op, ${ENTRY_COLUMNS} FROM sync_journal_entries WHERE folder_id = ${folderId} ORDER BY seq`,
    );
    const ops = opRows.map((r): JournalOp =>
      r.op === 'put' ? { op: 'put', ...toEntry(r) } : { op: 'delete_tree', pathKey: r.path_key, path: r.path, kind: r.kind },
    );
    const journal: SyncJournal = { folderId, oldRoot: head.old_root, newRoot: head.new_root, createdAt: int(head.created_at), ops };
    return journal;
  },
  { atomic: false },
);

/** Records a prepared batch in one transaction; replaces any older prepared batch of the folder. */
export const writeSyncJournal = steps(
  function* (journal: SyncJournal) {
    yield* lockFolder(journal.folderId);
    yield* exec(sql`DELETE FROM sync_journal WHERE folder_id = ${journal.folderId}`);
    yield* exec(
      sql`INSERT INTO sync_journal (folder_id, old_root, new_root, created_at) VALUES (${journal.folderId}, ${journal.oldRoot}, ${journal.newRoot}, ${journal.createdAt})`,
    );
    yield* insertEach({
      table: 'sync_journal_entries',
      columns: ['folder_id', 'seq', 'op', 'path_key', 'path', 'kind', 'size', 'mtime_ms', 'ino', 'cid'],
      rows: journal.ops.map((op, seq) =>
        op.op === 'put'
          ? [journal.folderId, seq, 'put', op.pathKey, op.path, op.kind, op.size, op.mtimeMs, op.ino, op.cid]
          : [journal.folderId, seq, 'delete_tree', op.pathKey, op.path, op.kind, 0, 0, 0, ''],
      ),
      conflict: '',
    });
  },
  { atomic: true },
);

export const discardSyncJournal = statement((folderId: string) => sql`DELETE FROM sync_journal WHERE folder_id = ${folderId}`);

/** Drops the notes of released versions beyond the folder's newest KEPT_SYNC_BATCHES batches; versions stay. */
function pruneSyncBatchNotes(folderId: string): Steps<number> {
  return exec(
    sql`DELETE FROM sync_batches WHERE folder_id = ${folderId} AND kept = 0
        AND id NOT IN (SELECT id FROM sync_batches WHERE folder_id = ${folderId} ORDER BY id DESC LIMIT ${KEPT_SYNC_BATCHES})`,
  );
}

interface RawBatch {
  root: string;
  finished_at: Int;
  added: Int;
  modified: Int;
  removed: Int;
  bytes: Int;
}

interface RawVersion extends RawBatch {
  id: Int;
}

function toBatch(r: RawBatch): SyncBatchRow {
  return { root: r.root, finishedAt: int(r.finished_at), added: int(r.added), modified: int(r.modified), removed: int(r.removed), bytes: int(r.bytes) };
}

function toVersion(r: RawVersion): SyncVersionRow {
  return { id: int(r.id), ...toBatch(r) };
}

/** The folder's kept versions, newest first, `limit` from position `start`. */
export const syncVersions = queryRows(
  (folderId: string, limit: number, start: number) =>
    sql`SELECT id, root, finished_at, added, modified, removed, bytes FROM sync_batches WHERE folder_id = ${folderId} AND kept = 1
        ORDER BY id DESC LIMIT ${limit} OFFSET ${start}`,
  toVersion,
);

export const countSyncVersions = queryRow(
  (folderId: string) => sql`SELECT count(*) AS n FROM sync_batches WHERE folder_id = ${folderId} AND kept = 1`,
  (raw: { n: Int } | undefined) => int(raw?.n ?? 0),
);

/** The root of the next newer kept version of the batch `b` (a correlated subquery). */
const NEWER_ROOT_OF_B = raw('(SELECT n.root FROM sync_batches n WHERE n.folder_id = b.folder_id AND n.kept = 1 AND n.id > b.id ORDER BY n.id LIMIT 1)');

/**
 * The folder's kept versions, but the newest, whose unique bytes are not known yet, each with its next
 * newer kept version's root, newest first, at most `limit`.
 */
export const pendingHistoryBytes = queryRows(
  (folderId: string, limit: number) =>
    sql`SELECT id, root, newer_root FROM (
          SELECT b.id, b.root, ${NEWER_ROOT_OF_B} AS newer_root FROM sync_batches b WHERE b.folder_id = ${folderId} AND b.kept = 1 AND b.unique_bytes IS NULL
        ) pending WHERE newer_root IS NOT NULL ORDER BY id DESC LIMIT ${limit}`,
  (r: { id: Int; root: string; newer_root: string }): PendingHistoryBytes => ({ id: int(r.id), root: r.root, newerRoot: r.newer_root }),
);

/**
 * Records a version's unique bytes, unless it is no longer kept or its next newer kept version changed since.
 * Under the folder's lock: a release of the next newer version (which takes it too) lands wholly before or
 * after, so the comparison never reads a next newer version that a concurrent release is letting go.
 */
export const setHistoryBytes = steps(
  function* (id: number, newerRoot: string, bytes: number) {
    yield* lockRow(sql`SELECT 1 AS one FROM sync_folders WHERE id = (SELECT folder_id FROM sync_batches WHERE id = ${id})`);
    const changed = yield* exec(
      sql`UPDATE sync_batches SET unique_bytes = ${bytes} WHERE id = ${id} AND kept = 1
          AND (SELECT n.root FROM sync_batches n WHERE n.folder_id = sync_batches.folder_id AND n.kept = 1 AND n.id > sync_batches.id ORDER BY n.id LIMIT 1) = ${newerRoot}`,
    );
    return changed > 0;
  },
  { atomic: true },
);

/** The folder's newest kept version whose root is `root`, if any. */
export const syncVersionByRoot = queryRow(
  (folderId: string, root: string) =>
    sql`SELECT id, root, finished_at, added, modified, removed, bytes FROM sync_batches WHERE folder_id = ${folderId} AND kept = 1 AND root = ${root}
        ORDER BY id DESC LIMIT 1`,
  orNull(toVersion),
);

/** Whether `root` is a kept version of the folder. */
export const isSyncVersion = queryRow(
  (folderId: string, root: string) => sql`SELECT 1 AS one FROM sync_batches WHERE folder_id = ${folderId} AND kept = 1 AND root = ${root} LIMIT 1`,
  (raw) => raw !== undefined,
);

/** Releases versions (they become notes) and prunes the notes; their roots are no longer held from GC. */
export const releaseSyncVersions = steps(
  function* (folderId: string, ids: readonly number[]) {
    if (ids.length === 0) return;
    yield* lockFolder(folderId);
    for (const id of ids) {
      // The next older kept version gets a new next newer one: its unique bytes are computed again.
      yield* exec(
        sql`UPDATE sync_batches SET unique_bytes = NULL
            WHERE id = (SELECT id FROM sync_batches WHERE folder_id = ${folderId} AND kept = 1 AND id < ${id} ORDER BY id DESC LIMIT 1)`,
      );
      yield* exec(sql`UPDATE sync_batches SET kept = 0 WHERE folder_id = ${folderId} AND id = ${id}`);
    }
    yield* pruneSyncBatchNotes(folderId);
  },
  { atomic: true },
);

/** Every root a kept version of any folder holds, once each, byte order: garbage collection treats each as a root. */
export const keptVersionRoots = queryRows(
  () => sql`SELECT root FROM sync_batches WHERE kept = 1 GROUP BY root ORDER BY root${BYTEWISE}`,
  (raw: { root: string }) => raw.root,
);

export const setSyncRetention = statement(
  (folderId: string, retention: string | null) => sql`UPDATE sync_folders SET retention = ${retention} WHERE id = ${folderId}`,
);

/** The folder's settled batches, newest first. */
export const recentSyncBatches = queryRows(
  (folderId: string, limit: number = KEPT_SYNC_BATCHES) =>
    sql`SELECT root, finished_at, added, modified, removed, bytes FROM sync_batches WHERE folder_id = ${folderId} ORDER BY id DESC LIMIT ${limit}`,
  toBatch,
);

/** The files (path_key -> entry) at `pathKey` and below it, as stored now. */
function* filesAtOrBelow(folderId: string, pathKey: string): Steps<Map<string, SyncEntry>> {
  const files = new Map<string, SyncEntry>();
  const one = yield* call(getSyncEntry, folderId, pathKey);
  if (one?.kind === 'file') files.set(one.pathKey, one);
  for (const entry of yield* call(listSyncEntriesUnder, folderId, pathKey)) if (entry.kind === 'file') files.set(entry.pathKey, entry);
  return files;
}

type PutOp = JournalOp & { op: 'put' };

/** The ops in order, consecutive puts of distinct path keys together: one insertEach writes each such run. */
function putRuns(ops: readonly JournalOp[]): Array<JournalOp | PutOp[]> {
  const runs: Array<JournalOp | PutOp[]> = [];
  let run: PutOp[] = [];
  let keys = new Set<string>();
  const flush = (): void => {
    if (run.length > 0) runs.push(run);
    run = [];
    keys = new Set();
  };
  for (const op of ops) {
    if (op.op !== 'put') {
      flush();
      runs.push(op);
      continue;
    }
    if (keys.has(op.pathKey)) flush();
    run.push(op);
    keys.add(op.pathKey);
  }
  flush();
  return runs;
}

/** Applies the journal's ops in order: puts upserted, a deleted tree's path and everything below it removed. */
function* applyOps(folderId: string, ops: readonly JournalOp[]): Steps<void> {
  for (const step of putRuns(ops)) {
    if (Array.isArray(step)) {
      yield* insertEach({
        table: 'sync_entries',
        columns: ['folder_id', 'path_key', 'path', 'kind', 'size', 'mtime_ms', 'ino', 'cid'],
        rows: step.map((op) => [folderId, op.pathKey, op.path, op.kind, op.size, op.mtimeMs, op.ino, op.cid]),
        conflict: `ON CONFLICT (folder_id, path_key) DO UPDATE SET path = excluded.path, kind = excluded.kind, size = excluded.size,
          mtime_ms = excluded.mtime_ms, ino = excluded.ino, cid = excluded.cid`,
      });
    } else {
      yield* exec(sql`DELETE FROM sync_entries WHERE folder_id = ${folderId} AND path_key = ${step.pathKey}`);
      yield* exec(
        sql`DELETE FROM sync_entries WHERE folder_id = ${folderId} AND path_key${BYTEWISE} >= ${`${step.pathKey}/`} AND path_key${BYTEWISE} < ${`${step.pathKey}0`}`,
      );
    }
  }
}

/** What the batch did to files: those it added, modified (another CID) and removed, and the bytes added or modified. */
function countChanges(touched: Iterable<string>, before: Map<string, SyncEntry>, after: Map<string, SyncEntry | undefined>) {
  const batch = { added: 0, modified: 0, removed: 0, bytes: 0 };
  for (const key of touched) {
    const was = before.get(key);
    const now = after.get(key);
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
  return batch;
}

/**
 * Makes a prepared batch the folder's state, in one transaction: applies its entry ops in order,
 * sets the root, the totals and `last_synced_at`, records the batch (files added, modified, removed,
 * bytes) keeping the last KEPT_SYNC_BATCHES, and drops the journal. Returns false (and changes
 * nothing) when no journal for `newRoot` is pending, so a replay is harmless.
 */
export const commitSyncJournal = steps(
  function* (folderId: string, newRoot: string, syncedAt: number) {
    // Two commits of one folder (or a commit and a new journal) take turns: the second sees the first's outcome.
    yield* lockFolder(folderId);
    const journal = yield* call(getSyncJournal, folderId);
    if (!journal || journal.newRoot !== newRoot) return false;
    // The files the batch touches, before: compared with the same paths after to count what changed.
    const before = new Map<string, SyncEntry>();
    for (const op of journal.ops) {
      if (op.op === 'put') {
        const entry = yield* call(getSyncEntry, folderId, op.pathKey);
        if (entry?.kind === 'file' && !before.has(entry.pathKey)) before.set(entry.pathKey, entry);
      } else for (const [key, entry] of yield* filesAtOrBelow(folderId, op.pathKey)) if (!before.has(key)) before.set(key, entry);
    }
    const touched = new Set([...before.keys(), ...journal.ops.filter((op) => op.op === 'put' && op.kind === 'file').map((op) => op.pathKey)]);
    yield* applyOps(folderId, journal.ops);
    const totals = yield* row<{ files: Int; bytes: Int }>(
      sql`SELECT count(*) AS files, COALESCE(SUM(size), 0) AS bytes FROM sync_entries WHERE folder_id = ${folderId} AND kind = 'file'`,
    );
    yield* exec(
      sql`UPDATE sync_folders SET root_cid = ${newRoot}, files = ${int(totals?.files ?? 0)}, bytes = ${int(totals?.bytes ?? 0)}, last_synced_at = ${syncedAt}
          WHERE id = ${folderId}`,
    );
    yield* exec(sql`DELETE FROM sync_journal WHERE folder_id = ${folderId}`);
    const after = new Map<string, SyncEntry | undefined>();
    for (const key of touched) after.set(key, yield* call(getSyncEntry, folderId, key));
    const batch = countChanges(touched, before, after);
    if (journal.oldRoot !== newRoot || batch.added + batch.modified + batch.removed > 0) {
      yield* exec(
        sql`INSERT INTO sync_batches (folder_id, root, finished_at, added, modified, removed, bytes)
            VALUES (${folderId}, ${newRoot}, ${syncedAt}, ${batch.added}, ${batch.modified}, ${batch.removed}, ${batch.bytes})`,
      );
      yield* pruneSyncBatchNotes(folderId);
    }
    return true;
  },
  { atomic: true },
);
