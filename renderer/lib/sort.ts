/** The sort state of a table with sortable headers: which column, which way. */
export type SortDirection = 'ascending' | 'descending';

export interface SortState {
  key: string;
  direction: SortDirection;
}

/** A click on a header: a new column sorts ascending, the sorted one flips. */
export function nextSort(current: SortState | null | undefined, key: string): SortState {
  if (current?.key !== key) return { key, direction: 'ascending' };
  return { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
}

/** Sorts rows on the page itself (lists the API does not sort): a stable, locale-aware compare. */
export function sortRows<Row>(rows: readonly Row[], sort: SortState | null | undefined, value: (row: Row, key: string) => string | number): Row[] {
  if (!sort) return [...rows];
  const factor = sort.direction === 'ascending' ? 1 : -1;
  const collator = new Intl.Collator('en-US', { numeric: true, sensitivity: 'base' });
  return rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => {
      const left = value(a.row, sort.key);
      const right = value(b.row, sort.key);
      const order = typeof left === 'number' && typeof right === 'number' ? left - right : collator.compare(String(left), String(right));
      return order !== 0 ? order * factor : a.index - b.index;
    })
    .map((entry) => entry.row);
}
