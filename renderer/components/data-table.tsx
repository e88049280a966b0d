import { useId, type ReactNode } from 'react';
import { nextSort, type SortState } from '../lib/sort.js';
import { Icon } from './icons.js';
import { InlineError } from './inline-error.js';
import './data-table.css';

export interface Column<Row> {
  /** Stable id of the column; the sort key of a sortable one. */
  key: string;
  header: string;
  cell: (row: Row) => ReactNode;
  /** The header becomes a button that sorts by this column (the page sorts, or asks the API to). */
  sortable?: boolean;
  /** Numbers, sizes and dates line up at the end. */
  align?: 'start' | 'end';
  /** Dropped at narrow widths, so the columns that identify a row keep their room. */
  secondary?: boolean;
  /** The header is read by screen readers but not shown. */
  hideHeader?: boolean;
  /** A CSS width for the column ("40%", "120px"). */
  width?: string;
}

export type { SortDirection, SortState } from '../lib/sort.js';

export interface DataTableProps<Row> {
  /** The table's name (its caption, visually hidden unless `showCaption`). */
  label: string;
  showCaption?: boolean;
  columns: ReadonlyArray<Column<Row>>;
  /** undefined while nothing has loaded yet. */
  rows: readonly Row[] | undefined;
  rowKey: (row: Row) => string;
  loading?: boolean;
  /** Nothing loaded because the service is unreachable (a query's `waiting`): said instead of "Loading…". */
  waiting?: boolean;
  /** Why loading failed; with rows still shown it sits above them, without rows it fills the table. */
  error?: string | null | undefined;
  onRetry?: (() => void) | undefined;
  /** What an empty table says instead (an EmptyState with the next step). */
  empty: ReactNode;
  sort?: SortState | null;
  onSortChange?: (sort: SortState) => void;
  /** Buttons at the end of each row; name them after the row ("Unpin report.pdf"). */
  rowActions?: (row: Row) => ReactNode;
  /** Marks a row (the one just added, the one being edited). */
  rowClassName?: (row: Row) => string | undefined;
}

/**
 * A real table: a caption, column headers with scope, aria-sort on the sorted column, and one
 * place for the loading, error and empty states, so every list in the window behaves alike. Wide
 * tables scroll sideways inside their own focusable region instead of pushing the page.
 */
export function DataTable<Row>({
  label,
  showCaption = false,
  columns,
  rows,
  rowKey,
  loading = false,
  waiting = false,
  error,
  onRetry,
  empty,
  sort,
  onSortChange,
  rowActions,
  rowClassName,
}: DataTableProps<Row>) {
  const captionId = useId();
  const span = columns.length + (rowActions ? 1 : 0);
  const placeholder = (content: ReactNode, className: string) => (
    <tr className="table-placeholder">
      <td colSpan={span} className={className}>
        {content}
      </td>
    </tr>
  );

  let body: ReactNode;
  if (rows === undefined) {
    body = error
      ? placeholder(<InlineError message={error} onRetry={onRetry} />, 'table-state')
      : placeholder(
          <span role="status" className="table-loading">
            <Icon name="spinner" className="spin" /> {waiting ? 'Waiting for the Pinfold service…' : 'Loading…'}
          </span>,
          'table-state',
        );
  } else if (rows.length === 0) {
    body = placeholder(empty, 'table-empty');
  } else {
    body = rows.map((row) => (
      <tr key={rowKey(row)} className={rowClassName?.(row)}>
        {columns.map((column) => (
          <td key={column.key} className={cellClass(column)}>
            {column.cell(row)}
          </td>
        ))}
        {rowActions ? <td className="table-actions">{rowActions(row)}</td> : null}
      </tr>
    ));
  }

  return (
    <div className="table-frame">
      {rows !== undefined && error ? <InlineError message={error} onRetry={onRetry} /> : null}
      {/* Focusable so a keyboard can scroll a wide table, and named by it; a group, not a region: the table
          usually sits in a section of the same name, and two landmarks of one name confuse a landmark list. */}
      <div className="table-scroll" role="group" aria-labelledby={captionId} tabIndex={0}>
        <table className={loading && rows !== undefined ? 'table is-refreshing' : 'table'} aria-busy={loading || undefined}>
          <caption id={captionId} className={showCaption ? 'table-caption' : 'visually-hidden'}>
            {label}
          </caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th
                  key={column.key}
                  scope="col"
                  className={cellClass(column)}
                  style={column.width ? { width: column.width } : undefined}
                  aria-sort={sort?.key === column.key ? sort.direction : undefined}
                >
                  {column.sortable && onSortChange ? (
                    <button type="button" className="table-sort" onClick={() => onSortChange(nextSort(sort, column.key))}>
                      <span className={column.hideHeader ? 'visually-hidden' : undefined}>{column.header}</span>
                      <Icon name={sort?.key !== column.key ? 'sortNone' : sort.direction === 'ascending' ? 'sortAsc' : 'sortDesc'} size={12} />
                    </button>
                  ) : (
                    <span className={column.hideHeader ? 'visually-hidden' : undefined}>{column.header}</span>
                  )}
                </th>
              ))}
              {rowActions ? (
                <th scope="col" className="table-actions">
                  <span className="visually-hidden">Actions</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>{body}</tbody>
        </table>
      </div>
    </div>
  );
}

function cellClass(column: Pick<Column<never>, 'align' | 'secondary'>): string | undefined {
  return [column.align === 'end' ? 'align-end' : '', column.secondary ? 'secondary' : ''].filter(Boolean).join(' ') || undefined;
}
