import {
  dialectValue,
  fragment,
  join,
  raw,
  sql,
  token,
  type Dialect,
  type DialectValue,
  type Fragment,
  type InsertionOrdered,
  type Sql,
  type Token,
} from './sql.js';

/**
 * Every difference between the two engines' SQL, side by side. A query writes the term (ROW_LOCK,
 * inList(…), …) where an engine's words differ; everything else it writes once, in the SQL both
 * understand (upserts as `INSERT … ON CONFLICT … DO UPDATE`, `RETURNING`, `COALESCE`, row values).
 * What is not SQL text stays with its engine: SQLite's read cache and single writer (store/db), PostgreSQL's
 * transactions side by side, bigint columns read as text (columns.ts's `int`) and row announcements (store/pg).
 */

/**
 * `pinfold_lower(text)`: lower case by Unicode's rules (SQLite's own lower() and LIKE fold ASCII only), so a
 * name search for "ünï" finds "Ünïcode". store/db registers it on every connection.
 */
export const SQLITE_LOWER_FUNCTION = 'pinfold_lower';

export const SQLITE: Dialect = {
  engine: 'sqlite',
  slot: 0,
  placeholder: () => '?',
  // One writer: a transaction (BEGIN IMMEDIATE) holds the whole database until it ends.
  rowLock: '',
  // Text compares by BINARY, byte by byte, unless a column says otherwise (none does).
  bytewise: '',
  greatest: 'max',
  position: 'instr',
  // Every table but WITHOUT ROWID ones has its insertion order in rowid.
  insertionOrder: () => 'rowid',
  limit: (count) => count,
  // One JSON parameter, so each shape of a query is one cached statement however many values it names.
  inList: (expression, values) => sql`${expression} IN (SELECT value FROM json_each(${JSON.stringify(values)}))`,
  // A placeholder a value: the planner seeks an index by each (a statement per length of list); behind a JSON
  // list it would rather scan in the order asked for and filter.
  inValues: (expression, values) =>
    sql`${expression} IN (${join(
      values.map((value) => sql`${value}`),
      ', ',
    )})`,
  unicodeLower: (expression) => sql`${raw(SQLITE_LOWER_FUNCTION)}(${expression})`,
  // No wanted entry that the object lacks (or holds with another value).
  jsonIncludes: (column, wanted) => sql`NOT EXISTS (SELECT 1 FROM json_each(${wanted}) AS wanted WHERE NOT EXISTS (
      SELECT 1 FROM json_each(${column}) AS entry WHERE entry.key = wanted.key AND entry.type = 'text' AND entry.value = wanted.value))`,
};

/** PostgreSQL on the pool: autocommit, each statement a transaction of its own. */
export const POSTGRES: Dialect = {
  engine: 'postgres',
  slot: 1,
  placeholder: (n) => `$${n}`,
  // Autocommit: a lone read, nothing to hold.
  rowLock: '',
  // The database's collation may be any; SQLite's BINARY order is "C".
  bytewise: ' COLLATE "C"',
  greatest: 'GREATEST',
  position: 'strpos',
  // SQLite's rowid, spelled as a column (the schema's identity columns).
  insertionOrder: (table) => POSTGRES_INSERTION_ORDER[table],
  // SQLite reads a negative LIMIT as none; PostgreSQL refuses it and reads NULL as none.
  limit: (count) => (count < 0 ? null : count),
  inList: (expression, values, type) => sql`${expression} = ANY(${[...values]}::${raw(type)}[])`,
  // The planner sees the array's values: one parameter is enough.
  inValues: (expression, values, type) => POSTGRES.inList(expression, values, type),
  // ICU's root collation lowers by Unicode's rules; a database made with the C (or any libc) locale lowers ASCII alone.
  unicodeLower: (expression) => sql`lower(${expression} COLLATE "und-x-icu")`,
  // Every value is a string, so containment is equality of each wanted entry.
  jsonIncludes: (column, wanted) => sql`${column}::jsonb @> ${wanted}::jsonb`,
};

const POSTGRES_INSERTION_ORDER: Record<InsertionOrdered, string> = { access_keys: 'seq', sync_folders: 'insert_order' };

/**
 * PostgreSQL on one transaction's client. Transactions run side by side here, so a row a transaction reads
 * before it writes what depends on it (a balance, a plan limit, a period) is locked until it ends: another
 * transaction that reads the same row waits, then reads what the first committed. NO KEY: the lock an
 * UPDATE of non-key columns takes, so inserts of rows that reference this one (their foreign-key checks) do
 * not wait.
 */
export const POSTGRES_IN_TRANSACTION: Dialect = { ...POSTGRES, slot: 2, rowLock: ' FOR NO KEY UPDATE' };

/** Ends a SELECT whose row a transaction reads before it writes what depends on it (see POSTGRES_IN_TRANSACTION). */
export const ROW_LOCK = token((dialect) => dialect.rowLock);
/** Follows a text expression compared or ordered byte by byte (path keys, CIDs in paging order). */
export const BYTEWISE = token((dialect) => dialect.bytewise);
/** The scalar larger-of-two function: `${GREATEST}(a, b)`. */
export const GREATEST = token((dialect) => dialect.greatest);
/** `${POSITION}(haystack, needle) > 0`: needle is in haystack, as it is (no LIKE, so % and _ are literal). */
export const POSITION = token((dialect) => dialect.position);

const INSERTION_ORDERS: Record<InsertionOrdered, Token> = {
  access_keys: token((dialect) => dialect.insertionOrder('access_keys')),
  sync_folders: token((dialect) => dialect.insertionOrder('sync_folders')),
};

/** The column that orders the table's rows as inserted. */
export function insertionOrder(table: InsertionOrdered): Token {
  return INSERTION_ORDERS[table];
}

/** A LIMIT's value where the caller may pass a negative one for no limit. */
export function limitOf(count: number): DialectValue {
  return dialectValue((dialect) => dialect.limit(count));
}

/** `expression` is one of `values`, each value in sight of the planner (see Dialect.inValues). */
export function inValues(expression: Sql, values: readonly (string | number)[], type: 'text' | 'bigint'): Fragment {
  return fragment((dialect) => dialect.inValues(expression, values, type));
}

/** `expression` is one of `values`, one statement however many (see Dialect.inList). */
export function inList(expression: Sql, values: readonly (string | number)[], type: 'text' | 'bigint'): Fragment {
  return fragment((dialect) => dialect.inList(expression, values, type));
}

/** `expression` lower-cased by Unicode's rules. */
export function unicodeLower(expression: Sql): Fragment {
  return fragment((dialect) => dialect.unicodeLower(expression));
}

/** `column` (a JSON object of strings) holds every entry of `wanted` (JSON text). */
export function jsonIncludes(column: Sql, wanted: string): Fragment {
  return fragment((dialect) => dialect.jsonIncludes(column, wanted));
}
