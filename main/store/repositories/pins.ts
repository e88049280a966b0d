/**
 * A pin's state as stored. Storage knows no API types: the API's PinStatus (shared/api-types.ts) says the
 * same four words, which test/unit/pins/pin-status-words.test.ts holds together.
 */
export type StoredPinStatus = 'pinning' | 'pinned' | 'failure' | 'unpinning';

export interface PinRow {
  id: number;
  accountId: number;
  cid: string;
  name: string;
  status: StoredPinStatus;
  size: number;
  createdAt: number;
  updatedAt: number;
  deadline: number | null;
  /** The PSA's `requestid`: a random UUID the store gives the pin, renewed when it is taken back from `unpinning`. */
  requestId: string;
  /** The PSA's `created`, in milliseconds: from `createdAt`, one later than the account's newest pin when that is not earlier. */
  createdMs: number;
}

/** What a PSA client told about a pin (`Pin.meta`, and the HTTP(S) multiaddrs of `Pin.origins`), kept with it. */
export interface PinHints {
  meta: Readonly<Record<string, string>>;
  origins: readonly string[];
}

export type PinWithHints = PinRow & PinHints;

/** How a name filter of the PSA matches (its `match`): whole or part of the name, with case or without. */
export type NameMatch = 'exact' | 'iexact' | 'partial' | 'ipartial';

/** The PSA's list filters; every part but the statuses is optional (null: no filter). */
export interface PinSearch {
  /** The pin statuses wanted; none: nothing matches. */
  statuses: readonly StoredPinStatus[];
  /** The stored spellings of the CIDs asked for: a pin matches any of them. */
  cids: readonly string[] | null;
  name: { text: string; match: NameMatch } | null;
  /** Every entry must be in the pin's meta, with that value. */
  meta: Readonly<Record<string, string>> | null;
  /** Only pins whose `createdMs` is below this ... */
  createdBeforeMs: number | null;
  /** ... and above this. */
  createdAfterMs: number | null;
}

export interface NewPin {
  accountId: number;
  cid: string;
  name: string;
  status: StoredPinStatus;
  size: number;
  createdAt: number;
  deadline: number | null;
}

/** What the pin list is narrowed to; every part is optional (null: no filter). */
export interface PinFilter {
  /** One status, or `active`: every pin but the unpinning ones (what the account keeps). */
  status: StoredPinStatus | 'active' | null;
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
  updatePinState(id: number, status: StoredPinStatus, size: number, deadline: number | null, now: number): Promise<void>;
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
  pinsWithStatus(status: StoredPinStatus): Promise<PinRow[]>;
  /** The CIDs GC must keep: every pin that is not being removed. */
  liveRootCids(): Promise<string[]>;
  /** The account's live pins (pinned or pinning): what folder rule 4 walks to find another pin reaching a root. */
  livePinsOf(accountId: number): Promise<PinRow[]>;
  /** The account's pin with this PSA `requestid`, with its hints (any status: the caller decides what is gone). */
  pinByRequestId(accountId: number, requestId: string): Promise<PinWithHints | null>;
  /** Gives the pin a new random `requestid` (a PSA replace of a pin by itself, a pin taken back from `unpinning`). */
  renewRequestId(id: number): Promise<void>;
  setPinMeta(id: number, meta: Readonly<Record<string, string>>): Promise<void>;
  setPinOrigins(id: number, origins: readonly string[]): Promise<void>;
  /** The HTTP(S) multiaddrs a PSA client gave as the pin's origins: extra sources for its fetch. */
  originsOf(id: number): Promise<string[]>;
  /** At most `limit` of the account's pins the search matches, newest first (by `createdMs`, then id), with their hints. */
  searchPins(accountId: number, search: PinSearch, limit: number): Promise<PinWithHints[]>;
  /** How many of the account's pins the search matches. */
  countPinSearch(accountId: number, search: PinSearch): Promise<number>;
}
