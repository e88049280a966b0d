import { SQLITE } from '../sql/dialects.js';
import type { AnyQuery, InsertEach, Query, StatementQuery, Step, Steps } from '../sql/query.js';
import { render, type Sql } from '../sql/sql.js';
import { inTransaction, stmt, type Db } from './database.js';

/** A module of queries (store/queries) as SQLite functions `(db, ...args) => R`: synchronous, no promise. */
export type SqliteQueries<M> = {
  [K in keyof M as M[K] extends AnyQuery ? K : never]: M[K] extends Query<infer A, infer R> ? (db: Db, ...args: A) => R : never;
};

/**
 * The SQLite executor: each query's statements are prepared once per connection (stmt's cache, by their
 * text, which sql.ts renders once per call site) and run synchronously, so the store answers with settled
 * promises and `store.current` answers without one.
 */
export function onSqlite<M extends object>(queries: M): SqliteQueries<M> {
  const bound: Record<string, unknown> = {};
  for (const [name, query] of Object.entries(queries)) {
    if (isQuery(query)) bound[name] = bindQuery(query);
  }
  return bound as SqliteQueries<M>;
}

/** One function per query, chosen once: a hot path (a block's location, an access key) pays no dispatch per call. */
function bindQuery(query: AnyQuery): (db: Db, ...args: unknown[]) => unknown {
  if (query.kind === 'steps') return (db, ...args) => runQuery(db, query, args);
  const { build, finish } = query as StatementQuery<unknown[], unknown>;
  switch (query.kind) {
    case 'get':
      return (db, ...args) => {
        const { text, values } = render(build(...args), SQLITE);
        return finish(stmt(db, text).get(...values), args);
      };
    case 'all':
      return (db, ...args) => {
        const { text, values } = render(build(...args), SQLITE);
        return finish(stmt(db, text).all(...values), args);
      };
    case 'run':
      return (db, ...args) => {
        const { text, values } = render(build(...args), SQLITE);
        return finish(stmt(db, text).run(...values).changes, args);
      };
  }
}

function isQuery(value: unknown): value is AnyQuery {
  return typeof value === 'object' && value !== null && 'kind' in value && ('build' in value || 'body' in value);
}

function runQuery(db: Db, query: AnyQuery, args: readonly unknown[]): unknown {
  const typedArgs = args as never;
  if (query.kind === 'steps') {
    return query.atomic ? inTransaction(db, () => drive(db, query.body(...typedArgs))) : drive(db, query.body(...typedArgs));
  }
  return query.finish(runStatement(db, query.kind, query.build(...typedArgs)), typedArgs);
}

function runStatement(db: Db, kind: 'get' | 'all' | 'run', query: Sql): unknown {
  const { text, values } = render(query, SQLITE);
  const prepared = stmt(db, text);
  if (kind === 'get') return prepared.get(...values);
  if (kind === 'all') return prepared.all(...values);
  return prepared.run(...values).changes;
}

/** Runs a generator's steps one after another, each answered at once. */
function drive<R>(db: Db, body: Steps<R>): R {
  let next = body.next();
  while (!next.done) {
    let answer: unknown;
    try {
      answer = runStep(db, next.value);
    } catch (error) {
      next = body.throw(error);
      continue;
    }
    next = body.next(answer);
  }
  return next.value;
}

function runStep(db: Db, step: Step): unknown {
  switch (step.kind) {
    case 'lock':
      // One writer: the transaction already holds the whole database.
      return undefined;
    case 'call':
      return runQuery(db, step.query, step.args);
    case 'insertEach':
      return insertEach(db, step.insert);
    default:
      return runStatement(db, step.kind, step.sql);
  }
}

/** One cached single-row INSERT, run for each row: on SQLite nothing is faster. */
function insertEach(db: Db, insert: InsertEach): void {
  const placeholders = insert.columns.map(() => '?').join(', ');
  const prepared = stmt(db, `INSERT INTO ${insert.table} (${insert.columns.join(', ')}) VALUES (${placeholders}) ${insert.conflict}`);
  for (const values of insert.rows) prepared.run(...values);
}
