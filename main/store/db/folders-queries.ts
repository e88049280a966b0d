import { stmt, type Db } from './database.js';
import type { FolderRootState, FolderOrigin, FolderRootStats, FolderRootRow } from '../repositories/folders.js';

interface RawFolderRoot {
  cid: string;
  state: FolderRootState;
  kind: 'plain' | 'hamt' | null;
  entries: number | null;
  links_bytes: number | null;
  block_bytes: number | null;
  created_at: number;
}

function toFolderRoot(raw: RawFolderRoot): FolderRootRow {
  const stats =
    raw.kind === null || raw.entries === null || raw.links_bytes === null || raw.block_bytes === null
      ? null
      : { kind: raw.kind, entries: raw.entries, linksBytes: raw.links_bytes, blockBytes: raw.block_bytes };
  return { cid: raw.cid, state: raw.state, stats, createdAt: raw.created_at };
}

export function folderRootOf(db: Db, cid: string): FolderRootRow | null {
  const raw = stmt(db, 'SELECT * FROM folder_roots WHERE cid = ?').get(cid) as RawFolderRoot | undefined;
  return raw ? toFolderRoot(raw) : null;
}

/** Starts an import: a root row in state `importing`, unless the root is already known. */
export function insertImportingFolderRoot(db: Db, cid: string, createdAt: number): boolean {
  const result = stmt(db, `INSERT OR IGNORE INTO folder_roots (cid, state, created_at) VALUES (?, 'importing', ?)`).run(cid, createdAt);
  return result.changes === 1;
}

/** Records a root as ready with its stats (the end of an import, or a root an operation made). */
export function upsertReadyFolderRoot(db: Db, cid: string, stats: FolderRootStats, createdAt: number): void {
  stmt(
    db,
    `INSERT INTO folder_roots (cid, state, kind, entries, links_bytes, block_bytes, created_at)
     VALUES (?, 'ready', ?, ?, ?, ?, ?)
     ON CONFLICT (cid) DO UPDATE SET state = 'ready', kind = excluded.kind, entries = excluded.entries,
       links_bytes = excluded.links_bytes, block_bytes = excluded.block_bytes`,
  ).run(cid, stats.kind, stats.entries, stats.linksBytes, stats.blockBytes, createdAt);
}

/** Drops a root and its members (a failed import, or imports a restart interrupted). */
export function deleteFolderRoot(db: Db, cid: string): void {
  stmt(db, 'DELETE FROM folder_roots WHERE cid = ?').run(cid);
}

export function deleteImportingFolderRoots(db: Db): number {
  return stmt(db, `DELETE FROM folder_roots WHERE state = 'importing'`).run().changes;
}

export function isFolderMember(db: Db, accountId: number, cid: string): boolean {
  return stmt(db, 'SELECT 1 FROM folder_members WHERE account_id = ? AND cid = ?').get(accountId, cid) !== undefined;
}

export function insertFolderMember(db: Db, accountId: number, cid: string, origin: FolderOrigin, createdAt: number): void {
  stmt(db, 'INSERT OR IGNORE INTO folder_members (account_id, cid, origin, created_at) VALUES (?, ?, ?, ?)').run(accountId, cid, origin, createdAt);
}

/** Ready roots in CID order after `after` (paging): what pruning after a GC cycle looks at. */
export function readyFolderRootCidsAfter(db: Db, after: string, limit: number): string[] {
  return (stmt(db, `SELECT cid FROM folder_roots WHERE state = 'ready' AND cid > ? ORDER BY cid LIMIT ?`).all(after, limit) as { cid: string }[]).map(
    (row) => row.cid,
  );
}

/** How many member rows there are: the table that grows with every operation until its roots are collected. */
export function countFolderMembers(db: Db): number {
  return (stmt(db, 'SELECT COUNT(*) AS n FROM folder_members').get() as { n: number }).n;
}
