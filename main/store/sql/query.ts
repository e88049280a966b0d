import type { Sql } from './sql.js';

/**
 * A repository method written once for both engines, as data the engines run: store/db runs it on
 * better-sqlite3's cached statements, synchronously (so `store.current` and the hot paths never await);
 * store/pg runs it on `pg`, asynchronously. Most methods are one statement and a mapper ({@link queryRow},
 * {@link queryRows}, {@link statement}); a method of several statements is a generator of steps
 * ({@link steps}), which SQLite drives without a promise and PostgreSQL with one per statement.
 */
export type Query<A extends unknown[], R> = StatementQuery<A, R> | StepsQuery<A, R>;

/** Any query, for the engines' binders: the arguments are checked where the bound method is typed. */
export type AnyQuery = Query<never, unknown>;

export interface StatementQuery<A extends unknown[], R> {
  /** get: the first row (or undefined); all: every row; run: how many rows it changed. */
  readonly kind: 'get' | 'all' | 'run';
  readonly build: (...args: A) => Sql;
  /** The method's answer from the driver's (the row, the rows or the count above). */
  readonly finish: (result: unknown, args: A) => R;
}

export interface StepsQuery<A extends unknown[], R> {
  readonly kind: 'steps';
  /** All steps commit together or none does (a savepoint inside a transaction, else a transaction of their own). */
  readonly atomic: boolean;
  readonly body: (...args: A) => Steps<R>;
}

/** What a step asks of the engine running it. */
export type Step =
  | { readonly kind: 'get' | 'all' | 'run'; readonly sql: Sql }
  /** A row a transaction reads before it writes what depends on it: PostgreSQL locks it; SQLite's one writer holds all. */
  | { readonly kind: 'lock'; readonly sql: Sql }
  | { readonly kind: 'call'; readonly query: AnyQuery; readonly args: readonly unknown[] }
  | { readonly kind: 'insertEach'; readonly insert: InsertEach };

/**
 * Rows inserted by one statement a row on SQLite (cached, the fastest there) and by one statement for all of
 * them on PostgreSQL (one round trip). Table, columns and conflict clause are trusted text of the code.
 */
export interface InsertEach {
  readonly table: string;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly unknown[])[];
  /** `ON CONFLICT …`, or ''. With DO UPDATE, no two rows may share the conflict key (PostgreSQL refuses it). */
  readonly conflict: string;
}

export type Steps<R> = Generator<Step, R, unknown>;

/** One statement; `map` reads its first row (undefined: none). */
export function queryRow<A extends unknown[], Raw, R>(build: (...args: A) => Sql, map: (raw: Raw | undefined, args: A) => R): StatementQuery<A, R> {
  return { kind: 'get', build, finish: (result, args) => map(result as Raw | undefined, args) };
}

/** One statement; `map` reads each of its rows. */
export function queryRows<A extends unknown[], Raw, R>(build: (...args: A) => Sql, map: (raw: Raw) => R): StatementQuery<A, R[]> {
  return { kind: 'all', build, finish: (result) => (result as Raw[]).map((raw) => map(raw)) };
}

/** One statement that writes; `map` reads how many rows it changed (none: the method answers nothing). */
export function statement<A extends unknown[]>(build: (...args: A) => Sql): StatementQuery<A, void>;
export function statement<A extends unknown[], R>(build: (...args: A) => Sql, map: (changes: number, args: A) => R): StatementQuery<A, R>;
export function statement<A extends unknown[], R>(build: (...args: A) => Sql, map?: (changes: number, args: A) => R): StatementQuery<A, R | undefined> {
  return { kind: 'run', build, finish: (result, args) => map?.(result as number, args) };
}

/** Several statements, as a generator that yields each step (`yield* row(sql…)`) and returns the answer. */
export function steps<A extends unknown[], R>(body: (...args: A) => Steps<R>, options: { atomic: boolean }): StepsQuery<A, R> {
  return { kind: 'steps', atomic: options.atomic, body };
}

/** The first row of a statement, or undefined. */
export function* row<T>(query: Sql): Steps<T | undefined> {
  return (yield { kind: 'get', sql: query }) as T | undefined;
}

/** Every row of a statement. */
export function* rows<T>(query: Sql): Steps<T[]> {
  return (yield { kind: 'all', sql: query }) as T[];
}

/** Runs a statement; answers how many rows it changed. */
export function* exec(query: Sql): Steps<number> {
  return (yield { kind: 'run', sql: query }) as number;
}

/** Another query, on the same connection (inside the same transaction). */
export function* call<A extends unknown[], R>(query: Query<A, R>, ...args: A): Steps<R> {
  return (yield { kind: 'call', query: query as unknown as AnyQuery, args }) as R;
}

/** Locks the row a SELECT reads until the transaction ends (PostgreSQL); nothing on SQLite. */
export function* lockRow(query: Sql): Steps<void> {
  yield { kind: 'lock', sql: query };
}

export function* insertEach(insert: InsertEach): Steps<void> {
  if (insert.rows.length > 0) yield { kind: 'insertEach', insert };
}
