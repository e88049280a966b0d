import pg from 'pg';
import type { Repositories, Store, Transaction } from '../repositories/index.js';
import type { UsageColumn } from '../repositories/usage.js';
import { RowCache, type CachedKind } from './row-cache.js';
import { TransactionMisuse } from '../repositories/store-errors.js';
import { bindPg, runOn, translatePgError, type PgRunner } from './bind.js';
import { migratePostgres } from './migrate.js';
import { PG_MIGRATIONS } from './migrations/index.js';
import { PG_QUERY_MODULES } from './modules.js';

/** The PostgreSQL store and the end of its connections (resolves once every socket has closed). */
export interface PostgresStore extends Store {
  /** A row another instance (or any SQL) changed, as the database announced it (migration 3): drop our copy. */
  rowChanged(kind: CachedKind, id: number): void;
  /** Announcements may have been missed (the listening session was lost): drop every copy. */
  rowsMissed(): void;
  close(): Promise<void>;
}

export interface PostgresStoreOptions {
  /** Connections this process opens at most (default 10). */
  maxConnections?: number;
  /** The longest an account or usage row is answered from memory (default 2 s; see row-cache.ts). */
  rowCacheMs?: number;
}

const DEFAULT_ROW_CACHE_MS = 2_000;

/**
 * The repositories with the row cache in the loop: each write of an account or usage row calls `wrote`
 * (the caller drops the copy once the write has committed); with `fill`, reads of them through this
 * handle keep what they read (only autocommit reads: a transaction may read its own uncommitted writes).
 */
function withRowCache(repos: Repositories, rows: RowCache, wrote: (kind: CachedKind, id: number) => void, fill: boolean): Repositories {
  const after =
    <A extends unknown[]>(kind: CachedKind, write: (id: number, ...rest: A) => Promise<void>) =>
    async (id: number, ...rest: A): Promise<void> => {
      try {
        await write(id, ...rest);
      } finally {
        wrote(kind, id);
      }
    };
  const accounts: Repositories['accounts'] = {
    ...repos.accounts,
    setPartnerFlag: after('account', (id, isPartner: boolean) => repos.accounts.setPartnerFlag(id, isPartner)),
    setPlan: after('account', (id, planId: number) => repos.accounts.setPlan(id, planId)),
    setBalance: after('account', (id, balanceCents: number) => repos.accounts.setBalance(id, balanceCents)),
  };
  const usage: Repositories['usage'] = {
    ...repos.usage,
    addUsage: after('usage', (id, column: UsageColumn, amount: number) => repos.usage.addUsage(id, column, amount)),
    resetPeriod: after('usage', (id, periodStart: number) => repos.usage.resetPeriod(id, periodStart)),
  };
  if (fill) {
    accounts.accountById = async (id) => {
      const generation = rows.generation('account', id);
      const row = await repos.accounts.accountById(id);
      rows.keepAccount(id, generation, row);
      return row;
    };
    usage.usageOf = async (accountId) => {
      const generation = rows.generation('usage', accountId);
      const row = await repos.usage.usageOf(accountId);
      rows.keepUsage(accountId, generation, row);
      return row;
    };
  }
  return { ...repos, accounts, usage };
}

function repositories(run: PgRunner): Repositories {
  const modules = PG_QUERY_MODULES;
  return {
    accounts: bindPg(modules.accounts, run),
    keys: bindPg(modules.keys, run),
    usage: bindPg(modules.usage, run),
    uploads: bindPg(modules.uploads, run),
    pins: bindPg(modules.pins, run),
    names: bindPg(modules.names, run),
    folders: bindPg(modules.folders, run),
    sync: bindPg(modules.sync, run),
    meta: bindPg(modules.meta, run),
    blockIndex: bindPg(modules.blockIndex, run),
  };
}

/**
 * The repositories on PostgreSQL (issue 16's scale-out metadata): the database is brought to the newest
 * schema first (once, under an advisory lock, whichever instance comes first). Autocommit calls run on the
 * pool; a transaction runs on one client, READ COMMITTED, with the query functions' row locks making each
 * read-then-write exact against other instances. Unlike SQLite's, transactions run side by side.
 */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
  const pool = new pg.Pool({ connectionString: url, max: options.maxConnections ?? 10 });
  const ended: Promise<void>[] = [];
  pool.on('connect', (client) => ended.push(new Promise((resolve) => client.once('end', () => resolve()))));
  // An idle client whose server went away errors on the pool: the next query reconnects.
  pool.on('error', () => undefined);
  try {
    await migratePostgres(pool, PG_MIGRATIONS);
  } catch (error) {
    await pool.end();
    throw error;
  }

  const rows = new RowCache(options.rowCacheMs ?? DEFAULT_ROW_CACHE_MS);

  async function transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    // Rows this transaction wrote: their copies go once it has ended (committed or not), before its caller goes on.
    const written: Array<[CachedKind, number]> = [];
    let live = true;
    const run = runOn(client);
    // One call at a time on the client: a query function may send several statements (a savepoint and
    // its release), which must not interleave with another's; the driver would only queue single queries.
    let previous: Promise<unknown> = Promise.resolve();
    const serially: PgRunner = (query, args) => {
      const next = previous.then(async () => run(query, args));
      previous = next.catch(() => undefined);
      return next;
    };
    const tx: Transaction = {
      ...withRowCache(
        repositories((query, args) => (live ? serially(query, args) : Promise.reject(new TransactionMisuse('this transaction has ended')))),
        rows,
        (kind, id) => written.push([kind, id]),
        false,
      ),
      inTransaction: true,
    };
    try {
      await client.query('BEGIN');
      const result = await work(tx);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw translatePgError(error);
    } finally {
      live = false;
      for (const [kind, id] of written) rows.drop(kind, id);
      client.release();
    }
  }

  return {
    ...withRowCache(repositories(runOn(pool)), rows, (kind, id) => rows.drop(kind, id), true),
    inTransaction: false,
    current: rows,
    transaction,
    rowChanged: (kind, id) => rows.drop(kind, id),
    rowsMissed: () => rows.dropAll(),
    async close() {
      await pool.end();
      await Promise.all(ended);
    },
  };
}
