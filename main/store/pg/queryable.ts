import type pg from 'pg';

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
