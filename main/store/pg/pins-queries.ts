import { randomUUID } from 'node:crypto';
import { int, row, rows, type Queryable } from './queryable.js';
import { metaOfText, metaText, originsOfText, originsText } from '../pin-hints-json.js';
import type { PinRow, NewPin, PinFilter, PinPageQuery, PinSearch, PinWithHints, StoredPinStatus } from '../repositories/pins.js';

/** The PostgreSQL side of PinsRepository (store/db/pins-queries.ts, table pins). */

interface RawPin {
  id: string;
  account_id: string;
  cid: string;
  name: string;
  status: StoredPinStatus;
  size: string;
  created_at: string;
  updated_at: string;
  deadline: string | null;
  request_id: string;
  created_ms: string;
}

interface RawPinWithHints extends RawPin {
  meta: string;
  origins: string;
}

function toPin(raw: RawPin): PinRow {
  return {
    id: int(raw.id),
    accountId: int(raw.account_id),
    cid: raw.cid,
    name: raw.name,
    status: raw.status,
    size: int(raw.size),
    createdAt: int(raw.created_at),
    updatedAt: int(raw.updated_at),
    deadline: raw.deadline === null ? null : int(raw.deadline),
    requestId: raw.request_id,
    createdMs: int(raw.created_ms),
  };
}

function toPinWithHints(raw: RawPinWithHints): PinWithHints {
  return { ...toPin(raw), meta: metaOfText(raw.meta), origins: originsOfText(raw.origins) };
}

const PIN_COLUMNS = 'id, account_id, cid, name, status, size, created_at, updated_at, deadline, request_id, created_ms';
const PIN_COLUMNS_WITH_HINTS = `${PIN_COLUMNS}, meta, origins`;

export async function pinOf(q: Queryable, accountId: number, cid: string): Promise<PinRow | null> {
  const raw = await row<RawPin>(q, `SELECT ${PIN_COLUMNS} FROM pins WHERE account_id = $1 AND cid = $2`, [accountId, cid]);
  return raw ? toPin(raw) : null;
}

/** A new pin, with a random `requestid` and its `created_ms` as SQLite gives them (store/db/pins-queries.ts). */
export async function insertPin(q: Queryable, pin: NewPin): Promise<void> {
  await q.query(
    `INSERT INTO pins (account_id, cid, name, status, size, created_at, updated_at, deadline, request_id, created_ms)
     VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $8,
       GREATEST($6::bigint * 1000, COALESCE((SELECT max(created_ms) FROM pins WHERE account_id = $1), -1) + 1))`,
    [pin.accountId, pin.cid, pin.name, pin.status, pin.size, pin.createdAt, pin.deadline, randomUUID()],
  );
}

export async function updatePinState(q: Queryable, id: number, status: StoredPinStatus, size: number, deadline: number | null, now: number): Promise<void> {
  await q.query('UPDATE pins SET status = $1, size = $2, deadline = $3, updated_at = $4 WHERE id = $5', [status, size, deadline, now, id]);
}

export async function renamePin(q: Queryable, id: number, name: string, now: number): Promise<void> {
  await q.query('UPDATE pins SET name = $1, updated_at = $2 WHERE id = $3', [name, now, id]);
}

export async function deletePin(q: Queryable, id: number): Promise<void> {
  await q.query('DELETE FROM pins WHERE id = $1', [id]);
}

/** Parameters numbered as they are added: `param(value)` answers its `$n`. */
function parameters(): { args: unknown[]; param: (value: unknown) => string } {
  const args: unknown[] = [];
  return { args, param: (value) => `$${args.push(value)}` };
}

/**
 * The filter's WHERE. The name is lower-cased under ICU's root collation, as SQLite's pinfold_lower
 * (JavaScript's toLowerCase: Unicode): a database made with the C locale (or any libc one) would otherwise
 * lower ASCII alone. strpos, not LIKE: % and _ in a search are literal, as SQLite's instr.
 */
function filterSql(accountId: number, filter: PinFilter, param: (value: unknown) => string): string {
  let sql = `account_id = ${param(accountId)}`;
  if (filter.status !== null) sql += ` AND status = ${param(filter.status)}`;
  if (filter.nameLower !== null) sql += ` AND strpos(lower(name COLLATE "und-x-icu"), ${param(filter.nameLower)}) > 0`;
  if (filter.cids !== null) sql += ` AND cid = ANY(${param([...filter.cids])}::text[])`;
  return sql;
}

/**
 * One page of an account's pins, newest first, under a filter: the page's ids on the covering index
 * (pins_account_created / pins_account_status), then only the page's rows. A position (olderThan/newerThan)
 * starts the page there. Ties on created_at are broken by id, as SQLite.
 */
export async function pinPageRows(q: Queryable, accountId: number, filter: PinFilter, page: PinPageQuery): Promise<PinRow[]> {
  const { args, param } = parameters();
  let sql = filterSql(accountId, filter, param);
  if (page.olderThan) sql += ` AND (created_at, id) < (${param(page.olderThan.createdAt)}, ${param(page.olderThan.id)})`;
  if (page.newerThan) sql += ` AND (created_at, id) > (${param(page.newerThan.createdAt)}, ${param(page.newerThan.id)})`;
  const order = page.from === 'newest' ? 'DESC' : 'ASC';
  const limit = param(page.limit);
  const offset = param(page.offset);
  const found = await rows<RawPin>(
    q,
    `SELECT ${PIN_COLUMNS.split(', ')
      .map((column) => `p.${column}`)
      .join(', ')}
     FROM pins p JOIN (SELECT id FROM pins WHERE ${sql} ORDER BY created_at ${order}, id ${order} LIMIT ${limit} OFFSET ${offset}) page ON p.id = page.id
     ORDER BY p.created_at ${order}, p.id ${order}`,
    args,
  );
  return found.map(toPin);
}

