import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../main/store/db/database.js';
import { sqliteStore } from '../../main/store/db/sqlite-store.js';
import { openPostgresStore } from '../../main/store/pg/pg-store.js';
import type { Repositories, Store } from '../../main/store/repositories/index.js';
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
  /** Plain SQL on the database, to set up what no repository writes (the SQLite or PostgreSQL dialect). */
  readonly engine: 'sqlite' | 'postgres';
  /** Runs one statement of this engine's dialect (`?` on SQLite, `$1..$n` on PostgreSQL): set-up only. */
  execute(sql: string, params?: readonly unknown[]): Promise<void>;
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
        async execute(sql, params = []) {
          db.prepare(sql).run(...params);
        },
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
      // Set-up SQL on a pool of its own; both close before the server stops (testPool waits for the sockets).
      const { pool, close } = testPool(url);
      return {
        repositories: store,
        store,
        engine: 'postgres',
        async execute(sql, params = []) {
          await pool.query(sql, [...params]);
        },
        async close() {
          await close();
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

let accountRows = 0;

/**
 * Inserts an account row with plain SQL (for domains whose tests need an account before the accounts
 * repository exists on every engine) and answers its id: the same statement in each engine's dialect.
 */
export async function insertAccountRow(database: EngineDatabase, id: number): Promise<number> {
  const uuid = `account-${id}-${++accountRows}`;
  const params = [id, uuid, `Account ${id}`, `a${id}@example.com`, 'test', 1, 1, 0];
  await database.execute(
    database.engine === 'sqlite'
      ? 'INSERT INTO accounts (id, uuid, name, email, provider, plan_id, next_plan_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'
      : 'INSERT INTO accounts (id, uuid, name, email, provider, plan_id, next_plan_id, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
    params,
  );
  // An explicit id leaves PostgreSQL's identity sequence behind: move it on, so later rows (the accounts
  // repository's) take ids after it, as SQLite's INTEGER PRIMARY KEY does.
  if (database.engine === 'postgres') await database.execute("SELECT setval(pg_get_serial_sequence('accounts', 'id'), (SELECT MAX(id) FROM accounts))");
  return id;
}
