import type { CurrentRows, Repositories, Store, Transaction } from '../repositories/index.js';
import { TransactionMisuse, UniqueViolation } from '../repositories/store-errors.js';
import type { Db } from './database.js';
import { SQLITE_QUERIES } from './queries.js';

type Query = (db: Db, ...args: never[]) => unknown;

/** A module of query functions `(db, ...args) => R` as repository methods `(...args) => Promise<R>`. */
type Bound<Q> = {
  [K in keyof Q as Q[K] extends Query ? K : never]: Q[K] extends (db: Db, ...args: infer A) => infer R ? (...args: A) => Promise<R> : never;
};

/** How a bound method runs its query: at once, or after the open transaction (autocommit while one is open). */
type Runner = (query: (db: Db, ...args: unknown[]) => unknown, args: unknown[]) => Promise<unknown>;

function bind<Q extends object>(queries: Q, run: Runner): Bound<Q> {
  const bound: Record<string, unknown> = {};
  for (const [name, query] of Object.entries(queries)) {
    if (typeof query === 'function') bound[name] = (...args: unknown[]) => run(query as (db: Db, ...args: unknown[]) => unknown, args);
  }
  return bound as Bound<Q>;
}

const { accounts, keys, usage, uploads, pins, names, folders, sync, meta, blockIndex } = SQLITE_QUERIES;

const REPOSITORY_BINDERS = {
  accounts: (run: Runner) => bind(accounts, run),
  keys: (run: Runner) => bind(keys, run),
  usage: (run: Runner) => bind(usage, run),
  uploads: (run: Runner) => bind(uploads, run),
  pins: (run: Runner) => bind(pins, run),
  names: (run: Runner) => bind(names, run),
  folders: (run: Runner) => bind(folders, run),
  sync: (run: Runner) => bind(sync, run),
  meta: (run: Runner) => bind(meta, run),
  blockIndex: (run: Runner) => bind(blockIndex, run),
} satisfies { [K in keyof Repositories]: (run: Runner) => Repositories[K] };

function repositories(run: Runner): Repositories {
  const all = {} as Record<keyof Repositories, unknown>;
  for (const name of Object.keys(REPOSITORY_BINDERS) as (keyof Repositories)[]) all[name] = REPOSITORY_BINDERS[name](run);
  return all as Repositories;
}

/**
 * A transaction's handle, its repositories bound when first used: a transaction touches two or three of
 * them, and binding all ten (a hundred closures) for each one cost more than its statements.
 */
class TransactionHandle implements Transaction {
  readonly inTransaction = true;
  #accounts: Repositories['accounts'] | undefined;
  #keys: Repositories['keys'] | undefined;
  #usage: Repositories['usage'] | undefined;
  #uploads: Repositories['uploads'] | undefined;
  #pins: Repositories['pins'] | undefined;
  #names: Repositories['names'] | undefined;
  #folders: Repositories['folders'] | undefined;
  #sync: Repositories['sync'] | undefined;
  #meta: Repositories['meta'] | undefined;
  #blockIndex: Repositories['blockIndex'] | undefined;

  constructor(private readonly run: Runner) {}

  get accounts(): Repositories['accounts'] {
    return (this.#accounts ??= REPOSITORY_BINDERS.accounts(this.run));
  }
  get keys(): Repositories['keys'] {
    return (this.#keys ??= REPOSITORY_BINDERS.keys(this.run));
  }
  get usage(): Repositories['usage'] {
    return (this.#usage ??= REPOSITORY_BINDERS.usage(this.run));
  }
  get uploads(): Repositories['uploads'] {
    return (this.#uploads ??= REPOSITORY_BINDERS.uploads(this.run));
  }
  get pins(): Repositories['pins'] {
    return (this.#pins ??= REPOSITORY_BINDERS.pins(this.run));
  }
  get names(): Repositories['names'] {
    return (this.#names ??= REPOSITORY_BINDERS.names(this.run));
  }
  get folders(): Repositories['folders'] {
    return (this.#folders ??= REPOSITORY_BINDERS.folders(this.run));
  }
  get sync(): Repositories['sync'] {
    return (this.#sync ??= REPOSITORY_BINDERS.sync(this.run));
  }
  get meta(): Repositories['meta'] {
    return (this.#meta ??= REPOSITORY_BINDERS.meta(this.run));
  }
  get blockIndex(): Repositories['blockIndex'] {
    return (this.#blockIndex ??= REPOSITORY_BINDERS.blockIndex(this.run));
  }
}

/** better-sqlite3 errors carry a stable `.code`; domains see {@link UniqueViolation} instead. */
function translate(error: unknown): Error {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return new UniqueViolation({ cause: error });
  return error instanceof Error ? error : new Error(String(error));
}

interface OpenTransaction {
  /** Settles when the transaction has committed or rolled back. */
  ended: Promise<void>;
}

/**
 * The repositories on one SQLite connection. The statements are synchronous, so every promise a method
 * returns is already settled; what makes this an engine like any other is the transaction: between the
 * awaits of a transaction's work other requests run, and they must neither see its uncommitted rows nor
 * write into it. So while a transaction is open, autocommit calls wait for it to end (they run in the
 * order they came), and transactions run one after another.
 *
 * A transaction's work must reach the database only through its handle: an autocommit call awaited inside
 * it would wait for the very transaction it belongs to.
 */
export function sqliteStore(db: Db): Store {
  // One store per connection: transactions are serialized per connection, so two stores on one would not be.
  let store = stores.get(db);
  if (!store) {
    store = createStore(db);
    stores.set(db, store);
  }
  return store;
}

const stores = new WeakMap<Db, Store>();

function createStore(db: Db): Store {
  let open: OpenTransaction | null = null;

  const runNow = (query: (db: Db, ...args: unknown[]) => unknown, args: unknown[]): Promise<unknown> => {
    try {
      return Promise.resolve(query(db, ...args));
    } catch (error) {
      return Promise.reject(translate(error));
    }
  };

  const autocommit: Runner = (query, args) => (open === null ? runNow(query, args) : afterTransactions(query, args));

  async function afterTransactions(query: (db: Db, ...args: unknown[]) => unknown, args: unknown[]): Promise<unknown> {
    while (open !== null) await open.ended;
    return runNow(query, args);
  }

  async function transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    while (open !== null) await open.ended;
    let end!: () => void;
    open = { ended: new Promise<void>((resolve) => (end = resolve)) };
    let live = true;
    const tx = new TransactionHandle((query, args) => (live ? runNow(query, args) : Promise.reject(new TransactionMisuse('this transaction has ended'))));
    try {
      db.exec('BEGIN IMMEDIATE');
      const result = await work(tx);
      db.exec('COMMIT');
      return result;
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw translate(error);
    } finally {
      live = false;
      open = null;
      end();
    }
  }

  const current: CurrentRows = {
    account: (id) => (open === null ? accounts.accountById(db, id) : undefined),
    usage: (accountId) => (open === null ? usage.usageOf(db, accountId) : undefined),
    blockLocation: (multihash) => (open === null ? (blockIndex.findBlock(db, multihash) ?? null) : undefined),
  };

  return { ...repositories(autocommit), inTransaction: false, current, transaction };
}
