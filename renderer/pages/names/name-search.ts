/**
 * One search box for names: an IPNS name (or an address of one) finds that name; anything else is an
 * alias. Both are answered by the service (`GET /api/v0/ipns/{name}`, `GET /api/v0/ipns/search?alias=`),
 * so a search holds at any number of names; the API has no partial match, so an alias matches in full.
 */
import { formatCount, middleEllipsis } from '../../lib/format.js';
import { ipnsNameOfText } from '../../lib/ipns-name-text.js';
import { MAX_ALIAS } from './name-label.js';

export type NameSearch = { kind: 'none' } | { kind: 'name'; name: string } | { kind: 'alias'; alias: string };

export function nameSearch(text: string): NameSearch {
  const trimmed = text.trim();
  if (trimmed === '') return { kind: 'none' };
  const name = ipnsNameOfText(trimmed);
  if (name !== null) return { kind: 'name', name };
  return { kind: 'alias', alias: trimmed.slice(0, MAX_ALIAS) };
}

/**
 * The search box's text as the page's URL keeps it: `?name=` for an IPNS name (the desktop app's
 * ipfs:// handler opens `/names?name=<name>`), `?alias=` for an alias.
 */
export function nameSearchParams(text: string): { name: string | null; alias: string | null } {
  const search = nameSearch(text);
  if (search.kind === 'none') return { name: null, alias: null };
  return search.kind === 'name' ? { name: text, alias: null } : { name: null, alias: text };
}

/** The search box's text from the page's URL (`name` first, should both be given). */
export function nameSearchText(params: URLSearchParams): string {
  return params.get('name') ?? params.get('alias') ?? '';
}

/** Whether a name (changed elsewhere) belongs in the list under this search. */
export function matchesNameSearch(search: NameSearch, record: { name: string; alias: string }): boolean {
  if (search.kind === 'alias') return record.alias === search.alias;
  return true;
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
