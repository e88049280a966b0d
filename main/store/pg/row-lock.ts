import pg from 'pg';
import type { Queryable } from './queryable.js';

/**
 * The lock clause for a row a transaction reads before it writes what depends on it: '' on the pool
 * (autocommit: a lone read, nothing to hold), ' FOR NO KEY UPDATE' on a transaction's client. The domains
 * read a row, decide (a plan limit, a balance, a period), then write, on one transaction; SQLite's single
 * writer made that one step, and across instances the row lock does: another transaction that reads the
 * same row waits for this one to end, then reads what it committed. NO KEY: the lock an UPDATE of non-key
 * columns takes, so inserts of rows that reference this one (their foreign-key checks) do not wait.
 */
export function lockInTransaction(q: Queryable): string {
  return q instanceof pg.Pool ? '' : ' FOR NO KEY UPDATE';
}
