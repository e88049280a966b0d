/**
 * A page of a list kept current by the event stream, as a pure function: a record that changed is
 * patched where it is shown; anything that moves rows (a record removed, one added or changed
 * elsewhere, one that stops matching the filter) asks for the page to be loaded again.
 */
import type { ListPage } from '../api/core.js';

export type ListChange<T> = { kind: 'changed'; record: T } | { kind: 'removed'; key: string };

export interface Patched<P> {
  page: P | undefined;
  /** The rows on this page, their order or the total may have moved: load the page again. */
  reload: boolean;
}

/** `page` may carry more than the list (what it was loaded for): that is kept. */
export function patchListPage<T, P extends ListPage<T> = ListPage<T>>(
  page: P | undefined,
  change: ListChange<T>,
  keyOf: (row: T) => string,
  /** Whether a row belongs in this list under its current filters. */
  matches: (row: T) => boolean = () => true,
): Patched<P> {
  if (page === undefined) return { page, reload: false };
  const key = change.kind === 'removed' ? change.key : keyOf(change.record);
  const index = page.items.findIndex((row) => keyOf(row) === key);
  if (change.kind === 'removed') {
    if (index === -1) return { page, reload: true };
    return { page: { ...page, items: page.items.filter((_, i) => i !== index), total: Math.max(0, page.total - 1) }, reload: true };
  }
  if (index === -1) return { page, reload: true };
  const items = page.items.slice();
  items[index] = change.record;
  return { page: { ...page, items }, reload: !matches(change.record) };
}