/** How many of the account's pins the filter matches (on the same index). */
export async function countPinsMatching(q: Queryable, accountId: number, filter: PinFilter): Promise<number> {
  const { args, param } = parameters();
  const sql = filterSql(accountId, filter, param);
  return int((await row<{ n: string }>(q, `SELECT COUNT(*) AS n FROM pins WHERE ${sql}`, args))?.n ?? 0);
}

/** Pins of every account in one status: GC's roots and the pinning queue. */
export async function pinsWithStatus(q: Queryable, status: StoredPinStatus): Promise<PinRow[]> {
  return (await rows<RawPin>(q, `SELECT ${PIN_COLUMNS} FROM pins WHERE status = $1 ORDER BY id`, [status])).map(toPin);
}

/** The CIDs GC must keep: every pin that is not being removed (no order, as SQLite's). */
export async function liveRootCids(q: Queryable): Promise<string[]> {
  return (await rows<{ cid: string }>(q, "SELECT DISTINCT cid FROM pins WHERE status != 'unpinning'")).map((r) => r.cid);
}

/** The account's live pins (pinned or pinning): what folder rule 4 walks to find another pin reaching a root. */
export async function livePinsOf(q: Queryable, accountId: number): Promise<PinRow[]> {
  return (await rows<RawPin>(q, `SELECT ${PIN_COLUMNS} FROM pins WHERE account_id = $1 AND status IN ('pinned', 'pinning') ORDER BY id`, [accountId])).map(
    toPin,
  );
}

/** The account's pin with this PSA `requestid`, with its hints. */
export async function pinByRequestId(q: Queryable, accountId: number, requestId: string): Promise<PinWithHints | null> {
  const raw = await row<RawPinWithHints>(q, `SELECT ${PIN_COLUMNS_WITH_HINTS} FROM pins WHERE request_id = $1 AND account_id = $2`, [requestId, accountId]);
  return raw ? toPinWithHints(raw) : null;
}

export async function renewRequestId(q: Queryable, id: number): Promise<void> {
  await q.query('UPDATE pins SET request_id = $1 WHERE id = $2', [randomUUID(), id]);
}

export async function setPinMeta(q: Queryable, id: number, meta: Readonly<Record<string, string>>): Promise<void> {
  await q.query('UPDATE pins SET meta = $1 WHERE id = $2', [metaText(meta), id]);
}

export async function setPinOrigins(q: Queryable, id: number, origins: readonly string[]): Promise<void> {
  await q.query('UPDATE pins SET origins = $1 WHERE id = $2', [originsText(origins), id]);
}

export async function originsOf(q: Queryable, id: number): Promise<string[]> {
  const raw = await row<{ origins: string }>(q, 'SELECT origins FROM pins WHERE id = $1', [id]);
  return raw ? originsOfText(raw.origins) : [];
}

/**
 * The search's WHERE, as SQLite's (store/db/pins-queries.ts): names lower-cased under ICU's root collation
 * (see filterSql), strpos rather than LIKE, the meta filter as JSON containment (every value is a string, so
 * containment is equality of each wanted entry).
 */
function searchSql(accountId: number, search: PinSearch, param: (value: unknown) => string): string {
  let sql = `account_id = ${param(accountId)} AND status = ANY(${param([...search.statuses])}::text[])`;
  if (search.cids !== null) sql += ` AND cid = ANY(${param([...search.cids])}::text[])`;
  if (search.name !== null) {
    const { text, match } = search.name;
    if (match === 'exact') sql += ` AND name = ${param(text)}`;
    else if (match === 'iexact') sql += ` AND lower(name COLLATE "und-x-icu") = ${param(text.toLowerCase())}`;
    else if (match === 'partial') sql += ` AND strpos(name, ${param(text)}) > 0`;
    else sql += ` AND strpos(lower(name COLLATE "und-x-icu"), ${param(text.toLowerCase())}) > 0`;
  }
  if (search.meta !== null) sql += ` AND meta::jsonb @> ${param(metaText(search.meta))}::jsonb`;
  if (search.createdBeforeMs !== null) sql += ` AND created_ms < ${param(search.createdBeforeMs)}`;
  if (search.createdAfterMs !== null) sql += ` AND created_ms > ${param(search.createdAfterMs)}`;
  return sql;
}

/** At most `limit` of the account's pins the search matches, newest first, with their hints. */
export async function searchPins(q: Queryable, accountId: number, search: PinSearch, limit: number): Promise<PinWithHints[]> {
  const { args, param } = parameters();
  const sql = searchSql(accountId, search, param);
  const found = await rows<RawPinWithHints>(
    q,
    `SELECT ${PIN_COLUMNS_WITH_HINTS} FROM pins WHERE ${sql} ORDER BY created_ms DESC, id DESC LIMIT ${param(limit)}`,
    args,
  );
  return found.map(toPinWithHints);
}

export async function countPinSearch(q: Queryable, accountId: number, search: PinSearch): Promise<number> {
  const { args, param } = parameters();
  const sql = searchSql(accountId, search, param);
  return int((await row<{ n: string }>(q, `SELECT count(*) AS n FROM pins WHERE ${sql}`, args))?.n ?? 0);
}
