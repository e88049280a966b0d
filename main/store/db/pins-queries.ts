import { randomUUID } from 'node:crypto';
import type { PinStatus } from '../../../shared/api-types.js';
import { stmt, type Db } from './database.js';
import { SQLITE_LOWER_FUNCTION as LOWER_FUNCTION } from '../sql/dialects.js';
import { metaOfText, metaText, originsOfText, originsText } from '../pin-hints-json.js';
import type { PinRow, NewPin, PinFilter, PinPageQuery, PinSearch, PinWithHints } from '../repositories/pins.js';

interface RawPin {
  id: number;
  account_id: number;
  cid: string;
  name: string;
  status: PinStatus;
  size: number;
  created_at: number;
  updated_at: number;
  deadline: number | null;
  request_id: string;
  created_ms: number;
}

interface RawPinWithHints extends RawPin {
  meta: string;
  origins: string;
}

function toPin(raw: RawPin): PinRow {
  return {
    id: raw.id,
    accountId: raw.account_id,
    cid: raw.cid,
    name: raw.name,
    status: raw.status,
    size: raw.size,
    createdAt: raw.created_at,
    updatedAt: raw.updated_at,
    deadline: raw.deadline,
    requestId: raw.request_id,
    createdMs: raw.created_ms,
  };
}

function toPinWithHints(raw: RawPinWithHints): PinWithHints {
  return { ...toPin(raw), meta: metaOfText(raw.meta), origins: originsOfText(raw.origins) };
}

export function pinOf(db: Db, accountId: number, cid: string): PinRow | null {
  const raw = stmt(db, 'SELECT * FROM pins WHERE account_id = ? AND cid = ?').get(accountId, cid) as RawPin | undefined;
  return raw ? toPin(raw) : null;
}

/**
 * A new pin, with a random `requestid` and its `created_ms`: its second's first millisecond, or one after the
 * account's newest pin when that is not earlier, so no two pins of an account share a `created` (the PSA
 * pages by it).
 */
export function insertPin(db: Db, pin: NewPin): void {
  stmt(
    db,
    `INSERT INTO pins (account_id, cid, name, status, size, created_at, updated_at, deadline, request_id, created_ms)
     VALUES (@accountId, @cid, @name, @status, @size, @createdAt, @createdAt, @deadline, @requestId,
       max(@createdAt * 1000, coalesce((SELECT max(created_ms) FROM pins WHERE account_id = @accountId), -1) + 1))`,
  ).run({ ...pin, requestId: randomUUID() });
}

export function updatePinState(db: Db, id: number, status: PinStatus, size: number, deadline: number | null, now: number): void {
  stmt(db, 'UPDATE pins SET status = ?, size = ?, deadline = ?, updated_at = ? WHERE id = ?').run(status, size, deadline, now, id);
}

export function renamePin(db: Db, id: number, name: string, now: number): void {
  stmt(db, 'UPDATE pins SET name = ?, updated_at = ? WHERE id = ?').run(name, now, id);
}

export function deletePin(db: Db, id: number): void {
  stmt(db, 'DELETE FROM pins WHERE id = ?').run(id);
}

function filterSql(filter: PinFilter): { sql: string; args: unknown[] } {
  let sql = 'account_id = ?';
  const args: unknown[] = [];
  if (filter.status !== null) {
    sql += ' AND status = ?';
    args.push(filter.status);
  }
  if (filter.nameLower !== null) {
    // instr, not LIKE: the text is matched as it is, so % and _ in a search are literal.
    sql += ` AND instr(${LOWER_FUNCTION}(name), ?) > 0`;
    args.push(filter.nameLower);
  }
  if (filter.cids !== null) {
    sql += ` AND cid IN (${filter.cids.map(() => '?').join(', ')})`;
    args.push(...filter.cids);
  }
  return { sql, args };
}

/**
 * One page of an account's pins, newest first, under a filter. The page's ids are found on an index that
 * holds everything a filter reads (account, status, created_at, id, name), so rows skipped by the offset
 * or by the filter cost an index step, never a table read; then only the page's rows are read. A position
 * (olderThan/newerThan) starts the page there, at the cost of the page alone, however deep it is.
 */
export function pinPageRows(db: Db, accountId: number, filter: PinFilter, page: PinPageQuery): PinRow[] {
  const where = filterSql(filter);
  let sql = where.sql;
  const args: unknown[] = [accountId, ...where.args];
  if (page.olderThan) {
    sql += ' AND (created_at, id) < (?, ?)';
    args.push(page.olderThan.createdAt, page.olderThan.id);
  }
  if (page.newerThan) {
    sql += ' AND (created_at, id) > (?, ?)';
    args.push(page.newerThan.createdAt, page.newerThan.id);
  }
  const order = page.from === 'newest' ? 'DESC' : 'ASC';
  const rows = stmt(
    db,
    `SELECT p.* FROM pins p JOIN (SELECT id FROM pins WHERE ${sql} ORDER BY created_at ${order}, id ${order} LIMIT ? OFFSET ?) page ON p.id = page.id
     ORDER BY p.created_at ${order}, p.id ${order}`,
  ).all(...args, page.limit, page.offset) as RawPin[];
  return rows.map(toPin);
}

