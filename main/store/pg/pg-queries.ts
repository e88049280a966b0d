import pg from 'pg';
import { POSTGRES, POSTGRES_IN_TRANSACTION, ROW_LOCK } from '../sql/dialects.js';
import type { AnyQuery, InsertEach, Query, Step, Steps } from '../sql/query.js';
import { render, sql, type Sql } from '../sql/sql.js';
import { atomically, type Queryable } from './queryable.js';

/** A module of queries (store/queries) as PostgreSQL functions `(q, ...args) => Promise<R>`. */
export type PgQueries<M> = {
  [K in keyof M as M[K] extends AnyQuery ? K : never]: M[K] extends Query<infer A, infer R> ? (q: Queryable, ...args: A) => Promise<R> : never;
};

/**
 * The PostgreSQL executor: each statement is one round trip on `q`, the pool (autocommit) or a transaction's
 * client, whose rows a transaction reads before writing are locked (dialects.ts's POSTGRES_IN_TRANSACTION).
 */
export function onPostgres<M extends object>(queries: M): PgQueries<M> {
  const bound: Record<string, unknown> = {};
  for (const [name, query] of Object.entries(queries)) {
    if (isQuery(query)) bound[name] = (q: Queryable, ...args: unknown[]) => runQuery(q, query, args);
  }
  return bound as PgQueries<M>;
}

function isQuery(value: unknown): value is AnyQuery {
  return typeof value === 'object' && value !== null && 'kind' in value && ('build' in value || 'body' in value);
}

async function runQuery(q: Queryable, query: AnyQuery, args: readonly unknown[]): Promise<unknown> {
  const typedArgs = args as never;
  if (query.kind === 'steps') {
    return query.atomic ? atomically(q, async (client) => drive(client, query.body(...typedArgs))) : drive(q, query.body(...typedArgs));
  }
  return query.finish(await runStatement(q, query.kind, query.build(...typedArgs)), typedArgs);
}

async function runStatement(q: Queryable, kind: 'get' | 'all' | 'run', query: Sql): Promise<unknown> {
  const { text, values } = render(query, q instanceof pg.Pool ? POSTGRES : POSTGRES_IN_TRANSACTION);
  const result = await q.query<Record<string, unknown>>(text, values as unknown[]);
  if (kind === 'get') return result.rows[0];
  if (kind === 'all') return result.rows;
  return result.rowCount ?? 0;
}

/** Runs a generator's steps one after another, each awaited. */
async function drive<R>(q: Queryable, body: Steps<R>): Promise<R> {
  let next = body.next();
  while (!next.done) {
    let answer: unknown;
    try {
      answer = await runStep(q, next.value);
    } catch (error) {
      next = body.throw(error);
      continue;
    }
    next = body.next(answer);
  }
  return next.value;
}

async function runStep(q: Queryable, step: Step): Promise<unknown> {
  switch (step.kind) {
    case 'lock':
      return runStatement(q, 'get', sql`${step.sql}${ROW_LOCK}`);
    case 'call':
      return runQuery(q, step.query, step.args);
    case 'insertEach':
      return insertEach(q, step.insert);
    default:
      return runStatement(q, step.kind, step.sql);
  }
}

/**
 * Every row in one statement: the rows as one JSON parameter, read into the table's own row type (so each
 * value takes its column's type, no casts to write), in the order given.
 */
async function insertEach(q: Queryable, insert: InsertEach): Promise<void> {
  const columns = insert.columns.join(', ');
  const records = insert.rows.map((values) => Object.fromEntries(insert.columns.map((column, i) => [column, jsonValue(values[i])])));
  await q.query(`INSERT INTO ${insert.table} (${columns}) SELECT ${columns} FROM json_populate_recordset(NULL::${insert.table}, $1) ${insert.conflict}`, [
    JSON.stringify(records),
  ]);
}

/** Bytes as bytea's hex input; everything else as JSON has it. */
function jsonValue(value: unknown): unknown {
  return value instanceof Uint8Array ? `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}` : value;
}
