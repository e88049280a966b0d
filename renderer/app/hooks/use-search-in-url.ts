import { useCallback, useEffect, useRef, useState } from 'react';
import { useDebouncedValue } from './use-debounced-value.js';

/** The search as the URL keeps it: '' for nothing to search. */
function asQuery(text: string): string {
  return text.trim() === '' ? '' : text;
}

/**
 * A search box whose text the URL follows once typing pauses (written with `write`, which should replace
 * the history entry, as useListPage's setFilters does), and which follows the URL when it changes from
 * elsewhere (back, a deep link, Clear filters). `query` is the search the URL holds now; `write` must be
 * stable (useCallback).
 *
 *   const { text, setText, writeQuery } = useSearchInUrl(pinSearchText(params), writeSearch, 100);
 *   <ListSearch value={text} onChange={setText} onSubmit={() => writeQuery(text)} … />
 */
export function useSearchInUrl(
  query: string,
  write: (query: string) => void,
  debounceMs: number,
): { text: string; setText: (text: string) => void; writeQuery: (text: string) => void } {
  // The box leads, the URL follows; `written` is what this box last wrote, to tell its own changes of the
  // URL from others.
  const [text, setText] = useState(query);
  const settled = useDebouncedValue(text, debounceMs);
  const written = useRef(query);
  const writeQuery = useCallback(
    (value: string) => {
      written.current = asQuery(value);
      write(written.current);
    },
    [write],
  );
  useEffect(() => {
    if (asQuery(settled) !== written.current) writeQuery(settled);
  }, [settled, writeQuery]);
  useEffect(() => {
    if (query === written.current) return;
    written.current = query;
    setText(query);
  }, [query]);
  return { text, setText, writeQuery };
}
