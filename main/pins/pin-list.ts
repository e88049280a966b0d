import { CID } from 'multiformats/cid';
import type { PinRecord } from '../../shared/api-types.js';
import type { Repositories } from '../store/repositories/index.js';
import type { PinFilter, PinPosition, PinRow } from '../store/repositories/pins.js';
import type { PinsContext } from './context.js';
import { toPinRecord } from './pins.js';

/**
 * `GET /api/v0/pin` at 100,000 pins (issue 12): the spec's `status`, `limit` and `start`, and the Pinfold
 * extensions `name` (a case-insensitive substring), `cid` (any spelling of one CID) and the cursors
 * `after`/`before`, answered as `next`/`prev` beside `total`. No page costs more than the first:
 * - a `start` past the middle is read from the other end of the list (the last page is a first page);
 * - rows skipped on the way are index entries, never table rows (see pinPageRows);
 * - a cursor starts the page at its position directly, whatever its depth.
 */

const DAG_PB = 0x70;
const SHA2_256 = 0x12;

/** The query of GET /api/v0/pin, checked. */
export interface PinListQuery {
  filter: PinFilter;
  limit: number;
  /** `start` (default 0); never given together with a cursor. */
  start: number;
  after?: PinPosition;
  before?: PinPosition;
}

/**
 * The stored spellings of a CID: pins keep the text their CID was given in (`Qm...` for v0, base32 for
 * v1), so one dag-pb/sha2-256 CID may be stored either way; any other CID has only its v1 form.
 */
export function cidSpellings(cid: CID): string[] {
  const v1 = cid.toV1().toString();
  const canV0 = cid.code === DAG_PB && cid.multihash.code === SHA2_256 && cid.multihash.digest.byteLength === 32;
  return canV0 ? [cid.toV0().toString(), v1] : [v1];
}

/** One page of the list: where the next page starts after its last row, and the previous before its first. */
export interface PinList {
  data: PinRecord[];
  total: number;
  next?: PinPosition;
  prev?: PinPosition;
}

function positionOf(row: PinRow): PinPosition {
  return { createdAt: row.createdAt, id: row.id };
}

function answer(rows: readonly PinRow[], total: number, more: { next: boolean; prev: boolean }): PinList & { rows: readonly PinRow[] } {
  const data: PinRecord[] = rows.map((row) => toPinRecord(row));
  const first = rows[0];
  const last = rows[rows.length - 1];
  return {
    data,
    rows,
    total,
    ...(more.next && last ? { next: positionOf(last) } : {}),
    ...(more.prev && first ? { prev: positionOf(first) } : {}),
  };
}

/** The page the query asks for, newest first, with the total the filter matches. */
export async function pinList(ctx: PinsContext, accountId: number, query: PinListQuery): Promise<PinList> {
  // One transaction: no write lands between the count and the page.
  const page = await ctx.accounts.store.transaction((tx) => readPinList(tx, accountId, query));
  // A pin being fetched shows how far its fetch is (a lookup per pinning row, none for the others).
  const { fetches } = ctx;
  if (fetches !== undefined) {
    page.data.forEach((record, i) => {
      const row = page.rows[i] as PinRow;
      if (row.status !== 'pinning') return;
      const progress = fetches.progressOf(row.id);
      if (progress !== undefined) record.fetch = { ...progress };
    });
  }
  return { data: page.data, total: page.total, ...(page.next ? { next: page.next } : {}), ...(page.prev ? { prev: page.prev } : {}) };
}

async function readPinList(tx: Repositories, accountId: number, query: PinListQuery): Promise<PinList & { rows: readonly PinRow[] }> {
  const { filter, limit } = query;
  const total = await tx.pins.countPinsMatching(accountId, filter);
  if (query.after) {
    const rows = await tx.pins.pinPageRows(accountId, filter, { limit: limit + 1, offset: 0, from: 'newest', olderThan: query.after });
    return answer(rows.slice(0, limit), total, { next: rows.length > limit, prev: true });
  }
  if (query.before) {
    const rows = await tx.pins.pinPageRows(accountId, filter, { limit: limit + 1, offset: 0, from: 'oldest', newerThan: query.before });
    return answer(rows.slice(0, limit).reverse(), total, { next: true, prev: rows.length > limit });
  }
  const { start } = query;
  if (start >= total) return answer([], total, { next: false, prev: false });
  const more = { next: start + limit < total, prev: start > 0 };
  // Past the middle, the page is nearer the other end: read it from there, and turn it round.
  if (start > total / 2) {
    const count = Math.min(limit, total - start);
    const rows = await tx.pins.pinPageRows(accountId, filter, { limit: count, offset: total - start - count, from: 'oldest' });
    return answer(rows.reverse(), total, more);
  }
  return answer(await tx.pins.pinPageRows(accountId, filter, { limit, offset: start, from: 'newest' }), total, more);
}
