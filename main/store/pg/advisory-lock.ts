import type pg from 'pg';
import type { LockHold, ReadWriteLock } from '../../base/lock.js';

/** Advisory lock keys of the instances (int8, distinct from the migration lock's 'pinfold'). */
export const GC_LOCK_KEY = '8097880343609476';
export const GC_LEADER_KEY = '8097880343609477';
/** Held while an instance judges its master key against the database's sealed check (and writes it, first). */
export const SETUP_LOCK_KEY = '8097880343609478';

/**
 * A {@link ReadWriteLock} across every instance on one database: a shared hold is
 * `pg_advisory_lock_shared`, an exclusive one `pg_advisory_lock`, each on a session of `pool` for as long
 * as the holder's work runs. `pool` is the lock's own (small) pool, never the one the work queries on: a
 * hold keeps its session busy while the work runs, so holds waiting on a shared pool could take every
 * connection the holders need to finish. PostgreSQL queues a shared request behind a waiting exclusive
 * one, so a GC is not starved by a stream of pin writes on other instances.
 *
 * If the session dies mid-hold, PostgreSQL drops the lock with it; the holder cannot be told, so the lock
 * is as good as the connection (on loopback or a LAN, a dead session means a dead database anyway).
 */
export function advisoryReadWriteLock(pool: pg.Pool, key: string): ReadWriteLock {
  const lock: ReadWriteLock = { shared: (fn) => run(false, fn), exclusive: (fn) => run(true, fn) };
  async function run<T>(exclusive: boolean, fn: (hold: LockHold) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      await client.query(exclusive ? 'SELECT pg_advisory_lock($1)' : 'SELECT pg_advisory_lock_shared($1)', [key]);
    } catch (error) {
      client.release(error instanceof Error ? error : true);
      throw error;
    }
    const hold = { lock, exclusive, active: true };
    try {
      return await fn(hold);
    } finally {
      hold.active = false;
      try {
        await client.query(exclusive ? 'SELECT pg_advisory_unlock($1)' : 'SELECT pg_advisory_unlock_shared($1)', [key]);
        client.release();
      } catch (error) {
        // Not unlocked: end the session, and the lock with it, rather than hand a locked session back to the pool.
        client.release(error instanceof Error ? error : true);
      }
    }
  }
  return lock;
}
