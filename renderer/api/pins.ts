import { is } from 'valibot';
import type { PinRecord, PinStatus } from '../../shared/api-types.js';
import { PinRecordSchema, PinStatusSchema } from '../../shared/schemas/pins.js';
import type { ApiCore, ListPage } from './core.js';

/** A status, or `active` (extension): every pin but the unpinning ones. */
export type PinListStatus = PinStatus | 'active';

export interface PinListQuery {
  status?: PinListStatus | undefined;
  /** Case-insensitive substring of the pin name (extension). */
  name?: string | undefined;
  /** Any form of one CID: v0 and v1 of it match (extension). */
  cid?: string | undefined;
  limit?: number | undefined;
  start?: number | undefined;
  /** A `next` cursor of an earlier answer: the page after it, at one page's cost however deep (extension). */
  after?: string | undefined;
  /** A `prev` cursor: the page before it. */
  before?: string | undefined;
}

export interface PinsApi {
  /** GET /api/v0/pin: newest first, `total` counts what matches the filters; `next`/`prev` cursors beside it. */
  list(query: PinListQuery, signal?: AbortSignal): Promise<ListPage<PinRecord>>;
  /** GET /api/v0/pin/{cid}. */
  get(cid: string, signal?: AbortSignal): Promise<PinRecord>;
  /** POST /api/v0/pin/add?arg=&name=. */
  add(pin: { cid: string; name?: string | undefined }, signal?: AbortSignal): Promise<void>;
  /** POST /api/v0/pin/rm?arg=: the pin turns `unpinning` until the next GC cycle. */
  remove(cid: string, signal?: AbortSignal): Promise<void>;
  /** POST /api/v0/pin/rename. */
  rename(cid: string, name: string, signal?: AbortSignal): Promise<void>;
}

export function pinsApi(core: ApiCore): PinsApi {
  return {
    list: (query, signal) => core.list({ path: '/api/v0/pin', signal, query: { ...query } }, isPinRecord, 'the pin list'),
    get: (cid, signal) => core.data({ path: `/api/v0/pin/${encodeURIComponent(cid)}`, signal }, isPinRecord, 'a pin'),
    add: (pin, signal) => core.empty({ method: 'POST', path: '/api/v0/pin/add', signal, query: { arg: pin.cid, name: pin.name } }),
    remove: (cid, signal) => core.empty({ method: 'POST', path: '/api/v0/pin/rm', signal, query: { arg: cid } }),
    rename: (cid, name, signal) => core.empty({ method: 'POST', path: '/api/v0/pin/rename', signal, body: { cid, name } }),
  };
}

export const isPinStatus = (value: unknown): value is PinStatus => is(PinStatusSchema, value);
export const isPinRecord = (value: unknown): value is PinRecord => is(PinRecordSchema, value);
