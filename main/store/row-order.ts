/**
 * One order for the rows a transaction locks, in every transaction that locks several: blocks by
 * multihash bytes (the index's own order, which GC's listing follows), then packs by id. PostgreSQL runs
 * transactions side by side, and two that lock the same rows in different orders deadlock, and one of
 * them fails (an upload answered 500 beside a GC sweep). SQLite's one writer never meets this; the order
 * costs it nothing.
 */
export function inMultihashOrder<T>(items: Iterable<T>, multihash: (item: T) => Uint8Array): T[] {
  return [...items].sort((a, b) => Buffer.compare(multihash(a), multihash(b)));
}

/** Pack ids, ascending: after the block rows, in the same order everywhere. */
export function inPackOrder(ids: Iterable<number>): number[] {
  return [...new Set(ids)].sort((a, b) => a - b);
}
