import { useEffect } from 'react';
import type { ListPosition } from '../../lib/list-params.js';
import { clampStart } from '../../lib/pagination.js';

/**
 * A list page past the end (its last rows were removed, here or elsewhere): on to the new last page, once
 * the list has loaded and shows no row.
 *
 *   usePageInRange(pins, position, setPosition);
 */
export function usePageInRange(
  list: { data: { items: readonly unknown[]; total: number } | undefined; loading: boolean },
  position: ListPosition,
  setPosition: (position: ListPosition) => void,
): void {
  const { data, loading } = list;
  useEffect(() => {
    if (loading || !data || data.items.length > 0 || position.start === 0) return;
    setPosition({ start: clampStart(position.start, position.limit, data.total), limit: position.limit });
  }, [loading, data, position, setPosition]);
}