/** How many of the account's pins the filter matches (on the same index). */
export function countPinsMatching(db: Db, accountId: number, filter: PinFilter): number {
  const where = filterSql(filter);
  return (stmt(db, `SELECT COUNT(*) AS n FROM pins WHERE ${where.sql}`).get(accountId, ...where.args) as { n: number }).n;
}

/** Pins of every account in one status: GC's roots and the pinning queue. */
export function pinsWithStatus(db: Db, status: PinStatus): PinRow[] {
  return (stmt(db, 'SELECT * FROM pins WHERE status = ? ORDER BY id').all(status) as RawPin[]).map(toPin);
}

/** The CIDs GC must keep: every pin that is not being removed. */
export function liveRootCids(db: Db): string[] {
  return (stmt(db, "SELECT DISTINCT cid FROM pins WHERE status != 'unpinning'").all() as { cid: string }[]).map((r) => r.cid);
}

/** The account's live pins (pinned or pinning): what folder rule 4 walks to find another pin reaching a root. */
export function livePinsOf(db: Db, accountId: number): PinRow[] {
  return (stmt(db, "SELECT * FROM pins WHERE account_id = ? AND status IN ('pinned', 'pinning') ORDER BY id").all(accountId) as RawPin[]).map(toPin);
}

/** The account's pin with this PSA `requestid`, with its hints. */
export function pinByRequestId(db: Db, accountId: number, requestId: string): PinWithHints | null {
  const raw = stmt(db, 'SELECT * FROM pins WHERE request_id = ? AND account_id = ?').get(requestId, accountId) as RawPinWithHints | undefined;
  return raw ? toPinWithHints(raw) : null;
}

export function renewRequestId(db: Db, id: number): void {
  stmt(db, 'UPDATE pins SET request_id = ? WHERE id = ?').run(randomUUID(), id);
}

export function setPinMeta(db: Db, id: number, meta: Readonly<Record<string, string>>): void {
  stmt(db, 'UPDATE pins SET meta = ? WHERE id = ?').run(metaText(meta), id);
}

export function setPinOrigins(db: Db, id: number, origins: readonly string[]): void {
  stmt(db, 'UPDATE pins SET origins = ? WHERE id = ?').run(originsText(origins), id);
}

export function originsOf(db: Db, id: number): string[] {
  const raw = stmt(db, 'SELECT origins FROM pins WHERE id = ?').get(id) as { origins: string } | undefined;
  return raw ? originsOfText(raw.origins) : [];
}

/**
 * The search's WHERE, after `account_id = ?`. Lists and the meta filter go in as one JSON parameter each,
 * so each shape of search is one cached statement however many values it names. Text is matched as it is
 * (instr, not LIKE): % and _ are literal.
 */
function searchSql(search: PinSearch): { sql: string; args: unknown[] } {
  let sql = ' AND status IN (SELECT value FROM json_each(?))';
  const args: unknown[] = [JSON.stringify(search.statuses)];
  if (search.cids !== null) {
    sql += ' AND cid IN (SELECT value FROM json_each(?))';
    args.push(JSON.stringify(search.cids));
  }
  if (search.name !== null) {
    const { text, match } = search.name;
    if (match === 'exact') sql += ' AND name = ?';
    else if (match === 'iexact') sql += ` AND ${LOWER_FUNCTION}(name) = ?`;
    else if (match === 'partial') sql += ' AND instr(name, ?) > 0';
    else sql += ` AND instr(${LOWER_FUNCTION}(name), ?) > 0`;
    args.push(match === 'iexact' || match === 'ipartial' ? text.toLowerCase() : text);
  }
  if (search.meta !== null) {
    // No wanted entry that the pin's meta lacks (or holds with another value).
    sql += ` AND NOT EXISTS (SELECT 1 FROM json_each(?) AS wanted WHERE NOT EXISTS (
      SELECT 1 FROM json_each(pins.meta) AS entry WHERE entry.key = wanted.key AND entry.type = 'text' AND entry.value = wanted.value))`;
    args.push(metaText(search.meta));
  }
  if (search.createdBeforeMs !== null) {
    sql += ' AND created_ms < ?';
    args.push(search.createdBeforeMs);
  }
  if (search.createdAfterMs !== null) {
    sql += ' AND created_ms > ?';
    args.push(search.createdAfterMs);
  }
  return { sql, args };
}

/** At most `limit` of the account's pins the search matches, newest first, with their hints. */
export function searchPins(db: Db, accountId: number, search: PinSearch, limit: number): PinWithHints[] {
  const where = searchSql(search);
  const rows = stmt(db, `SELECT * FROM pins WHERE account_id = ?${where.sql} ORDER BY created_ms DESC, id DESC LIMIT ?`).all(
    accountId,
    ...where.args,
    limit,
  ) as RawPinWithHints[];
  return rows.map(toPinWithHints);
}

export function countPinSearch(db: Db, accountId: number, search: PinSearch): number {
  const where = searchSql(search);
  return (stmt(db, `SELECT count(*) AS n FROM pins WHERE account_id = ?${where.sql}`).get(accountId, ...where.args) as { n: number }).n;
}
