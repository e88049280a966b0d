/**
 * What is left of the hand-written shape checks: the envelope's record test (core.ts) and lists of a
 * checked record. The records themselves are checked by the schemas of shared/schemas/, which the
 * server's tests hold its answers to: a page must never render `undefined` as a number because an older
 * or newer service answered differently, and such an answer becomes an ApiError of kind `protocol`.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A check for `T[]` from a check for `T`. */
export function arrayOf<T>(check: (value: unknown) => value is T): (value: unknown) => value is T[] {
  return (value: unknown): value is T[] => Array.isArray(value) && value.every(check);
}
