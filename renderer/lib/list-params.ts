/**
 * A list page's position in the URL (`?page=3&size=50`), so reload, back/forward and a shared link
 * show the same rows. Pure: parsed and written here, used by useListPage.
 */
import { DEFAULT_PAGE_SIZE, isPageSize, type PageSize } from './pagination.js';

export interface ListPosition {
  start: number;
  limit: PageSize;
}

export function parseListPosition(params: URLSearchParams): ListPosition {
  const size = Number(params.get('size'));
  const limit = isPageSize(size) ? size : DEFAULT_PAGE_SIZE;
  const page = Number(params.get('page'));
  const start = Number.isInteger(page) && page > 1 ? (page - 1) * limit : 0;
  return { start, limit };
}

/** Writes the position into a copy of `params`, leaving defaults out (a clean URL for page 1). */
export function withListPosition(params: URLSearchParams, position: ListPosition): URLSearchParams {
  const next = new URLSearchParams(params);
  const page = Math.floor(position.start / position.limit) + 1;
  if (page > 1) next.set('page', String(page));
  else next.delete('page');
  if (position.limit !== DEFAULT_PAGE_SIZE) next.set('size', String(position.limit));
  else next.delete('size');
  return next;
}
