import pg from 'pg';

/**
 * What the PostgreSQL executor (pg-queries.ts) runs a query on: the pool (autocommit: each statement its own
 * transaction) or one transaction's client. The bound queries take it first, as the SQLite ones take `db`.
 */
export type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

/**
 * Runs `work` atomically on `q`: on the pool, in a transaction of its own on one client; on a client
 * (already in the caller's transaction), under a savepoint, so that a failure undoes `work` alone, as
 * SQLite's nested transactions do. For the atomic queries of several statements (sql/query.ts's steps).
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
