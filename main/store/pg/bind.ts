import { UniqueViolation } from '../repositories/store-errors.js';
import type { Queryable } from './queryable.js';

type PgQuery = (q: Queryable, ...args: never[]) => Promise<unknown>;

/** A module of PostgreSQL query functions `(q, ...args) => Promise<R>` as repository methods `(...args) => Promise<R>`. */
export type PgBound<Q> = {
  [K in keyof Q as Q[K] extends PgQuery ? K : never]: Q[K] extends (q: Queryable, ...args: infer A) => Promise<infer R> ? (...args: A) => Promise<R> : never;
};

/** Where a bound method runs its query: the pool (autocommit) or a transaction's client. */
export type PgRunner = (query: (q: Queryable, ...args: unknown[]) => Promise<unknown>, args: unknown[]) => Promise<unknown>;

export function bindPg<Q extends object>(queries: Q, run: PgRunner): PgBound<Q> {
  const bound: Record<string, unknown> = {};
  for (const [name, query] of Object.entries(queries)) {
    if (typeof query === 'function') bound[name] = (...args: unknown[]) => run(query as (q: Queryable, ...args: unknown[]) => Promise<unknown>, args);
  }
  return bound as PgBound<Q>;
}

/** SQLSTATE 23505 is a unique violation; domains see {@link UniqueViolation}, never driver codes. */
export function translatePgError(error: unknown): Error {
  if ((error as { code?: unknown } | null)?.code === '23505') return new UniqueViolation({ cause: error });
  return error instanceof Error ? error : new Error(String(error));
}

/** Runs each query on `q` (the pool: autocommit), with the store's errors. */
export function runOn(q: Queryable): PgRunner {
  return async (query, args) => {
    try {
      return await query(q, ...args);
    } catch (error) {
      throw translatePgError(error);
    }
  };
}
