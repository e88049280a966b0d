import { formatCount } from '../lib/format.js';
import { formatRange, pageInfo, PAGE_SIZES, type PageSize } from '../lib/pagination.js';
import { IconButton } from './button.js';
import { Select } from './select.js';
import './pagination.css';

export interface PaginationProps {
  /** What is counted, for the landmark's name: "Pins" → "Pins pages". */
  label: string;
  total: number;
  start: number;
  limit: PageSize;
  onChange: (page: { start: number; limit: PageSize }) => void;
  disabled?: boolean;
}

/** "1–25 of 100,000", a page-size choice and first/previous/next/last, under every list. */
export function Pagination({ label, total, start, limit, onChange, disabled = false }: PaginationProps) {
  const info = pageInfo(start, limit, total);
  const go = (to: number | null) => {
    if (to !== null && to !== start) onChange({ start: to, limit });
  };
  return (
    <nav className="pagination" aria-label={`${label} pages`}>
      <p className="pagination-range numeric" aria-live="polite">
        {formatRange(info, total)}
      </p>
      <Select
        label="Rows per page"
        inline
        value={String(limit) as `${PageSize}`}
        options={PAGE_SIZES.map((size) => ({ value: String(size) as `${PageSize}`, label: String(size) }))}
        onChange={(value) => {
          const size = Number(value) as PageSize;
          // Keep the first row shown on screen: its page under the new size.
          onChange({ start: Math.floor(info.from > 0 ? (info.from - 1) / size : 0) * size, limit: size });
        }}
        disabled={disabled}
      />
      <div className="pagination-buttons">
        <IconButton icon="chevronsLeft" label="First page" disabled={disabled || info.prevStart === null} onClick={() => go(info.firstStart)} />
        <IconButton icon="chevronLeft" label="Previous page" disabled={disabled || info.prevStart === null} onClick={() => go(info.prevStart)} />
        <span className="pagination-page numeric">
          Page {formatCount(info.page)} of {formatCount(info.pageCount)}
        </span>
        <IconButton icon="chevronRight" label="Next page" disabled={disabled || info.nextStart === null} onClick={() => go(info.nextStart)} />
        <IconButton icon="chevronsRight" label="Last page" disabled={disabled || info.nextStart === null} onClick={() => go(info.lastStart)} />
      </div>
    </nav>
  );
}
