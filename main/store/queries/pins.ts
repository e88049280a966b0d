import { randomUUID } from 'node:crypto';
import { metaOfText, metaText, originsOfText, originsText } from '../pin-hints-json.js';
import type { NewPin, PinFilter, PinPageQuery, PinRow, PinSearch, PinWithHints, StoredPinStatus } from '../repositories/pins.js';
import { int, intOrNull, orNull, type Int } from '../sql/columns.js';
import { GREATEST, inList, inValues, jsonIncludes, POSITION, unicodeLower } from '../sql/dialects.js';
import { queryRow, queryRows, statement } from '../sql/query.js';
import { join, raw, sql, type Sql } from '../sql/sql.js';

/** Pins (PinsRepository, table pins), with the Pinning Service API's requestid, created millisecond and hints. */

interface RawPin {
  id: Int;
  account_id: Int;
  cid: string;
  name: string;
  status: StoredPinStatus;
  size: Int;
  created_at: Int;
  updated_at: Int;
  deadline: Int | null;
  request_id: string;
  created_ms: Int;
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
    deadline: intOrNull(raw.deadline),
    requestId: raw.request_id,
    createdMs: int(raw.created_ms),
  };
}

function toPinWithHints(raw: RawPinWithHints): PinWithHints {
  return { ...toPin(raw), meta: metaOfText(raw.meta), origins: originsOfText(raw.origins) };
}

const PIN_COLUMNS = raw('id, account_id, cid, name, status, size, created_at, updated_at, deadline, request_id, created_ms');
const PAGE_COLUMNS = raw('p.id, p.account_id, p.cid, p.name, p.status, p.size, p.created_at, p.updated_at, p.deadline, p.request_id, p.created_ms');
const PIN_COLUMNS_WITH_HINTS = raw('id, account_id, cid, name, status, size, created_at, updated_at, deadline, request_id, created_ms, meta, origins');

export const pinOf = queryRow(
  (accountId: number, cid: string) => sql`SELECT ${PIN_COLUMNS} FROM pins WHERE account_id = ${accountId} AND cid = ${cid}`,
  orNull(toPin),
);

/**
 * A new pin, with a random `requestid` and its `created_ms`: its second's first millisecond, or one after the
 * account's newest pin when that is not earlier, so no two pins of an account share a `created` (the PSA
 * pages by it).
 */
export const insertPin = statement(
  (pin: NewPin) =>
    sql`INSERT INTO pins (account_id, cid, name, status, size, created_at, updated_at, deadline, request_id, created_ms)
        VALUES (${pin.accountId}, ${pin.cid}, ${pin.name}, ${pin.status}, ${pin.size}, ${pin.createdAt}, ${pin.createdAt}, ${pin.deadline}, ${randomUUID()},
          ${GREATEST}(CAST(${pin.createdAt} AS BIGINT) * 1000, COALESCE((SELECT max(created_ms) FROM pins WHERE account_id = ${pin.accountId}), -1) + 1))`,
);

export const updatePinState = statement(
  (id: number, status: StoredPinStatus, size: number, deadline: number | null, now: number) =>
    sql`UPDATE pins SET status = ${status}, size = ${size}, deadline = ${deadline}, updated_at = ${now} WHERE id = ${id}`,
);

export const renamePin = statement((id: number, name: string, now: number) => sql`UPDATE pins SET name = ${name}, updated_at = ${now} WHERE id = ${id}`);

export const deletePin = statement((id: number) => sql`DELETE FROM pins WHERE id = ${id}`);

/** The name lower-cased by Unicode's rules, as JavaScript lowers the text searched for. */
const LOWER_NAME = unicodeLower(sql`name`);

/** The filter's WHERE. Text is matched as it is (no LIKE): % and _ in a search are literal. */
function filterSql(accountId: number, filter: PinFilter): Sql {
  const conditions = [sql`account_id = ${accountId}`];
  // `!=`, not IN: the planner keeps the newest-first index (which carries the status) and its order.
  if (filter.status === 'active') conditions.push(sql`status != 'unpinning'`);
  else if (filter.status !== null) conditions.push(sql`status = ${filter.status}`);
  if (filter.nameLower !== null) conditions.push(sql`${POSITION}(${LOWER_NAME}, ${filter.nameLower}) > 0`);
  if (filter.cids !== null) conditions.push(sql`${inValues(sql`cid`, filter.cids, 'text')}`);
  return join(conditions, ' AND ');
}

const DESC = raw('DESC');
const ASC = raw('ASC');

/**
 * One page of an account's pins, newest first, under a filter. The page's ids are found on an index that
 * holds everything a filter reads (account, status, created_at, id, name), so rows skipped by the offset
 * or by the filter cost an index step, never a table read; then only the page's rows are read. A position
 * (olderThan/newerThan) starts the page there, at the cost of the page alone, however deep it is.
 */
