/**
 * The pages of a list held in the request cache (pins, names), kept current by the areas' mutations and
 * live rules: a record patched wherever it is shown, and a change from the event stream applied to every
 * page held (patched in place, the page loaded again, paced, where rows move).
 */
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { ListPage } from '../api/core.js';
import { patchListPage, type ListChange } from '../lib/live-list.js';
import type { LiveReloads } from './live-reloads.js';

/** How an area's list pages are found and their rows told apart. */
export interface ListPages<T, P extends ListPage<T>> {
  /** The key prefix every page of the list is held under (`queryKeys.pins.lists()`). */
  prefix: QueryKey;
  keyOf: (row: T) => string;
  /** Whether a row belongs on this page, as far as the page can tell from the query it answers. */
  matches: (row: T, page: P) => boolean;
}

/** `patch` applied to the row `key` on every page held; pages without it are left as they are. */
export function patchRow<T, P extends ListPage<T>>(client: QueryClient, list: ListPages<T, P>, key: string, patch: Partial<T>): void {
  client.setQueriesData<P>({ queryKey: list.prefix }, (page) =>
    page?.items.some((row) => list.keyOf(row) === key)
      ? { ...page, items: page.items.map((row) => (list.keyOf(row) === key ? { ...row, ...patch } : row)) }
      : page,
  );
}

/** A change the event stream reported, on every page held: patched in place, loaded again where rows move. */
export function applyListChange<T, P extends ListPage<T>>(client: QueryClient, list: ListPages<T, P>, change: ListChange<T>, reloads: LiveReloads): void {
  for (const [queryKey, page] of client.getQueriesData<P>({ queryKey: list.prefix })) {
    if (page === undefined) continue;
    const patched = patchListPage<T, P>(page, change, list.keyOf, (row) => list.matches(row, page));
    if (patched.page !== page) client.setQueryData(queryKey, patched.page);
    if (patched.reload) reloads.soon(queryKey);
  }
}
