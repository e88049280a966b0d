/**
 * One search box for pins: a CID (or an address of one) searches by CID, in any of its spellings (the
 * service matches v0 and v1 of one CID); anything else is a case-insensitive part of the pin's name.
 */
import type { PinStatus } from '../../../shared/api-types.js';
import { isPinStatus, type PinListStatus } from '../../api/pins.js';
import { parseCidText } from '../../lib/cid-text.js';
import { formatCount, middleEllipsis } from '../../lib/format.js';
import { searchBox, type BoxSearch } from '../../lib/search-box.js';
import { pinStatusLook } from '../../lib/status.js';

/** The service takes name searches of 1 to 255 characters. */
export const MAX_NAME_SEARCH = 255;

export type PinSearch = BoxSearch<'cid', 'name'>;

/**
 * The box reads a CID as a CID search, anything else as part of a name. The URL keeps its text named as
 * the API's filters are: `?cid=` when it is a CID (the desktop app's ipfs:// handler opens
 * `/pins?cid=<cid>`), `?name=` for part of a name.
 */
export const PIN_SEARCH_BOX = searchBox({ identifier: 'cid', parseIdentifier: parseCidText, text: 'name', maxText: MAX_NAME_SEARCH });

export const pinSearch = PIN_SEARCH_BOX.search;
export const pinSearchParams = PIN_SEARCH_BOX.params;
export const pinSearchText = PIN_SEARCH_BOX.textOf;

/** The list query's filters for a search. */
export function searchFilters(search: PinSearch): { name?: string; cid?: string } {
  if (search.kind === 'cid') return { cid: search.cid };
  if (search.kind === 'name') return { name: search.name };
  return {};
}

/** The search a list query's filters stand for (what a page of the list was loaded for). */
export function searchOfFilters(filters: { name?: string | undefined; cid?: string | undefined }): PinSearch {
  if (filters.cid !== undefined) return { kind: 'cid', cid: filters.cid };
  if (filters.name !== undefined) return { kind: 'name', name: filters.name };
  return { kind: 'none' };
}

/**
 * The status filter: `active` (the default, no `status` in the URL) lists every pin but the unpinning
 * ones, which garbage collection is about to remove; `all` (`?status=all`) lists those too.
 */
export type PinStatusChoice = PinStatus | 'active' | 'all';

/**
 * The choice the URL's `status` makes. A CID search (the desktop app's ipfs:// handler opens
 * `/pins?cid=<cid>`) looks for one pin whatever its status: its default is All, not Active.
 */
export function pinStatusChoice(param: string | null, search: PinSearch): PinStatusChoice {
  if (param === 'all' || param === 'active') return param;
  if (isPinStatus(param)) return param;
  return search.kind === 'cid' ? 'all' : 'active';
}

/** The list query's `status` for a choice (none for all). */
export function statusOfChoice(choice: PinStatusChoice): PinListStatus | undefined {
  return choice === 'all' ? undefined : choice;
}

/** The URL's `status` for a choice: none for Active, the default, so a plain /pins is the usual view (a CID search says it). */
export function choiceParam(choice: PinStatusChoice, search: PinSearch): string | null {
  return choice === 'active' && search.kind !== 'cid' ? null : choice;
}

/**
 * What the table shows, in words (a live status line): "100,000 pins.", "12 active pins.", "3 pinned pins
 * whose name contains “report”.", "No pin has CID bafy…."
 */
export function describePinView(search: PinSearch, status: PinListStatus | undefined, total: number): string {
  const word = total === 1 ? 'pin' : 'pins';
  const adjective = status === undefined ? '' : `${status === 'active' ? 'active' : pinStatusLook(status).label.toLowerCase()} `;
  const counted = `${total === 0 ? 'No' : formatCount(total)} ${adjective}${word}`;
  switch (search.kind) {
    case 'none':
      return `${counted}.`;
    case 'name':
      return `${counted} whose name contains “${search.name}”.`;
    case 'cid':
      return `${counted} with CID ${middleEllipsis(search.cid, 14, 8)} (in any of its spellings, v0 or v1).`;
  }
}
