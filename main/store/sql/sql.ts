/**
 * SQL written once for both metadata engines: `sql\`SELECT … WHERE id = ${id}\`` keeps the text and the
 * values apart, and renders `?` placeholders for SQLite or `$1, $2, …` for PostgreSQL. What a value may be:
 * - a plain value: a parameter (never text: nothing a caller passes reaches the SQL itself);
 * - a {@link Token}: text that depends on the engine alone (a row lock, a collation, a function's name);
 * - a {@link DialectValue}: a parameter whose value depends on the engine (a negative LIMIT);
 * - an {@link Sql} or a {@link Fragment}: a piece of SQL with its own values, spliced in (a filter built
 *   from a request, or a construct each engine spells differently, see dialects.ts).
 *
 * A statement made of plain values and tokens is rendered once per engine and call site (the template's
 * strings are one object per site), so a hot path pays a map lookup and a look at its values, never string
 * work; SQLite then finds its prepared statement by that text. A statement with pieces is rendered each call.
 */

/**
 * The mark of a template's value that is not a parameter as it is. Plain objects with a mark, not classes: a
 * template is built per call on the hot paths, and under tsx (the benchmarks, `npm start`) every class is
 * given its name by defineProperty, after which V8 builds and tests instances of it tens of times slower.
 */
const PART = Symbol('pinfold sql part');

export interface Sql {
  readonly [PART]: 'sql';
  readonly strings: readonly string[];
  readonly parts: readonly unknown[];
}

/**
 * What differs between the engines' SQL, each difference named once: dialects.ts holds the two engines'
 * answers side by side, and the terms (ROW_LOCK, inList, …) that queries write in their place.
 */
export interface Dialect {
  readonly engine: 'sqlite' | 'postgres';
  /** Where this dialect's rendered texts are kept beside the others' (0, 1, 2: one per dialect object). */
  readonly slot: number;
  /** The placeholder of the n-th parameter (from 1). */
  placeholder(n: number): string;
  /** Ends a SELECT of a row that a transaction reads before it writes what depends on it. */
  readonly rowLock: string;
  /** Follows a text expression that is compared or ordered byte by byte. */
  readonly bytewise: string;
  /** The scalar function that answers the larger of its two arguments. */
  readonly greatest: string;
  /** The function `(haystack, needle)` that answers where needle starts in haystack (from 1), 0 when absent. */
  readonly position: string;
  /** The column that orders a table's rows as they were inserted (ties of a timestamp). */
  insertionOrder(table: InsertionOrdered): string;
  /** A LIMIT's value; a negative one is no limit. */
  limit(count: number): number | null;
  /** `expression` is one of `values`, one parameter however many values there are (one statement per shape). */
  inList(expression: Sql, values: readonly (string | number)[], type: 'text' | 'bigint'): Sql;
  /** `expression` is one of `values`, each value in sight of the planner (an index seeks by each). */
  inValues(expression: Sql, values: readonly (string | number)[], type: 'text' | 'bigint'): Sql;
  /** `expression` lower-cased by Unicode's rules, as JavaScript's toLowerCase. */
  unicodeLower(expression: Sql): Sql;
  /** `column`, a JSON object of strings as text, holds every entry of `wanted` (the same, as JSON text). */
  jsonIncludes(column: Sql, wanted: string): Sql;
}

/** The tables whose insertion order breaks ties in a listing. */
export type InsertionOrdered = 'access_keys' | 'sync_folders';

/** Text that each engine spells its own way and that no value changes. Keep it in a constant (see {@link raw}). */
export interface Token {
  readonly [PART]: 'token';
  readonly text: (dialect: Dialect) => string;
}

/** A parameter whose value each engine wants in its own form. */
export interface DialectValue {
  readonly [PART]: 'value';
  readonly value: (dialect: Dialect) => unknown;
}

/** A piece of SQL with values that each engine writes its own way (a list match, a JSON test). */
export interface Fragment {
  readonly [PART]: 'fragment';
  readonly build: (dialect: Dialect) => Sql;
}

type Part = Sql | Token | DialectValue | Fragment;

/** The value as a part of the template, or undefined for a parameter. */
function partOf(value: unknown): Part | undefined {
  return typeof value === 'object' && value !== null && (value as { [PART]?: unknown })[PART] !== undefined ? (value as Part) : undefined;
}

