import pg from 'pg';

/**
 * What a PostgreSQL query function runs its SQL on: the pool (autocommit: each statement its own
 * transaction) or one transaction's client. Query functions take it first, as the SQLite ones take `db`.
 */
export type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

/** The rows of one statement, typed by the caller (the query function that wrote the SQL). */
export async function rows<T extends object>(q: Queryable, sql: string, params: readonly unknown[] = []): Promise<T[]> {
  const result = await q.query<T>(sql, [...params]);
  return result.rows;
}

/** The first row of one statement, or null. */
export async function row<T extends object>(q: Queryable, sql: string, params: readonly unknown[] = []): Promise<T | null> {
  return (await rows<T>(q, sql, params))[0] ?? null;
}

/** How many rows a statement changed. */
export async function changed(q: Queryable, sql: string, params: readonly unknown[] = []): Promise<number> {
  const result = await q.query(sql, [...params]);
  return result.rowCount ?? 0;
}

/**
 * A BIGINT (int8) column: pg answers it as text, since it may pass 2^53. Pinfold's counters (bytes, ids,
 * times) stay below 2^53; a value past it is refused rather than rounded.
 */
export function int(value: string | number): number {
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(number)) throw new Error(`a stored integer is past 2^53: ${String(value)}`);
  return number;
}

/**
 * Runs `work` atomically on `q`: on the pool, in a transaction of its own on one client; on a client
 * (already in the caller's transaction), under a savepoint, so that a failure undoes `work` alone, as
 * SQLite's nested transactions do. For the few query functions that write several statements as one.
 */
export async function atomically<T>(q: Queryable, work: (client: Queryable) => Promise<T>): Promise<T> {
  if (q instanceof pg.Pool) {
    const client = await q.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
  await q.query('SAVEPOINT pinfold_atomically');
  try {
    const result = await work(q);
    await q.query('RELEASE SAVEPOINT pinfold_atomically');
    return result;
  } catch (error) {
    await q.query('ROLLBACK TO SAVEPOINT pinfold_atomically').catch(() => undefined);
    throw error;
  }
}
