import pg from 'pg';
import type { CurrentRows, Repositories, Store, Transaction } from '../repositories/index.js';
import { TransactionMisuse } from '../repositories/store-errors.js';
import { bindPg, runOn, translatePgError, type PgRunner } from './bind.js';
import { migratePostgres } from './migrate.js';
import { PG_MIGRATIONS } from './migrations/index.js';
import { PG_QUERY_MODULES } from './modules.js';

/** The PostgreSQL store and the end of its connections (resolves once every socket has closed). */
export interface PostgresStore extends Store {
  close(): Promise<void>;
}

export interface PostgresStoreOptions {
  /** Connections this process opens at most (default 10). */
  maxConnections?: number;
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
 * Nothing is answered from memory yet: with several instances writing, a cached row would need a
 * coherence rule (LISTEN/NOTIFY or a short TTL) before it may be served; until then every read awaits.
 */
const NOTHING_AT_HAND: CurrentRows = { account: () => undefined, usage: () => undefined, blockLocation: () => undefined };

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

  async function transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const client = await pool.connect();
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
      ...repositories((query, args) => (live ? serially(query, args) : Promise.reject(new TransactionMisuse('this transaction has ended')))),
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
      client.release();
    }
  }

  return {
    ...repositories(runOn(pool)),
    inTransaction: false,
    current: NOTHING_AT_HAND,
    transaction,
    async close() {
      await pool.end();
      await Promise.all(ended);
    },
  };
}
