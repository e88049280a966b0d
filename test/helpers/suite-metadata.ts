import { join } from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../main/store/db/database.js';
import { sqliteStore } from '../../main/store/db/sqlite-store.js';
import { openPostgresStore } from '../../main/store/pg/pg-store.js';
import type { Store } from '../../main/store/repositories/index.js';
import { suiteDatabase } from './suite-database.js';

/**
 * A test's look at (or hand in) the metadata beside its running server, on whichever engine the suite
 * runs (suite-database.ts): the data folder's SQLite file, or the PostgreSQL database kept for that folder.
 */

/**
 * Runs `work` on the repositories of the server's metadata (a store of its own, closed after); `write`
 * opens SQLite for writing too (a reader beside the server by default).
 */
export async function withServerStore<T>(server: { dataDir: string }, work: (store: Store) => Promise<T>, mode: 'read' | 'write' = 'read'): Promise<T> {
  const { database } = await suiteDatabase(server.dataDir);
  if (database !== undefined) {
    const store = await openPostgresStore(database.url, { maxConnections: 1 });
    try {
      return await work(store);
    } finally {
      await store.close();
    }
  }
  const db = openDatabase(join(server.dataDir, 'pinfold.db'), { readonly: mode === 'read' });
  try {
    return await work(sqliteStore(db));
  } finally {
    db.close();
  }
}

/** SQL each engine understands in its own words, where the two differ (triggers, for one). */
export interface EngineSql {
  sqlite: string;
  postgres: string;
}

/**
 * Runs SQL on the server's metadata and answers its rows (none for a statement). One text serves both
 * engines when it is plain SQL without parameters; counts come back as numbers on both (PostgreSQL's
 * count(*) is a BIGINT, which the driver answers as text: cast it, `count(*)::int` is not SQLite).
 */
export async function serverSql<Row extends object = Record<string, unknown>>(server: { dataDir: string }, sql: string | EngineSql): Promise<Row[]> {
  const { database } = await suiteDatabase(server.dataDir);
  if (database !== undefined) {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      // Several statements in one text (a trigger and its function) answer one result each: the last counts.
      const result: pg.QueryResult<Row> | Array<pg.QueryResult<Row>> = await client.query<Row>(typeof sql === 'string' ? sql : sql.postgres);
      return ([] as Array<pg.QueryResult<Row>>).concat(result).at(-1)?.rows ?? [];
    } finally {
      await client.end();
    }
  }
  const db = openDatabase(join(server.dataDir, 'pinfold.db'));
  try {
    const statement = db.prepare(typeof sql === 'string' ? sql : sql.sqlite);
    if (statement.reader) return statement.all() as Row[];
    statement.run();
    return [];
  } finally {
    db.close();
  }
}

/** The single number a `SELECT <aggregate> AS n` answers, on either engine (null when it is NULL). */
export async function serverNumber(server: { dataDir: string }, sql: string): Promise<number | null> {
  const [row] = await serverSql<{ n: number | string | null }>(server, sql);
  return row?.n === null || row?.n === undefined ? null : Number(row.n);
}
