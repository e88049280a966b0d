/**
 * How the mappers read integer columns, whatever the engine: SQLite answers a number; PostgreSQL answers a
 * BIGINT (and COUNT, SUM) as text, since it may pass 2^53. Pinfold's counters (bytes, ids, times) stay
 * below 2^53; a value past it is refused rather than rounded.
 */
export type Int = number | string;

export function int(value: Int): number {
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(number)) throw new Error(`a stored integer is past 2^53: ${String(value)}`);
  return number;
}

export function intOrNull(value: Int | null): number | null {
  return value === null ? null : int(value);
}

/** A 0/1 flag column (both engines' schemas keep flags as integers). */
export function flag(value: Int): boolean {
  return int(value) === 1;
}

/** A flag as the column holds it. */
export function flagValue(on: boolean): number {
  return on ? 1 : 0;
}

/** A mapper for a query whose row may be missing: null then. */
export function orNull<Raw, R>(map: (raw: Raw) => R): (raw: Raw | undefined) => R | null {
  return (raw) => (raw === undefined ? null : map(raw));
}

/** A mapper for a query whose row may be missing: undefined then. */
export function orUndefined<Raw, R>(map: (raw: Raw) => R): (raw: Raw | undefined) => R | undefined {
  return (raw) => (raw === undefined ? undefined : map(raw));
}
