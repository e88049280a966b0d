import type { FolderOrigin, FolderRootRow, FolderRootState, FolderRootStats } from '../repositories/folders.js';
import { int, orNull, type Int } from '../sql/columns.js';
import { BYTEWISE } from '../sql/dialects.js';
import { queryRow, queryRows, statement } from '../sql/query.js';
import { sql } from '../sql/sql.js';

/** Folder roots and their members (FoldersRepository, tables folder_roots and folder_members). */

interface RawFolderRoot {
  cid: string;
  state: FolderRootState;
  kind: 'plain' | 'hamt' | null;
  entries: Int | null;
  links_bytes: Int | null;
  block_bytes: Int | null;
  created_at: Int;
}

function toFolderRoot(raw: RawFolderRoot): FolderRootRow {
  const stats =
    raw.kind === null || raw.entries === null || raw.links_bytes === null || raw.block_bytes === null
      ? null
      : { kind: raw.kind, entries: int(raw.entries), linksBytes: int(raw.links_bytes), blockBytes: int(raw.block_bytes) };
  return { cid: raw.cid, state: raw.state, stats, createdAt: int(raw.created_at) };
}

export const folderRootOf = queryRow(
  (cid: string) => sql`SELECT cid, state, kind, entries, links_bytes, block_bytes, created_at FROM folder_roots WHERE cid = ${cid}`,
  orNull(toFolderRoot),
);

/** Starts an import: a root row in state `importing`, unless the root is already known. */
export const insertImportingFolderRoot = statement(
  (cid: string, createdAt: number) => sql`INSERT INTO folder_roots (cid, state, created_at) VALUES (${cid}, 'importing', ${createdAt}) ON CONFLICT DO NOTHING`,
  (changes) => changes === 1,
);

/** Records a root as ready with its stats (the end of an import, or a root an operation made). */
export const upsertReadyFolderRoot = statement(
  (cid: string, stats: FolderRootStats, createdAt: number) =>
    sql`INSERT INTO folder_roots (cid, state, kind, entries, links_bytes, block_bytes, created_at)
        VALUES (${cid}, 'ready', ${stats.kind}, ${stats.entries}, ${stats.linksBytes}, ${stats.blockBytes}, ${createdAt})
        ON CONFLICT (cid) DO UPDATE SET state = 'ready', kind = excluded.kind, entries = excluded.entries,
          links_bytes = excluded.links_bytes, block_bytes = excluded.block_bytes`,
);

/** Drops a root and its members (a failed import, or imports a restart interrupted). */
export const deleteFolderRoot = statement((cid: string) => sql`DELETE FROM folder_roots WHERE cid = ${cid}`);

export const deleteImportingFolderRoots = statement(
  () => sql`DELETE FROM folder_roots WHERE state = 'importing'`,
  (changes) => changes,
);

export const isFolderMember = queryRow(
  (accountId: number, cid: string) => sql`SELECT 1 AS one FROM folder_members WHERE account_id = ${accountId} AND cid = ${cid}`,
  (raw) => raw !== undefined,
);

export const insertFolderMember = statement(
  (accountId: number, cid: string, origin: FolderOrigin, createdAt: number) =>
    sql`INSERT INTO folder_members (account_id, cid, origin, created_at) VALUES (${accountId}, ${cid}, ${origin}, ${createdAt}) ON CONFLICT DO NOTHING`,
);

/** Ready roots in CID order after `after` (paging): what pruning after a GC cycle looks at. CIDs compare byte by byte. */
export const readyFolderRootCidsAfter = queryRows(
  (after: string, limit: number) =>
    sql`SELECT cid FROM folder_roots WHERE state = 'ready' AND cid${BYTEWISE} > ${after} ORDER BY cid${BYTEWISE} LIMIT ${limit}`,
  (raw: { cid: string }) => raw.cid,
);

/** How many member rows there are: the table that grows with every operation until its roots are collected. */
export const countFolderMembers = queryRow(
  () => sql`SELECT COUNT(*) AS n FROM folder_members`,
  (raw: { n: Int } | undefined) => int(raw?.n ?? 0),
);
