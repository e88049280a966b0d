/**
 * Page arithmetic of the list pages (`start` and `limit` as the API takes them, `total` as it answers).
 * Pure, so that "1–25 of 100,000" and the first/prev/next/last targets are tested once for every table.
 */
import { formatCount } from './format.js';

export const PAGE_SIZES = [10, 25, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
export const DEFAULT_PAGE_SIZE: PageSize = 25;

export function isPageSize(value: number): value is PageSize {
  return (PAGE_SIZES as readonly number[]).includes(value);
}

export interface PageInfo {
  /** 1-based number of the first row shown; 0 when there is none. */
  from: number;
  /** 1-based number of the last row shown. */
  to: number;
  /** 1-based. */
  page: number;
  pageCount: number;
  /** `start` of the first, previous, next and last pages (prev/next are null at the ends). */
  firstStart: number;
  prevStart: number | null;
  nextStart: number | null;
  lastStart: number;
}

export function pageInfo(start: number, limit: number, total: number): PageInfo {
  const size = Math.max(1, Math.floor(limit));
  const count = Math.max(0, Math.floor(total));
  const pageCount = Math.max(1, Math.ceil(count / size));
  const lastStart = (pageCount - 1) * size;
  const at = Math.min(Math.max(0, Math.floor(start / size) * size), lastStart);
  return {
    from: count === 0 ? 0 : at + 1,
    to: Math.min(at + size, count),
    page: at / size + 1,
    pageCount,
    firstStart: 0,
    prevStart: at > 0 ? at - size : null,
    nextStart: at < lastStart ? at + size : null,
    lastStart,
  };
}

/** "1–25 of 100,000"; "0 of 0" for an empty list. */
export function formatRange(info: Pick<PageInfo, 'from' | 'to'>, total: number): string {
  if (info.from === 0) return `0 of ${formatCount(total)}`;
  return `${formatCount(info.from)}–${formatCount(info.to)} of ${formatCount(total)}`;
}

/** Where to go when the total shrank under the current page (the last row of the last page was deleted). */
export function clampStart(start: number, limit: number, total: number): number {
  return Math.min(start, pageInfo(start, limit, total).lastStart);
}
