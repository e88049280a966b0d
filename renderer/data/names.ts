/**
 * IPNS names in the request cache: a page of the list (or the one name a search finds), the actions on a
 * name, and what `event: name` does to the pages held (a name that changed is patched where it is shown;
 * a change that moves rows loads the page again, paced).
 */
import type { QueryClient } from '@tanstack/react-query';
import type { IpnsRecordView, ServiceEvents } from '../../shared/api-types.js';
import { ApiError } from '../api/api-error.js';
import type { ApiClient } from '../api/client.js';
import type { ListPage } from '../api/core.js';
import type { NameBinding, NameImport, NameListQuery } from '../api/names.js';
import { useApiMutation, type ApiMutation } from './api-mutation.js';
import { useApiQuery, type ApiQuery } from './api-query.js';
import { applyListChange, patchRow, type ListPages } from './list-pages.js';
import type { LiveReloads } from './live-reloads.js';
import { queryKeys } from './query-keys.js';
import { folderNamePublicToCache } from './sync-folders.js';

/** A page of names (or what a search found) with the query it answers: while the next loads, the page still says what it shows. */
export interface NameListView extends ListPage<IpnsRecordView> {
  query: NameListQuery;
}

async function loadNames(api: ApiClient, query: NameListQuery, signal: AbortSignal): Promise<NameListView> {
  if (query.kind === 'page') return { ...(await api.names.list({ start: query.start, limit: query.limit }, signal)), query };
  try {
    const found = query.kind === 'name' ? await api.names.get(query.name, signal) : await api.names.byAlias(query.alias, signal);
    return { items: [found], total: 1, query };
  } catch (error) {
    // A search that finds nothing is an empty list, not a failure.
    if (error instanceof ApiError && error.error === 'not_found') return { items: [], total: 0, query };
    throw error;
  }
}

export function useNameList(query: NameListQuery): ApiQuery<NameListView> {
  return useApiQuery({ queryKey: queryKeys.names.list(query), load: (api, signal) => loadNames(api, query, signal) });
}

/** Whether a name (changed elsewhere) belongs on a page of this query: an alias search holds only the name with that alias. */
export function matchesNameQuery(name: Pick<IpnsRecordView, 'alias'>, query: NameListQuery): boolean {
  return query.kind !== 'alias' || name.alias === query.alias;
}

const NAME_PAGES: ListPages<IpnsRecordView, NameListView> = {
  prefix: queryKeys.names.lists(),
  keyOf: (name) => name.name,
  matches: (name, page) => matchesNameQuery(name, page.query),
};

function reloadLists(client: QueryClient): void {
  void client.invalidateQueries({ queryKey: queryKeys.names.lists() });
}

/** Create name: a new key and its name, pointing at a CID (pinned too, if asked). The new name leads the first page: the pages move. */
export function useCreateName(): ApiMutation<{ cid: string; alias?: string | undefined; pin: boolean }, NameBinding> {
  return useApiMutation({ perform: (api, name: { cid: string; alias?: string | undefined; pin: boolean }) => api.names.create(name), onSuccess: reloadLists });
}

/** Import key: a private key made elsewhere becomes a name here. The new name leads the first page: the pages move. */
export function useImportKey(): ApiMutation<NameImport, NameBinding> {
  return useApiMutation({ perform: (api, body: NameImport) => api.names.import(body), onSuccess: reloadLists });
}

/** Publish: the name points at a new CID from now on. */
export function usePublishName(): ApiMutation<{ name: string; cid: string; pin: boolean }, NameBinding> {
  return useApiMutation({
    perform: (api, name: { name: string; cid: string; pin: boolean }) => api.names.publish(name),
    onSuccess: (client, binding) => patchRow(client, NAME_PAGES, binding.name, { value: binding.value, publish_at: Math.floor(Date.now() / 1000) }),
  });
}

export function useSetAlias(): ApiMutation<{ name: string; alias: string }, void> {
  return useApiMutation({
    perform: (api, { name, alias }: { name: string; alias: string }) => api.names.setAlias(name, alias),
    onSuccess: (client, _result, { name, alias }) => patchRow(client, NAME_PAGES, name, { alias }),
  });
}

/** Delete: the name and its key leave this service; the pages move. */
export function useDeleteName(): ApiMutation<Pick<IpnsRecordView, 'name'>, void> {
  return useApiMutation({ perform: (api, { name }: Pick<IpnsRecordView, 'name'>) => api.names.remove(name), onSuccess: reloadLists });
}

/** The Public switch (contract section 11): the name as the service has it now, wherever it is shown (a sync folder's page too). */
export function useSetNamePublic(): ApiMutation<{ name: string; on: boolean }, IpnsRecordView> {
  return useApiMutation({
    perform: (api, { name, on }: { name: string; on: boolean }) => api.names.setPublic(name, on),
    onSuccess: (client, view) => {
      patchRow(client, NAME_PAGES, view.name, { public: view.public });
      folderNamePublicToCache(client, view.name, view.public);
    },
  });
}

/** `event: name` on every page of the list held: patched in place, loaded again where rows move. */
export function nameEventToCache(client: QueryClient, payload: ServiceEvents['name'], reloads: LiveReloads): void {
  applyListChange(client, NAME_PAGES, 'removed' in payload ? { kind: 'removed', key: payload.name } : { kind: 'changed', record: payload }, reloads);
}
