import type { PinStatus } from '../../../shared/api-types.js';

export interface PinRow {
  id: number;
  accountId: number;
  cid: string;
  name: string;
  status: PinStatus;
  size: number;
  createdAt: number;
  updatedAt: number;
  deadline: number | null;
}

export interface NewPin {
  accountId: number;
  cid: string;
  name: string;
  status: PinStatus;
  size: number;
  createdAt: number;
  deadline: number | null;
}

/** What the pin list is narrowed to; every part is optional (null: no filter). */
export interface PinFilter {
  status: PinStatus | null;
  /** A substring of the name, already lower-cased (Unicode), matched against the lower-cased name. */
  nameLower: string | null;
  /** The stored spellings of one CID (its v0 and v1 text): a pin matches any of them. */
  cids: readonly string[] | null;
}

/** A place in the newest-first order: a pin's (created_at, id). */
export interface PinPosition {
  createdAt: number;
  id: number;
}

export interface PinPageQuery {
  limit: number;
  offset: number;
  /** `newest`: the list's own order. `oldest`: read from the other end (the caller reverses the rows). */
  from: 'newest' | 'oldest';
  /** Only pins older than this (the page after it) ... */
  olderThan?: PinPosition;
  /** ... or newer than this (the page before it). */
  newerThan?: PinPosition;
}

/** Pin records of every account. */
export interface PinsRepository {
  pinOf(accountId: number, cid: string): Promise<PinRow | null>;
  insertPin(pin: NewPin): Promise<void>;
  updatePinState(id: number, status: PinStatus, size: number, deadline: number | null, now: number): Promise<void>;
  renamePin(id: number, name: string, now: number): Promise<void>;
  deletePin(id: number): Promise<void>;
  /**
   * One page of an account's pins, newest first, under a filter. The page's ids are found on an index that
   * holds everything a filter reads (account, status, created_at, id, name), so rows skipped by the offset
   * or by the filter cost an index step, never a table read; then only the page's rows are read. A position
   * (olderThan/newerThan) starts the page there, at the cost of the page alone, however deep it is.
   */
  pinPageRows(accountId: number, filter: PinFilter, page: PinPageQuery): Promise<PinRow[]>;
  /** How many of the account's pins the filter matches (on the same index). */
  countPinsMatching(accountId: number, filter: PinFilter): Promise<number>;
  /** Pins of every account in one status: GC's roots and the pinning queue. */
  pinsWithStatus(status: PinStatus): Promise<PinRow[]>;
  /** The CIDs GC must keep: every pin that is not being removed. */
  liveRootCids(): Promise<string[]>;
  /** The account's live pins (pinned or pinning): what folder rule 4 walks to find another pin reaching a root. */
  livePinsOf(accountId: number): Promise<PinRow[]>;
}
