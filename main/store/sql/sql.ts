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
 * strings are one object per site), so a hot path pays a map lookup, never string work; SQLite then finds
 * its prepared statement by that text. A statement with pieces is rendered on each call.
 */
export class Sql {
  /** Only plain values: the template's values are the parameters, as they are. */
  readonly plain: boolean;
  /** No pieces (tokens and dialect values allowed): the text depends on the engine and the call site alone. */
  readonly fixed: boolean;

  constructor(
    readonly strings: readonly string[],
    readonly parts: readonly unknown[],
  ) {
    let plain = true;
    let fixed = true;
    for (const part of parts) {
      if (part instanceof Token || part instanceof DialectValue) plain = false;
      else if (part instanceof Sql || part instanceof Fragment) plain = fixed = false;
    }
    this.plain = plain;
    this.fixed = fixed;
  }
}

/**
 * What differs between the engines' SQL, each difference named once: dialects.ts holds the two engines'
 * answers side by side, and the terms (ROW_LOCK, inList, …) that queries write in their place.
 */
export interface Dialect {
  readonly engine: 'sqlite' | 'postgres';
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
  /** `expression` is one of `values`, one parameter however many values there are. */
  inList(expression: Sql, values: readonly (string | number)[], type: 'text' | 'bigint'): Sql;
  /** `expression` lower-cased by Unicode's rules, as JavaScript's toLowerCase. */
  unicodeLower(expression: Sql): Sql;
  /** `column`, a JSON object of strings as text, holds every entry of `wanted` (the same, as JSON text). */
  jsonIncludes(column: Sql, wanted: string): Sql;
}

/** The tables whose insertion order breaks ties in a listing. */
export type InsertionOrdered = 'access_keys' | 'sync_folders';

/** Text that each engine spells its own way and that no value changes. */
export class Token {
  constructor(readonly text: (dialect: Dialect) => string) {}
}

/** A parameter whose value each engine wants in its own form. */
export class DialectValue {
  constructor(readonly value: (dialect: Dialect) => unknown) {}
}

/** A piece of SQL with values that each engine writes its own way (a list match, a JSON test). */
export class Fragment {
  constructor(readonly build: (dialect: Dialect) => Sql) {}
}

export function sql(strings: TemplateStringsArray, ...parts: unknown[]): Sql {
  return new Sql(strings, parts);
}

/**
 * Trusted text (a column list, a table name written in the code), the same on both engines. Never a value.
 * Keep it in a constant: a statement is rendered once per call site only while its tokens stay the same.
 */
export function raw(text: string): Token {
  return new Token(() => text);
}

/** Pieces joined by `separator` (trusted text), e.g. the conditions of a filter. */
export function join(pieces: readonly Sql[], separator: string): Sql {
  if (pieces.length === 0) return sql``;
  const strings = ['', ...pieces.slice(1).map(() => separator), ''];
  return new Sql(strings, pieces);
}

/** A statement ready for a driver: its text and its parameters, in placeholder order. */
export interface Rendered {
  text: string;
  values: readonly unknown[];
}

interface Building {
  text: string;
  values: unknown[];
}

/** The text and values of `query` on `dialect`. */
export function render(query: Sql, dialect: Dialect): Rendered {
  if (query.fixed) return { text: fixedText(query, dialect), values: fixedValues(query, dialect) };
  const out: Building = { text: '', values: [] };
  append(query, dialect, out);
  return out;
}

/** A call site's text on one engine, and the tokens it was rendered with. */
interface FixedText {
  text: string;
  tokens: readonly Token[];
}

const fixedTexts = new WeakMap<Dialect, WeakMap<readonly string[], FixedText>>();

/**
 * The text of a statement without pieces, rendered once per engine and call site. A site whose tokens
 * change from call to call (a token made per call rather than kept in a constant) is rendered each time:
 * the tokens a text was rendered with must be the very ones the call holds.
 */
function fixedText(query: Sql, dialect: Dialect): string {
  let texts = fixedTexts.get(dialect);
  if (texts === undefined) {
    texts = new WeakMap();
    fixedTexts.set(dialect, texts);
  }
  const cached = texts.get(query.strings);
  if (cached !== undefined && (query.plain || sameTokens(query.parts, cached.tokens))) return cached.text;
  const out: Building = { text: '', values: [] };
  append(query, dialect, out);
  texts.set(query.strings, { text: out.text, tokens: query.plain ? [] : query.parts.filter((part) => part instanceof Token) });
  return out.text;
}

function sameTokens(parts: readonly unknown[], tokens: readonly Token[]): boolean {
  let next = 0;
  for (const part of parts) {
    if (part instanceof Token && part !== tokens[next++]) return false;
  }
  return next === tokens.length;
}

function fixedValues(query: Sql, dialect: Dialect): readonly unknown[] {
  if (query.plain) return query.parts;
  const values: unknown[] = [];
  for (const part of query.parts) {
    if (part instanceof DialectValue) values.push(part.value(dialect));
    else if (!(part instanceof Token)) values.push(part);
  }
  return values;
}

function append(query: Sql, dialect: Dialect, out: Building): void {
  const { strings, parts } = query;
  out.text += strings[0];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part instanceof Token) out.text += part.text(dialect);
    else if (part instanceof Sql) append(part, dialect, out);
    else if (part instanceof Fragment) append(part.build(dialect), dialect, out);
    else {
      out.values.push(part instanceof DialectValue ? part.value(dialect) : part);
      out.text += dialect.placeholder(out.values.length);
    }
    out.text += strings[i + 1];
  }
}
