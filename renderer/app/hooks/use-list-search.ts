import { useCallback } from 'react';
import type { BoxSearch, SearchBox } from '../../lib/search-box.js';
import { useListPage } from './use-list-page.js';
import { useSearchInUrl } from './use-search-in-url.js';

/**
 * A list page with one search box (lib/search-box.ts), both kept in the URL: the page's position and
 * filters (useListPage), the box's text as typed, the search the URL holds now (written once typing
 * pauses), and Clear. `box` must be stable (a module constant).
 *
 *   const { position, search, text, setText, writeQuery, clearSearch } = useListSearch(PIN_SEARCH_BOX, 100);
 */
export function useListSearch<I extends string, T extends string>(box: SearchBox<I, T>, debounceMs: number) {
  const list = useListPage();
  const { setFilters } = list;
  const query = box.textOf(list.params);
  const writeSearch = useCallback((value: string) => setFilters(box.params(value)), [setFilters, box]);
  const { text, setText, writeQuery } = useSearchInUrl(query, writeSearch, debounceMs);
  const clearSearch = useCallback(() => {
    setText('');
    writeQuery('');
  }, [setText, writeQuery]);
  const search: BoxSearch<I, T> = box.search(query);
  return { ...list, search, text, setText, writeQuery, clearSearch };
}
