/**
 * Runtime shape checks of what the service sends. The API is local and typed, but a page must never
 * render `undefined` as a number because an older or newer service answered differently: each module's
 * checks turn such an answer into an ApiError of kind `protocol` instead.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function hasStrings(value: Record<string, unknown>, keys: readonly string[]): boolean {
  return keys.every((key) => typeof value[key] === 'string');
}

export function hasNumbers(value: Record<string, unknown>, keys: readonly string[]): boolean {
  return keys.every((key) => typeof value[key] === 'number' && Number.isFinite(value[key]));
}

/** A check for `T[]` from a check for `T`. */
export function arrayOf<T>(check: (value: unknown) => value is T): (value: unknown) => value is T[] {
  return (value: unknown): value is T[] => Array.isArray(value) && value.every(check);
}

/** `{ removed: true, [key]: string }`: how the event stream reports that a record is gone. */
export function isRemoval<K extends string>(value: unknown, key: K): value is { [P in K]: string } & { removed: true } {
  return isRecord(value) && value.removed === true && typeof value[key] === 'string';
}