export function sql(strings: TemplateStringsArray | readonly string[], ...parts: unknown[]): Sql {
  return { [PART]: 'sql', strings, parts };
}

export function token(text: (dialect: Dialect) => string): Token {
  return { [PART]: 'token', text };
}

export function dialectValue(value: (dialect: Dialect) => unknown): DialectValue {
  return { [PART]: 'value', value };
}

export function fragment(build: (dialect: Dialect) => Sql): Fragment {
  return { [PART]: 'fragment', build };
}

/**
 * Trusted text (a column list, a table name written in the code), the same on both engines. Never a value.
 * Keep it in a constant: a statement is rendered once per call site only while its tokens stay the same.
 */
export function raw(text: string): Token {
  return token(() => text);
}

/** Pieces joined by `separator` (trusted text), e.g. the conditions of a filter. */
export function join(pieces: readonly Sql[], separator: string): Sql {
  if (pieces.length === 0) return sql``;
  return sql(['', ...pieces.slice(1).map(() => separator), ''], ...pieces);
}

/** A statement ready for a driver: its text and its parameters, in placeholder order. */
export interface Rendered {
  text: string;
  values: readonly unknown[];
}

interface Building {
  text: string;
  values: unknown[];
  /** Whether the text depends on the call site and the engine alone (no piece was spliced in). */
  fixed: boolean;
  tokens: Token[];
}

/** A call site's text on one engine, and the tokens it was rendered with (a later call must hold the same). */
interface Site {
  text: string;
  tokens: readonly Token[];
}

/** By call site (the template's strings), then by dialect slot. */
const sites = new WeakMap<readonly string[], (Site | undefined)[]>();

/** The text and values of `query` on `dialect`. */
export function render(query: Sql, dialect: Dialect): Rendered {
  const site = sites.get(query.strings)?.[dialect.slot];
  if (site !== undefined) {
    const values = valuesAt(site, query.parts, dialect);
    if (values !== null) return { text: site.text, values };
  }
  const out: Building = { text: '', values: [], fixed: true, tokens: [] };
  append(query, dialect, out);
  if (out.fixed) keep(query.strings, dialect.slot, { text: out.text, tokens: out.tokens });
  return { text: out.text, values: out.values };
}

function keep(strings: readonly string[], slot: number, site: Site): void {
  let kept = sites.get(strings);
  if (kept === undefined) {
    kept = [];
    sites.set(strings, kept);
  }
  kept[slot] = site;
}

/** The call's parameters when it fits the site rendered before (no piece, the same tokens); null when not. */
function valuesAt(site: Site, parts: readonly unknown[], dialect: Dialect): readonly unknown[] | null {
  if (site.tokens.length === 0) {
    for (let i = 0; i < parts.length; i++) if (partOf(parts[i]) !== undefined) return valuesWithParts(site, parts, dialect);
    return parts;
  }
  return valuesWithParts(site, parts, dialect);
}

function valuesWithParts(site: Site, parts: readonly unknown[], dialect: Dialect): unknown[] | null {
  const values: unknown[] = [];
  let tokens = 0;
  for (const value of parts) {
    const part = partOf(value);
    if (part === undefined) values.push(value);
    else if (part[PART] === 'token') {
      if (part !== site.tokens[tokens++]) return null;
    } else if (part[PART] === 'value') values.push(part.value(dialect));
    else return null;
  }
  return tokens === site.tokens.length ? values : null;
}

function append(query: Sql, dialect: Dialect, out: Building): void {
  const { strings, parts } = query;
  out.text += strings[0];
  for (let i = 0; i < parts.length; i++) {
    const part = partOf(parts[i]);
    if (part === undefined || part[PART] === 'value') {
      out.values.push(part === undefined ? parts[i] : part.value(dialect));
      out.text += dialect.placeholder(out.values.length);
    } else if (part[PART] === 'token') {
      out.text += part.text(dialect);
      out.tokens.push(part);
    } else {
      out.fixed = false;
      append(part[PART] === 'sql' ? part : part.build(dialect), dialect, out);
    }
    out.text += strings[i + 1];
  }
}
