import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../main/store/db/database.js';
import { onSqlite } from '../../main/store/db/sqlite-queries.js';
import { sqliteStore } from '../../main/store/db/sqlite-store.js';
import { onPostgres } from '../../main/store/pg/pg-queries.js';
import { openPostgresStore } from '../../main/store/pg/pg-store.js';
import type { Repositories, Store } from '../../main/store/repositories/index.js';
import type { Query } from '../../main/store/sql/query.js';
import { startPostgres, type PostgresServer } from './engines/postgres.js';
import { testPool } from './pg-test-pool.js';

/**
 * The metadata engines a repository conformance test runs on: SQLite (a temporary file, every migration)
 * and PostgreSQL (a real server for the test file, a fresh database for each test). The same cases run on
 * both: an engine that answers differently fails.
 */
export interface EngineDatabase {
  /** The repositories this engine implements so far (PostgreSQL grows domain by domain). */
  readonly repositories: Partial<Repositories>;
  /** The whole store of the engine (autocommit calls and transactions) on the same database. */
  readonly store: Store;
  /** Which engine this is, for the few cases whose answers differ by design (see each test). */
  readonly engine: 'sqlite' | 'postgres';
  /** Runs one query (store/sql/query.ts) through the engine's executor, autocommit, on the same database. */
  execute<A extends unknown[], R>(query: Query<A, R>, ...args: A): Promise<R>;
  close(): Promise<void>;
}

export interface RepositoryEngine {
  readonly name: 'sqlite' | 'postgres';
  /** Before the file's tests (the PostgreSQL server starts here). */
  start(): Promise<void>;
  open(): Promise<EngineDatabase>;
  stop(): Promise<void>;
}

function sqliteEngine(): RepositoryEngine {
  return {
    name: 'sqlite',
    async start() {},
    async open() {
      const dir = await mkdtemp(join(tmpdir(), 'pinfold-repos-'));
      const db = openDatabase(join(dir, 'pinfold.db'));
      return {
        repositories: sqliteStore(db),
        store: sqliteStore(db),
        engine: 'sqlite',
        execute: async (query, ...args) => onSqlite({ query }).query(db, ...args),
        async close() {
          db.close();
          await rm(dir, { recursive: true, force: true });
        },
      };
    },
    async stop() {},
  };
}

function postgresEngine(): RepositoryEngine {
  let server: PostgresServer | undefined;
  let databases = 0;
  return {
    name: 'postgres',
    async start() {
      server = await startPostgres();
    },
    async open() {
      if (!server) throw new Error('the PostgreSQL engine was not started');
      const url = await server.createDatabase(`repos_${++databases}`);
      const store = await openPostgresStore(url, { maxConnections: 4 });
      const direct = testPool(url);
      return {
        repositories: store,
        store,
        engine: 'postgres',
        execute: (query, ...args) => onPostgres({ query }).query(direct.pool, ...args),
        // Resolves once every socket has closed: stopping the server afterwards ends no live session.
        close: async () => {
          await direct.close();
          await store.close();
        },
      };
    },
    async stop() {
      await server?.stop();
    },
  };
}

export const REPOSITORY_ENGINES: readonly (() => RepositoryEngine)[] = [sqliteEngine, postgresEngine];

/** The repository `name` of `database`, failing the test when its engine has none yet. */
export function repository<K extends keyof Repositories>(database: EngineDatabase, name: K): Repositories[K] {
  const found = database.repositories[name];
  if (found === undefined) throw new Error(`the ${database.engine} engine has no ${name} repository yet`);
  return found;
}
