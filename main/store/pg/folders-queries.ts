import { changed, int, row, rows, type Queryable } from './queryable.js';
import type { FolderRootState, FolderOrigin, FolderRootStats, FolderRootRow } from '../repositories/folders.js';

/** The PostgreSQL side of FoldersRepository (store/db/folders-queries.ts, tables folder_roots and folder_members). */

interface RawFolderRoot {
  cid: string;
  state: FolderRootState;
  kind: 'plain' | 'hamt' | null;
  entries: string | null;
  links_bytes: string | null;
  block_bytes: string | null;
  created_at: string;
}

function toFolderRoot(raw: RawFolderRoot): FolderRootRow {
  const stats =
    raw.kind === null || raw.entries === null || raw.links_bytes === null || raw.block_bytes === null
      ? null
      : { kind: raw.kind, entries: int(raw.entries), linksBytes: int(raw.links_bytes), blockBytes: int(raw.block_bytes) };
  return { cid: raw.cid, state: raw.state, stats, createdAt: int(raw.created_at) };
}

export async function folderRootOf(q: Queryable, cid: string): Promise<FolderRootRow | null> {
  const raw = await row<RawFolderRoot>(q, 'SELECT cid, state, kind, entries, links_bytes, block_bytes, created_at FROM folder_roots WHERE cid = $1', [cid]);
  return raw ? toFolderRoot(raw) : null;
}

/** Starts an import: a root row in state `importing`, unless the root is already known. */
export async function insertImportingFolderRoot(q: Queryable, cid: string, createdAt: number): Promise<boolean> {
  return (await changed(q, `INSERT INTO folder_roots (cid, state, created_at) VALUES ($1, 'importing', $2) ON CONFLICT DO NOTHING`, [cid, createdAt])) === 1;
}

/** Records a root as ready with its stats (the end of an import, or a root an operation made). */
export async function upsertReadyFolderRoot(q: Queryable, cid: string, stats: FolderRootStats, createdAt: number): Promise<void> {
  await q.query(
    `INSERT INTO folder_roots (cid, state, kind, entries, links_bytes, block_bytes, created_at)
     VALUES ($1, 'ready', $2, $3, $4, $5, $6)
     ON CONFLICT (cid) DO UPDATE SET state = 'ready', kind = EXCLUDED.kind, entries = EXCLUDED.entries,
       links_bytes = EXCLUDED.links_bytes, block_bytes = EXCLUDED.block_bytes`,
    [cid, stats.kind, stats.entries, stats.linksBytes, stats.blockBytes, createdAt],
  );
}

/** Drops a root and its members (a failed import, or imports a restart interrupted). */
export async function deleteFolderRoot(q: Queryable, cid: string): Promise<void> {
  await q.query('DELETE FROM folder_roots WHERE cid = $1', [cid]);
}

export async function deleteImportingFolderRoots(q: Queryable): Promise<number> {
  return changed(q, `DELETE FROM folder_roots WHERE state = 'importing'`);
}

export async function isFolderMember(q: Queryable, accountId: number, cid: string): Promise<boolean> {
  return (await row(q, 'SELECT 1 FROM folder_members WHERE account_id = $1 AND cid = $2', [accountId, cid])) !== null;
}

export async function insertFolderMember(q: Queryable, accountId: number, cid: string, origin: FolderOrigin, createdAt: number): Promise<void> {
  await q.query('INSERT INTO folder_members (account_id, cid, origin, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [
    accountId,
    cid,
    origin,
    createdAt,
  ]);
}

/**
 * Ready roots in CID order after `after` (paging): what pruning after a GC cycle looks at. Compared and
 * ordered byte by byte (COLLATE "C"), as SQLite's BINARY, whatever the database's collation.
 */
export async function readyFolderRootCidsAfter(q: Queryable, after: string, limit: number): Promise<string[]> {
  const found = await rows<{ cid: string }>(
    q,
    `SELECT cid FROM folder_roots WHERE state = 'ready' AND cid COLLATE "C" > $1 ORDER BY cid COLLATE "C" LIMIT $2`,
    [after, limit],
  );
  return found.map((r) => r.cid);
}

/** How many member rows there are: the table that grows with every operation until its roots are collected. */
export async function countFolderMembers(q: Queryable): Promise<number> {
  return int((await row<{ n: string }>(q, 'SELECT COUNT(*) AS n FROM folder_members'))?.n ?? 0);
}
