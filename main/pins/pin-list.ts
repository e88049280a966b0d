import { CID } from 'multiformats/cid';
import type { PinListEnvelope, PinRecord } from '../../shared/api-types.js';
import { BadInputError } from '../base/errors.js';
import { parseCidParam } from '../content/cid-param.js';
import { countPinsMatching, pinPageRows, type PinFilter, type PinPosition, type PinRow } from '../store/db/pins-queries.js';
import type { PinsContext } from './context.js';
import { parsePage, parseStatus, toPinRecord } from './pins.js';

/**
 * `GET /api/v0/pin` at 100,000 pins (issue 12): the spec's `status`, `limit` and `start`, and the Pinfold
 * extensions `name` (a case-insensitive substring), `cid` (any spelling of one CID) and the cursors
 * `after`/`before`, answered as `next`/`prev` beside `total`. No page costs more than the first:
 * - a `start` past the middle is read from the other end of the list (the last page is a first page);
 * - rows skipped on the way are index entries, never table rows (see pinPageRows);
 * - a cursor starts the page at its position directly, whatever its depth.
 */

const MAX_NAME_FILTER = 255;
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

function parseNameFilter(value: unknown): string | null {
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string') throw new BadInputError('name must be one text to search pin names for');
  if (value.length > MAX_NAME_FILTER) throw new BadInputError(`name must be 1 to ${MAX_NAME_FILTER} characters`);
  return value.toLowerCase();
}

function parseCidFilter(value: unknown): string[] | null {
  if (value === undefined || value === '') return null;
  return cidSpellings(parseCidParam(value, 'cid'));
}

/** A cursor: the base64url text of a pin's position, opaque to clients. */
export function encodeCursor(row: Pick<PinRow, 'createdAt' | 'id'>): string {
  return Buffer.from(`${row.createdAt}.${row.id}`, 'utf8').toString('base64url');
}

export function decodeCursor(value: unknown, parameter: string): PinPosition {
  const invalid = new BadInputError(`${parameter} is not a cursor of this list (use next or prev of a previous answer)`);
  if (typeof value !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(value)) throw invalid;
  const match = /^(\d{1,15})\.(\d{1,15})$/.exec(Buffer.from(value, 'base64url').toString('utf8'));
  if (!match) throw invalid;
  return { createdAt: Number(match[1]), id: Number(match[2]) };
}

export function parsePinListQuery(query: Record<string, unknown>): PinListQuery {
  const filter: PinFilter = { status: parseStatus(query.status), nameLower: parseNameFilter(query.name), cids: parseCidFilter(query.cid) };
  const { limit, start } = parsePage(query);
  const hasAfter = query.after !== undefined && query.after !== '';
  const hasBefore = query.before !== undefined && query.before !== '';
  if (hasAfter && hasBefore) throw new BadInputError('after and before cannot be used together');
  if ((hasAfter || hasBefore) && query.start !== undefined && query.start !== '') throw new BadInputError('start cannot be used with after or before');
  return {
    filter,
    limit,
    start,
    ...(hasAfter ? { after: decodeCursor(query.after, 'after') } : {}),
    ...(hasBefore ? { before: decodeCursor(query.before, 'before') } : {}),
  };
}

export type PinList = Omit<PinListEnvelope, 'code'>;

function answer(rows: readonly PinRow[], total: number, more: { next: boolean; prev: boolean }): PinList {
  const data: PinRecord[] = rows.map(toPinRecord);
  const first = rows[0];
  const last = rows[rows.length - 1];
  return {
    data,
    total,
    ...(more.next && last ? { next: encodeCursor(last) } : {}),
    ...(more.prev && first ? { prev: encodeCursor(first) } : {}),
  };
}

/** The page the query asks for, newest first, with the total the filter matches. */
export function pinList(ctx: PinsContext, accountId: number, query: PinListQuery): PinList {
  const { db } = ctx.accounts;
  const { filter, limit } = query;
  // The count and the page are two synchronous reads on one connection: no write lands between them.
  const total = countPinsMatching(db, accountId, filter);
  if (query.after) {
    const rows = pinPageRows(db, accountId, filter, { limit: limit + 1, offset: 0, from: 'newest', olderThan: query.after });
    return answer(rows.slice(0, limit), total, { next: rows.length > limit, prev: true });
  }
  if (query.before) {
    const rows = pinPageRows(db, accountId, filter, { limit: limit + 1, offset: 0, from: 'oldest', newerThan: query.before });
    return answer(rows.slice(0, limit).reverse(), total, { next: true, prev: rows.length > limit });
  }
  const { start } = query;
  if (start >= total) return answer([], total, { next: false, prev: false });
  const more = { next: start + limit < total, prev: start > 0 };
  // Past the middle, the page is nearer the other end: read it from there, and turn it round.
  if (start > total / 2) {
    const count = Math.min(limit, total - start);
    const rows = pinPageRows(db, accountId, filter, { limit: count, offset: total - start - count, from: 'oldest' });
    return answer(rows.reverse(), total, more);
  }
  return answer(pinPageRows(db, accountId, filter, { limit, offset: start, from: 'newest' }), total, more);
}
