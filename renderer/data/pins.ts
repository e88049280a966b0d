/**
 * Pins in the request cache: a page of the list, the actions on a pin, and what `event: pin` does to the
 * pages held (a pin that changed is patched where it is shown; a change that moves rows loads the page
 * again, paced).
 */
import type { QueryClient } from '@tanstack/react-query';
import type { PinRecord, ServiceEvents } from '../../shared/api-types.js';
import type { ListPage } from '../api/core.js';
import type { PinListQuery } from '../api/pins.js';
import { useApiMutation, type ApiMutation } from './api-mutation.js';
import { useApiQuery, type ApiQuery } from './api-query.js';
import { applyListChange, patchRow, type ListPages } from './list-pages.js';
import type { LiveReloads } from './live-reloads.js';
import { pinRecordEventToCache } from './pin-records.js';
import { queryKeys } from './query-keys.js';

/** A page of pins with the query it answers: while the next query loads, the page still says what it shows. */
export interface PinListView extends ListPage<PinRecord> {
  query: PinListQuery;
}

export function usePinList(query: PinListQuery): ApiQuery<PinListView> {
  return useApiQuery({
    queryKey: queryKeys.pins.list(query),
    load: async (api, signal) => ({ ...(await api.pins.list(query, signal)), query }),
  });
}

/** Whether a pin belongs on a page of this query, as far as the page can tell (a CID search always asks the service). */
export function matchesPinQuery(pin: PinRecord, query: PinListQuery): boolean {
  const status = query.status === 'active' ? pin.status !== 'unpinning' : query.status === undefined || pin.status === query.status;
  return status && (query.name === undefined || pin.name.toLowerCase().includes(query.name.toLowerCase()));
}

/** The pages of the pin list held, and how a pin is found on them. */
const PIN_PAGES: ListPages<PinRecord, PinListView> = {
  prefix: queryKeys.pins.lists(),
  keyOf: (pin) => pin.cid,
  matches: (pin, page) => matchesPinQuery(pin, page.query),
};

/** `patch` applied to the pin `cid` on every page held. */
function patchPin(client: QueryClient, cid: string, patch: Partial<PinRecord>): void {
  patchRow(client, PIN_PAGES, cid, patch);
}

function reloadLists(client: QueryClient): void {
  void client.invalidateQueries({ queryKey: queryKeys.pins.lists() });
}

/** Add pin: pin/add, then the pin as the service has it (pinned, or pinning while blocks are missing). */
export function useAddPin(): ApiMutation<{ cid: string; name?: string | undefined }, PinRecord> {
  return useApiMutation({
    perform: async (api, pin: { cid: string; name?: string | undefined }) => {
      await api.pins.add(pin);
      return api.pins.get(pin.cid);
    },
    // The new pin is at the top of the unfiltered list: the pages move.
    onSuccess: reloadLists,
  });
}

/** Unpin: the pin turns `unpinning` until the next garbage collection. */
export function useUnpin(): ApiMutation<string, void> {
  return useApiMutation({
    perform: (api, cid: string) => api.pins.remove(cid),
    onSuccess: (client, _result, cid) => patchPin(client, cid, { status: 'unpinning' }),
  });
}

export function useRenamePin(): ApiMutation<{ cid: string; name: string }, void> {
  return useApiMutation({
    perform: (api, { cid, name }: { cid: string; name: string }) => api.pins.rename(cid, name),
    onSuccess: (client, _result, { cid, name }) => patchPin(client, cid, { name }),
  });
}

/** Pin again (an unpinning pin) or Retry (a failed one): pin/add takes it back, under its name. */
export function useRepin(): ApiMutation<PinRecord, void> {
  return useApiMutation({
    perform: (api, pin: PinRecord) => api.pins.add({ cid: pin.cid, name: pin.name || undefined }),
    onSuccess: reloadLists,
  });
}

/** `event: pin` on every page of the list held: patched in place, loaded again where rows move. */
export function pinEventToCache(client: QueryClient, payload: ServiceEvents['pin'], reloads: LiveReloads): void {
  // And on the pins looked up one by one (the Files page's recent uploads).
  pinRecordEventToCache(client, payload);
  applyListChange(client, PIN_PAGES, 'removed' in payload ? { kind: 'removed', key: payload.cid } : { kind: 'changed', record: payload }, reloads);
}
