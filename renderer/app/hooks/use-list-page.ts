import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'wouter';
import { parseListPosition, withListPosition, type ListPosition } from '../../lib/list-params.js';

/**
 * The page of a list, kept in the URL (`?page=&size=`): back/forward step through pages, a reload
 * stays. Filters live beside it in the same query; `setFilter` goes back to page 1.
 *
 *   const { position, setPosition, params, setFilter } = useListPage();
 *   <Pagination {...position} total={total} onChange={setPosition} label="Pins" />
 */
export function useListPage(): {
  position: ListPosition;
  setPosition: (position: ListPosition) => void;
  params: URLSearchParams;
  setFilter: (name: string, value: string | null) => void;
  /** Several filters at once, in one history entry (a search box that writes `cid` or `name`). */
  setFilters: (values: Readonly<Record<string, string | null>>) => void;
} {
  const [params, setParams] = useSearchParams();
  const position = useMemo(() => parseListPosition(params), [params]);
  const setPosition = useCallback((next: ListPosition) => setParams((current) => withListPosition(current, next)), [setParams]);
  const setFilters = useCallback(
    (values: Readonly<Record<string, string | null>>) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [name, value] of Object.entries(values)) {
            if (value === null || value === '') next.delete(name);
            else next.set(name, value);
          }
          next.delete('page');
          return next;
        },
        // Typing in a search box must not leave a history entry per keystroke.
        { replace: true },
      ),
    [setParams],
  );
  const setFilter = useCallback((name: string, value: string | null) => setFilters({ [name]: value }), [setFilters]);
  return { position, setPosition, params, setFilter, setFilters };
}
