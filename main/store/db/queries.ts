import { QUERIES, type RepositoryQueries } from '../queries/index.js';
import type { Db } from './database.js';
import { cachedRead } from './read-cache.js';
import { onSqlite, type SqliteQueries } from './sqlite-queries.js';

type OnSqlite = { [K in keyof RepositoryQueries]: SqliteQueries<RepositoryQueries[K]> };

const bound = Object.fromEntries(Object.entries(QUERIES).map(([name, queries]) => [name, onSqlite(queries)])) as OnSqlite;

/**
 * The queries of store/queries on SQLite, by repository: synchronous functions `(db, ...args) => R`, which
 * sqlite-store.ts binds into the repositories. The rows every request reads (its account, the account's
 * usage) come from the read cache while the database is unchanged; the rows they answer may be shared
 * with other readers (see read-cache.ts): never mutate them.
 */
export const SQLITE_QUERIES: OnSqlite = {
  ...bound,
  accounts: { ...bound.accounts, accountById: (db: Db, id: number) => cachedRead(db, `account:${id}`, () => bound.accounts.accountById(db, id)) },
  usage: { ...bound.usage, usageOf: (db: Db, accountId: number) => cachedRead(db, `usage:${accountId}`, () => bound.usage.usageOf(db, accountId)) },
};
