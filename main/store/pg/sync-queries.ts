import type {
  JournalOp,
  NewSyncFolder,
  PendingHistoryBytes,
  SyncBatchRow,
  SyncEntry,
  SyncEntryKind,
  SyncFolderRow,
  SyncFolderState,
  SyncJournal,
  SyncVersionRow,
  SyncFolderMode,
  FollowLocalChange,
} from '../repositories/sync.js';
import { KEPT_SYNC_BATCHES } from '../repositories/sync.js';
import { atomically, changed, int, row, rows, type Queryable } from './queryable.js';

/**
 * The sync tables (folders, entries, the journal, batches): the PostgreSQL side of SyncRepository, the same
 * answers as store/db/sync-queries.ts. Path keys compare bytewise (COLLATE "C"), as SQLite's BINARY does,
 * whatever the database's collation: the range [dir/, dir0) is then exactly the keys below dir.
 */

type Int = string | number;

interface FolderDbRow {
  id: string;
  account_id: Int;
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

const FOLDER_SELECT = 'SELECT sync_folders.* FROM sync_folders';

interface EntryDbRow {
  path_key: string;
  path: string;
  kind: SyncEntryKind;
  size: Int;
  mtime_ms: number;
  ino: Int;
  cid: string;
}

function toFolder(r: FolderDbRow): SyncFolderRow {
  return {
    id: r.id,
    accountId: int(r.account_id),
    path: r.path,
    ipnsName: r.ipns_name,
    rootCid: r.root_cid,
    state: r.state,
    error: r.error,
    userPaused: r.user_paused === 1,
    deviceId: r.device_id,
    caseInsensitive: r.case_insensitive === 1,
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

function toEntry(r: EntryDbRow): SyncEntry {
  return { pathKey: r.path_key, path: r.path, kind: r.kind, size: int(r.size), mtimeMs: Number(r.mtime_ms), ino: int(r.ino), cid: r.cid };
}

/** Locks the folder's row until the transaction ends: writers of one folder's journal and batches take turns. */
async function lockFolder(c: Queryable, folderId: string): Promise<void> {
  await c.query('SELECT 1 FROM sync_folders WHERE id = $1 FOR NO KEY UPDATE', [folderId]);
}

/** Throws UniqueViolation (through the binding) when the path is already synced. */
export async function insertSyncFolder(q: Queryable, folder: NewSyncFolder): Promise<SyncFolderRow> {
  await q.query(
    `INSERT INTO sync_folders (id, account_id, path, ipns_name, state, case_insensitive, ignore_patterns, created_at, mode, follow_name, follow_sources)
     VALUES ($1, $2, $3, $4, 'scanning', $5, $6, $7, $8, $9, $10)`,
    [
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
    ],
  );
  const inserted = await getSyncFolder(q, folder.id);
  if (!inserted) throw new Error('sync folder vanished after insert');
  return inserted;
}

export async function getSyncFolder(q: Queryable, id: string): Promise<SyncFolderRow | undefined> {
  const found = await row<FolderDbRow>(q, `${FOLDER_SELECT} WHERE id = $1`, [id]);
  return found ? toFolder(found) : undefined;
}

export async function getSyncFolderByPath(q: Queryable, folderPath: string): Promise<SyncFolderRow | undefined> {
  const found = await row<FolderDbRow>(q, `${FOLDER_SELECT} WHERE path = $1`, [folderPath]);
  return found ? toFolder(found) : undefined;
}

/** See the SQLite twin: the bytes each folder's history alone holds, apart from the folder row. */
export async function folderHistoryBytes(q: Queryable, ids: readonly string[]): Promise<Map<string, number>> {
  const found = await rows<{ id: string; bytes: Int }>(
    q,
    `SELECT f.id, coalesce(sum(b.unique_bytes), 0) AS bytes FROM sync_folders f
     LEFT JOIN sync_batches b ON b.folder_id = f.id AND b.kept = 1 AND b.root != f.root_cid
     WHERE f.id = ANY($1) GROUP BY f.id`,
    [[...ids]],
  );
  const sums = new Map(found.map((r) => [r.id, int(r.bytes)]));
  return new Map(ids.map((id) => [id, sums.get(id) ?? 0]));
}

/** Newest first, like every list of the API; ties in insertion order, newest first (SQLite's rowid). */
export async function listSyncFolders(q: Queryable, accountId?: number): Promise<SyncFolderRow[]> {
  const found =
    accountId === undefined
      ? await rows<FolderDbRow>(q, `${FOLDER_SELECT} ORDER BY created_at DESC, insert_order DESC`)
      : await rows<FolderDbRow>(q, `${FOLDER_SELECT} WHERE account_id = $1 ORDER BY created_at DESC, insert_order DESC`, [accountId]);
  return found.map(toFolder);
}

export async function setSyncFolderState(q: Queryable, id: string, state: SyncFolderState, error: string): Promise<void> {
  await q.query('UPDATE sync_folders SET state = $1, error = $2 WHERE id = $3', [state, error, id]);
}

export async function setSyncFolderUserPaused(q: Queryable, id: string, paused: boolean): Promise<void> {
  await q.query('UPDATE sync_folders SET user_paused = $1 WHERE id = $2', [paused ? 1 : 0, id]);
}

export async function setSyncFolderDevice(q: Queryable, id: string, deviceId: string): Promise<void> {
  await q.query('UPDATE sync_folders SET device_id = $1 WHERE id = $2', [deviceId, id]);
}

export async function setSyncFolderIgnore(q: Queryable, id: string, patterns: readonly string[]): Promise<void> {
  await q.query('UPDATE sync_folders SET ignore_patterns = $1 WHERE id = $2', [JSON.stringify(patterns), id]);
}

export async function setSyncFolderIpnsName(q: Queryable, id: string, ipnsName: string): Promise<void> {
  await q.query('UPDATE sync_folders SET ipns_name = $1 WHERE id = $2', [ipnsName, id]);
}

/** Removes the folder, its entries and any prepared batch. Pins and names are not touched. */
export async function deleteSyncFolder(q: Queryable, id: string): Promise<boolean> {
  return (await changed(q, 'DELETE FROM sync_folders WHERE id = $1', [id])) > 0;
}

export async function setFollowChecked(q: Queryable, id: string, checkedAt: number): Promise<void> {
  await q.query('UPDATE sync_folders SET checked_at = $1 WHERE id = $2', [checkedAt, id]);
}

export async function setFollowSequence(q: Queryable, id: string, sequence: string): Promise<void> {
  await q.query('UPDATE sync_folders SET follow_seq = $1 WHERE id = $2', [sequence, id]);
}

export async function setFollowLocalChanges(q: Queryable, id: string, changes: readonly FollowLocalChange[]): Promise<void> {
  await q.query('UPDATE sync_folders SET local_changes = $1 WHERE id = $2', [JSON.stringify(changes), id]);
}

const SELECT_ENTRIES = 'SELECT path_key, path, kind, size, mtime_ms, ino, cid FROM sync_entries';
/** SQLite answers a folder's entries in its primary key's order: path keys bytewise. */
const BY_PATH_KEY = 'ORDER BY path_key COLLATE "C"';

export async function listSyncEntries(q: Queryable, folderId: string): Promise<SyncEntry[]> {
  return (await rows<EntryDbRow>(q, `${SELECT_ENTRIES} WHERE folder_id = $1 ${BY_PATH_KEY}`, [folderId])).map(toEntry);
}

export async function getSyncEntry(q: Queryable, folderId: string, pathKey: string): Promise<SyncEntry | undefined> {
  const found = await row<EntryDbRow>(q, `${SELECT_ENTRIES} WHERE folder_id = $1 AND path_key = $2`, [folderId, pathKey]);
  return found ? toEntry(found) : undefined;
}

/** Entries strictly below folder `dirKey` ('' = the whole tree). */
export async function listSyncEntriesUnder(q: Queryable, folderId: string, dirKey: string): Promise<SyncEntry[]> {
  if (dirKey === '') return listSyncEntries(q, folderId);
  // '/' is 0x2F and '0' is 0x30: bytewise, the range [dir/, dir0) is exactly the keys below dir.
  return (
    await rows<EntryDbRow>(q, `${SELECT_ENTRIES} WHERE folder_id = $1 AND path_key COLLATE "C" >= $2 AND path_key COLLATE "C" < $3 ${BY_PATH_KEY}`, [
      folderId,
      `${dirKey}/`,
      `${dirKey}0`,
    ])
  ).map(toEntry);
}

export async function getSyncJournal(q: Queryable, folderId: string): Promise<SyncJournal | undefined> {
  const head = await row<{ old_root: string; new_root: string; created_at: Int }>(
    q,
    'SELECT old_root, new_root, created_at FROM sync_journal WHERE folder_id = $1',
    [folderId],
  );
  if (!head) return undefined;
  const opRows = await rows<EntryDbRow & { op: 'put' | 'delete_tree' }>(
    q,
    'SELECT op, path_key, path, kind, size, mtime_ms, ino, cid FROM sync_journal_entries WHERE folder_id = $1 ORDER BY seq',
    [folderId],
  );
  const ops = opRows.map((r): JournalOp =>
    r.op === 'put' ? { op: 'put', ...toEntry(r) } : { op: 'delete_tree', pathKey: r.path_key, path: r.path, kind: r.kind },
  );
  return { folderId, oldRoot: head.old_root, newRoot: head.new_root, createdAt: int(head.created_at), ops };
}

/** Records a prepared batch in one transaction; replaces any older prepared batch of the folder. */
export async function writeSyncJournal(q: Queryable, journal: SyncJournal): Promise<void> {
  await atomically(q, async (c) => {
    await lockFolder(c, journal.folderId);
    await c.query('DELETE FROM sync_journal WHERE folder_id = $1', [journal.folderId]);
    await c.query('INSERT INTO sync_journal (folder_id, old_root, new_root, created_at) VALUES ($1, $2, $3, $4)', [
      journal.folderId,
      journal.oldRoot,
      journal.newRoot,
      journal.createdAt,
    ]);
    if (journal.ops.length === 0) return;
    // One statement for every op, however many: the columns as arrays, unnested row by row.
    const puts = journal.ops.map((op) => (op.op === 'put' ? op : { ...op, size: 0, mtimeMs: 0, ino: 0, cid: '' }));
    await c.query(
      `INSERT INTO sync_journal_entries (folder_id, seq, op, path_key, path, kind, size, mtime_ms, ino, cid)
       SELECT $1, * FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::float8[], $9::bigint[], $10::text[])`,
      [
        journal.folderId,
        puts.map((_, seq) => seq),
        puts.map((op) => op.op),
        puts.map((op) => op.pathKey),
        puts.map((op) => op.path),
        puts.map((op) => op.kind),
        puts.map((op) => op.size),
        puts.map((op) => op.mtimeMs),
        puts.map((op) => op.ino),
        puts.map((op) => op.cid),
      ],
    );
  });
}

export async function discardSyncJournal(q: Queryable, folderId: string): Promise<void> {
  await q.query('DELETE FROM sync_journal WHERE folder_id = $1', [folderId]);
}

/** Drops the notes of released versions beyond the folder's newest KEPT_SYNC_BATCHES batches; versions stay. */
async function pruneSyncBatchNotes(q: Queryable, folderId: string): Promise<void> {
  await q.query(
    'DELETE FROM sync_batches WHERE folder_id = $1 AND kept = 0 AND id NOT IN (SELECT id FROM sync_batches WHERE folder_id = $1 ORDER BY id DESC LIMIT $2)',
    [folderId, KEPT_SYNC_BATCHES],
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
export async function syncVersions(q: Queryable, folderId: string, limit: number, start: number): Promise<SyncVersionRow[]> {
  return (
    await rows<RawVersion>(
      q,
      'SELECT id, root, finished_at, added, modified, removed, bytes FROM sync_batches WHERE folder_id = $1 AND kept = 1 ORDER BY id DESC LIMIT $2 OFFSET $3',
      [folderId, limit, start],
    )
  ).map(toVersion);
}

export async function countSyncVersions(q: Queryable, folderId: string): Promise<number> {
  const found = await row<{ n: Int }>(q, 'SELECT count(*) AS n FROM sync_batches WHERE folder_id = $1 AND kept = 1', [folderId]);
  return found ? int(found.n) : 0;
}

/**
 * The folder's kept versions, but the newest, whose unique bytes are not known yet, each with its next
 * newer kept version's root, newest first, at most `limit`.
 */
export async function pendingHistoryBytes(q: Queryable, folderId: string, limit: number): Promise<PendingHistoryBytes[]> {
  const found = await rows<{ id: Int; root: string; newer_root: string }>(
    q,
    `SELECT id, root, newer_root FROM (
       SELECT b.id, b.root, (SELECT n.root FROM sync_batches n WHERE n.folder_id = b.folder_id AND n.kept = 1 AND n.id > b.id ORDER BY n.id LIMIT 1) AS newer_root
       FROM sync_batches b WHERE b.folder_id = $1 AND b.kept = 1 AND b.unique_bytes IS NULL
     ) pending WHERE newer_root IS NOT NULL ORDER BY id DESC LIMIT $2`,
    [folderId, limit],
  );
  return found.map((r) => ({ id: int(r.id), root: r.root, newerRoot: r.newer_root }));
}

/**
 * Records a version's unique bytes, unless it is no longer kept or its next newer kept version changed since.
 * Under the folder's lock: a release of the next newer version (which takes it too) lands wholly before or
 * after, so the comparison never reads a next newer version that a concurrent release is letting go.
 */
export async function setHistoryBytes(q: Queryable, id: number, newerRoot: string, bytes: number): Promise<boolean> {
  return atomically(q, async (c) => {
    const version = await row<{ folder_id: string }>(c, 'SELECT folder_id FROM sync_batches WHERE id = $1', [id]);
    if (!version) return false;
    await lockFolder(c, version.folder_id);
    return (
      (await changed(
        c,
        `UPDATE sync_batches SET unique_bytes = $1 WHERE id = $2 AND kept = 1
           AND (SELECT n.root FROM sync_batches n WHERE n.folder_id = sync_batches.folder_id AND n.kept = 1 AND n.id > sync_batches.id ORDER BY n.id LIMIT 1) = $3`,
        [bytes, id, newerRoot],
      )) > 0
    );
  });
}

/** The folder's newest kept version whose root is `root`, if any. */
export async function syncVersionByRoot(q: Queryable, folderId: string, root: string): Promise<SyncVersionRow | null> {
  const found = await row<RawVersion>(
    q,
    'SELECT id, root, finished_at, added, modified, removed, bytes FROM sync_batches WHERE folder_id = $1 AND kept = 1 AND root = $2 ORDER BY id DESC LIMIT 1',
    [folderId, root],
  );
  return found ? toVersion(found) : null;
}

/** Whether `root` is a kept version of the folder. */
export async function isSyncVersion(q: Queryable, folderId: string, root: string): Promise<boolean> {
  return (await row(q, 'SELECT 1 AS one FROM sync_batches WHERE folder_id = $1 AND kept = 1 AND root = $2 LIMIT 1', [folderId, root])) !== null;
}

/** Releases versions (they become notes) and prunes the notes; their roots are no longer held from GC. */
export async function releaseSyncVersions(q: Queryable, folderId: string, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await atomically(q, async (c) => {
    await lockFolder(c, folderId);
    for (const id of ids) {
      // The next older kept version gets a new next newer one: its unique bytes are computed again.
      await c.query(
        'UPDATE sync_batches SET unique_bytes = NULL WHERE id = (SELECT id FROM sync_batches WHERE folder_id = $1 AND kept = 1 AND id < $2 ORDER BY id DESC LIMIT 1)',
        [folderId, id],
      );
      await c.query('UPDATE sync_batches SET kept = 0 WHERE folder_id = $1 AND id = $2', [folderId, id]);
    }
    await pruneSyncBatchNotes(c, folderId);
  });
}

/** Every root a kept version of any folder holds: garbage collection treats each as a root. */
export async function keptVersionRoots(q: Queryable): Promise<string[]> {
  return (await rows<{ root: string }>(q, 'SELECT root FROM sync_batches WHERE kept = 1 GROUP BY root ORDER BY root COLLATE "C"')).map((r) => r.root);
}

export async function setSyncRetention(q: Queryable, folderId: string, retention: string | null): Promise<void> {
  await q.query('UPDATE sync_folders SET retention = $1 WHERE id = $2', [retention, folderId]);
}

/** The folder's settled batches, newest first. */
export async function recentSyncBatches(q: Queryable, folderId: string, limit = KEPT_SYNC_BATCHES): Promise<SyncBatchRow[]> {
  return (
    await rows<RawBatch>(q, 'SELECT root, finished_at, added, modified, removed, bytes FROM sync_batches WHERE folder_id = $1 ORDER BY id DESC LIMIT $2', [
      folderId,
      limit,
    ])
  ).map(toBatch);
}

/** Consecutive puts of distinct path keys: one upsert can write them all. */
function putRuns(ops: readonly JournalOp[]): Array<JournalOp | Array<JournalOp & { op: 'put' }>> {
  const runs: Array<JournalOp | Array<JournalOp & { op: 'put' }>> = [];
  let run: Array<JournalOp & { op: 'put' }> = [];
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

/**
 * Makes a prepared batch the folder's state, in one transaction: applies its entry ops in order,
 * sets the root, the totals and `last_synced_at`, records the batch (files added, modified, removed,
 * bytes) keeping the last KEPT_SYNC_BATCHES, and drops the journal. Returns false (and changes
 * nothing) when no journal for `newRoot` is pending, so a replay is harmless.
 */
export async function commitSyncJournal(q: Queryable, folderId: string, newRoot: string, syncedAt: number): Promise<boolean> {
  return atomically(q, async (c) => {
    // Two commits of one folder (or a commit and a new journal) take turns: the second sees the first's outcome.
    await lockFolder(c, folderId);
    const journal = await getSyncJournal(c, folderId);
    if (!journal || journal.newRoot !== newRoot) return false;
    // The files the batch touches, before: compared with the same paths after to count what changed.
    // (A put's own path when it is a file; a deleted tree's path and every file below it; '' is the whole tree.)
    const putKeys = journal.ops.filter((op) => op.op === 'put').map((op) => op.pathKey);
    const treeKeys = journal.ops.filter((op) => op.op === 'delete_tree').map((op) => op.pathKey);
    const beforeRows = await rows<EntryDbRow>(
      c,
      `${SELECT_ENTRIES} WHERE folder_id = $1 AND kind = 'file' AND (path_key = ANY($2::text[]) OR EXISTS (
         SELECT 1 FROM unnest($3::text[]) AS tree(k) WHERE tree.k = '' OR sync_entries.path_key = tree.k
           OR (sync_entries.path_key COLLATE "C" >= (tree.k || '/') AND sync_entries.path_key COLLATE "C" < (tree.k || '0'))
       ))`,
      [folderId, putKeys, treeKeys],
    );
    const before = new Map(beforeRows.map((r) => [r.path_key, toEntry(r)]));
    const touched = new Set([...before.keys(), ...journal.ops.filter((op) => op.op === 'put' && op.kind === 'file').map((op) => op.pathKey)]);
    for (const step of putRuns(journal.ops)) {
      if (Array.isArray(step)) {
        await c.query(
          `INSERT INTO sync_entries (folder_id, path_key, path, kind, size, mtime_ms, ino, cid)
           SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[], $6::float8[], $7::bigint[], $8::text[])
           ON CONFLICT (folder_id, path_key) DO UPDATE SET path = EXCLUDED.path, kind = EXCLUDED.kind, size = EXCLUDED.size,
             mtime_ms = EXCLUDED.mtime_ms, ino = EXCLUDED.ino, cid = EXCLUDED.cid`,
          [
            folderId,
            step.map((op) => op.pathKey),
            step.map((op) => op.path),
            step.map((op) => op.kind),
            step.map((op) => op.size),
            step.map((op) => op.mtimeMs),
            step.map((op) => op.ino),
            step.map((op) => op.cid),
          ],
        );
      } else {
        await c.query('DELETE FROM sync_entries WHERE folder_id = $1 AND (path_key = $2 OR (path_key COLLATE "C" >= $3 AND path_key COLLATE "C" < $4))', [
          folderId,
          step.pathKey,
          `${step.pathKey}/`,
          `${step.pathKey}0`,
        ]);
      }
    }
    const totals = await row<{ files: Int; bytes: Int }>(
      c,
      "SELECT count(*) AS files, coalesce(sum(size), 0) AS bytes FROM sync_entries WHERE folder_id = $1 AND kind = 'file'",
      [folderId],
    );
    await c.query('UPDATE sync_folders SET root_cid = $1, files = $2, bytes = $3, last_synced_at = $4 WHERE id = $5', [
      newRoot,
      int(totals?.files ?? 0),
      int(totals?.bytes ?? 0),
      syncedAt,
      folderId,
    ]);
    await c.query('DELETE FROM sync_journal WHERE folder_id = $1', [folderId]);
    const afterRows = await rows<EntryDbRow>(c, `${SELECT_ENTRIES} WHERE folder_id = $1 AND path_key = ANY($2::text[])`, [folderId, [...touched]]);
    const after = new Map(afterRows.map((r) => [r.path_key, toEntry(r)]));
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
    if (journal.oldRoot !== newRoot || batch.added + batch.modified + batch.removed > 0) {
      await c.query('INSERT INTO sync_batches (folder_id, root, finished_at, added, modified, removed, bytes) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
        folderId,
        newRoot,
        syncedAt,
        batch.added,
        batch.modified,
        batch.removed,
        batch.bytes,
      ]);
      await pruneSyncBatchNotes(c, folderId);
    }
    return true;
  });
}
