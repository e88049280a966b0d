import { QUERIES, type RepositoryQueries } from '../queries/index.js';
import { onPostgres, type PgQueries } from './pg-queries.js';

type OnPostgres = { [K in keyof RepositoryQueries]: PgQueries<RepositoryQueries[K]> };

/**
 * The queries of store/queries on PostgreSQL, by repository: functions `(q: Queryable, …) => Promise<R>`,
 * which pg-store.ts binds into the repository of that name; test/integration/repositories/ checks both
 * engines against the same cases.
 */
export const PG_QUERY_MODULES = Object.fromEntries(Object.entries(QUERIES).map(([name, queries]) => [name, onPostgres(queries)])) as OnPostgres;