export const pinPageRows = queryRows((accountId: number, filter: PinFilter, page: PinPageQuery) => {
  const conditions = [filterSql(accountId, filter)];
  if (page.olderThan) conditions.push(sql`(created_at, id) < (${page.olderThan.createdAt}, ${page.olderThan.id})`);
  if (page.newerThan) conditions.push(sql`(created_at, id) > (${page.newerThan.createdAt}, ${page.newerThan.id})`);
  const order = page.from === 'newest' ? DESC : ASC;
  return sql`SELECT ${PAGE_COLUMNS} FROM pins p JOIN (
      SELECT id FROM pins WHERE ${join(conditions, ' AND ')} ORDER BY created_at ${order}, id ${order} LIMIT ${page.limit} OFFSET ${page.offset}
    ) page ON p.id = page.id ORDER BY p.created_at ${order}, p.id ${order}`;
}, toPin);

/** How many of the account's pins the filter matches (on the same index). */
export const countPinsMatching = queryRow(
  (accountId: number, filter: PinFilter) => sql`SELECT COUNT(*) AS n FROM pins WHERE ${filterSql(accountId, filter)}`,
  (raw: { n: Int } | undefined) => int(raw?.n ?? 0),
);

/** Pins of every account in one status: GC's roots and the pinning queue. */
export const pinsWithStatus = queryRows((status: StoredPinStatus) => sql`SELECT ${PIN_COLUMNS} FROM pins WHERE status = ${status} ORDER BY id`, toPin);

/** The CIDs GC must keep: every pin that is not being removed (in no order). */
export const liveRootCids = queryRows(
  () => sql`SELECT DISTINCT cid FROM pins WHERE status != 'unpinning'`,
  (raw: { cid: string }) => raw.cid,
);

/** The account's live pins (pinned or pinning): what folder rule 4 walks to find another pin reaching a root. */
export const livePinsOf = queryRows(
  (accountId: number) => sql`SELECT ${PIN_COLUMNS} FROM pins WHERE account_id = ${accountId} AND status IN ('pinned', 'pinning') ORDER BY id`,
  toPin,
);

/** The account's pin with this PSA `requestid`, with its hints. */
export const pinByRequestId = queryRow(
  (accountId: number, requestId: string) => sql`SELECT ${PIN_COLUMNS_WITH_HINTS} FROM pins WHERE request_id = ${requestId} AND account_id = ${accountId}`,
  orNull(toPinWithHints),
);

export const renewRequestId = statement((id: number) => sql`UPDATE pins SET request_id = ${randomUUID()} WHERE id = ${id}`);

export const setPinMeta = statement((id: number, meta: Readonly<Record<string, string>>) => sql`UPDATE pins SET meta = ${metaText(meta)} WHERE id = ${id}`);

export const setPinOrigins = statement((id: number, origins: readonly string[]) => sql`UPDATE pins SET origins = ${originsText(origins)} WHERE id = ${id}`);

export const originsOf = queryRow(
  (id: number) => sql`SELECT origins FROM pins WHERE id = ${id}`,
  (raw: { origins: string } | undefined) => (raw ? originsOfText(raw.origins) : []),
);

/**
 * The search's WHERE. Lists and the meta filter go in as one parameter each, so each shape of search is one
 * statement however many values it names. Text is matched as it is (no LIKE): % and _ are literal.
 */
function searchSql(accountId: number, search: PinSearch): Sql {
  const conditions = [sql`account_id = ${accountId}`, sql`${inList(sql`status`, search.statuses, 'text')}`];
  if (search.cids !== null) conditions.push(sql`${inList(sql`cid`, search.cids, 'text')}`);
  if (search.name !== null) {
    const { text, match } = search.name;
    if (match === 'exact') conditions.push(sql`name = ${text}`);
    else if (match === 'iexact') conditions.push(sql`${LOWER_NAME} = ${text.toLowerCase()}`);
    else if (match === 'partial') conditions.push(sql`${POSITION}(name, ${text}) > 0`);
    else conditions.push(sql`${POSITION}(${LOWER_NAME}, ${text.toLowerCase()}) > 0`);
  }
  if (search.meta !== null) conditions.push(sql`${jsonIncludes(sql`pins.meta`, metaText(search.meta))}`);
  if (search.createdBeforeMs !== null) conditions.push(sql`created_ms < ${search.createdBeforeMs}`);
  if (search.createdAfterMs !== null) conditions.push(sql`created_ms > ${search.createdAfterMs}`);
  return join(conditions, ' AND ');
}

/** At most `limit` of the account's pins the search matches, newest first, with their hints. */
export const searchPins = queryRows(
  (accountId: number, search: PinSearch, limit: number) =>
    sql`SELECT ${PIN_COLUMNS_WITH_HINTS} FROM pins WHERE ${searchSql(accountId, search)} ORDER BY created_ms DESC, id DESC LIMIT ${limit}`,
  toPinWithHints,
);

export const countPinSearch = queryRow(
  (accountId: number, search: PinSearch) => sql`SELECT count(*) AS n FROM pins WHERE ${searchSql(accountId, search)}`,
  (raw: { n: Int } | undefined) => int(raw?.n ?? 0),
);
