import type { AccountRow, AccountsRepository } from './accounts.js';
import type { BlockIndexRepository, BlockLocation } from './block-index.js';
import type { FoldersRepository } from './folders.js';
import type { AccessKeysRepository } from './keys.js';
import type { MetaRepository } from './meta.js';
import type { NamesRepository } from './names.js';
import type { PinsRepository } from './pins.js';
import type { SyncRepository } from './sync.js';
import type { UploadsRepository } from './uploads.js';
import type { UsageRepository, UsageRow } from './usage.js';

/**
 * The metadata store as the domains know it: one typed, asynchronous repository per domain's storage,
 * declared apart from any engine (Signal-Desktop's `ts/sql/Interface.ts` is the model). The embedded
 * engine is SQLite (`store/db/sqlite-store.ts`); a PostgreSQL one implements the same interfaces.
 *
 * Every method returns a promise, so an engine across a network fits; the SQLite one answers at once
 * (its promises are already settled) and keeps its cached statements and read cache.
 */
export interface Repositories {
  readonly accounts: AccountsRepository;
  readonly keys: AccessKeysRepository;
  readonly usage: UsageRepository;
  readonly uploads: UploadsRepository;
  readonly pins: PinsRepository;
  readonly names: NamesRepository;
  readonly folders: FoldersRepository;
  readonly sync: SyncRepository;
  readonly meta: MetaRepository;
  /** The block store's index alone: domains reach blocks through `store/blocks.ts`. */
  readonly blockIndex: BlockIndexRepository;
}

/**
 * The repositories inside one transaction: everything done through this handle commits together or not
 * at all. A function whose writes must land with its caller's takes a `Transaction`, so it cannot be
 * handed the autocommit {@link Store} by mistake. A transaction's work does only repository calls (no
 * file or network I/O): the engine holds its write lock until the work returns.
 */
export interface Transaction extends Repositories {
  readonly inTransaction: true;
}

/**
 * The rows a request reads on every call (its account, the account's usage), without an await when the
 * engine can vouch they are current: SQLite reads them on its connection through its read cache; an engine
 * across a network would answer from a cache it keeps coherent. `undefined`: not at hand (a transaction is
 * open, or not cached); the caller awaits the repository instead. The rows may be shared: never mutate them.
 */
export interface CurrentRows {
  account(id: number): AccountRow | null | undefined;
  usage(accountId: number): UsageRow | undefined;
  /**
   * Where a block is (null: not indexed), for the block store's reads and DAG walks: a walk of 100,000
   * blocks asks this 100,000 times, and an await each cost GC's mark a fifth of its time (test/bench/gc.ts).
   */
  blockLocation(multihash: Uint8Array): BlockLocation | null | undefined;
}

/** The autocommit handle: each call is its own transaction; `transaction` groups calls into one. */
export interface Store extends Repositories {
  readonly inTransaction: false;
  readonly current: CurrentRows;
  /**
   * Runs `work` in one transaction (writes serialized with every other transaction of this store);
   * commits when it resolves, rolls back when it throws, and passes on its result or error.
   */
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
}

export type {
  AccountsRepository,
  AccessKeysRepository,
  UsageRepository,
  UploadsRepository,
  PinsRepository,
  NamesRepository,
  FoldersRepository,
  SyncRepository,
  MetaRepository,
  BlockIndexRepository,
};
export { UniqueViolation, TransactionMisuse } from './store-errors.js';
