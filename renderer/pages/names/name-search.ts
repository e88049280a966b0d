/**
 * One search box for names: an IPNS name (or an address of one) finds that name; anything else is an
 * alias. Both are answered by the service (`GET /api/v0/ipns/{name}`, `GET /api/v0/ipns/search?alias=`),
 * so a search holds at any number of names; the API has no partial match, so an alias matches in full.
 */
import type { NameListQuery } from '../../api/names.js';
import { formatCount, middleEllipsis } from '../../lib/format.js';
import { ipnsNameOfText } from '../../lib/ipns-name-text.js';
import type { ListPosition } from '../../lib/list-params.js';
import { searchBox, type BoxSearch } from '../../lib/search-box.js';
import { MAX_ALIAS } from './name-label.js';

export type NameSearch = BoxSearch<'name', 'alias'>;

/**
 * The box reads an IPNS name (or an address of one) as that name, anything else as an alias. The URL
 * keeps its text as `?name=` (the desktop app's ipfs:// handler opens `/names?name=<name>`) or `?alias=`.
 */
export const NAME_SEARCH_BOX = searchBox({ identifier: 'name', parseIdentifier: ipnsNameOfText, text: 'alias', maxText: MAX_ALIAS });

export const nameSearch = NAME_SEARCH_BOX.search;
export const nameSearchParams = NAME_SEARCH_BOX.params;
export const nameSearchText = NAME_SEARCH_BOX.textOf;

/** What the list asks the service for: the page shown, or the one name searched for. */
export function nameListQuery(search: NameSearch, position: ListPosition): NameListQuery {
  return search.kind === 'none' ? { kind: 'page', start: position.start, limit: position.limit } : search;
}

/** The search a list query stands for (what the rows shown were loaded for). */
export function searchOfNameQuery(query: NameListQuery): NameSearch {
  return query.kind === 'page' ? { kind: 'none' } : query;
}

/** What the table shows, in words (a live status line): "1,000 names.", "No name has the alias “blo”…". */
export function describeNameView(search: NameSearch, total: number): string {
  switch (search.kind) {
    case 'none':
      return `${total === 0 ? 'No' : formatCount(total)} ${total === 1 ? 'name' : 'names'}.`;
    case 'name':
      return total === 0 ? `No name ${middleEllipsis(search.name, 12, 6)} on this account.` : `The name ${middleEllipsis(search.name, 12, 6)}.`;
    case 'alias':
      return total === 0
        ? `No name has the alias “${search.alias}”. An alias matches in full, capitals included; or search by the whole IPNS name.`
        : `The name with the alias “${search.alias}”.`;
  }
}
