/**
 * The service itself in the request cache (the Settings page, for the owner account): its facts, a garbage
 * collection run now, and where it reaches the IPFS network. No event changes these: a save puts the
 * service's answer in place.
 */
import type { NetworkSettingsValues, NetworkSettingsView, ServiceFacts } from '../../shared/api-types.js';
import { ApiError } from '../api/api-error.js';
import type { GarbageCollection } from '../api/service.js';
import { useApiMutation, type ApiMutation } from './api-mutation.js';
import { useApiQuery, type ApiQuery } from './api-query.js';
import { queryKeys } from './query-keys.js';

/** The service's facts, or null: they are the owner's, and this account is another (403). */
export function useServiceFacts(): ApiQuery<ServiceFacts | null> {
  return useApiQuery({
    queryKey: queryKeys.service.facts(),
    load: (api, signal) =>
      api.service.facts(signal).catch((error: unknown) => {
        if (error instanceof ApiError && error.error === 'permission') return null;
        throw error;
      }),
  });
}

/** One garbage collection cycle now: the pins and blocks it removes reach the cache as events. */
export function useCollectGarbage(): ApiMutation<void, GarbageCollection> {
  return useApiMutation({ perform: (api) => api.service.collectGarbage() });
}

export function useNetworkSettings(): ApiQuery<NetworkSettingsView> {
  return useApiQuery({ queryKey: queryKeys.service.network(), load: (api, signal) => api.service.network(signal) });
}

/** Saves a change of the network settings (applied at once); the service's answer is what the form shows next. */
export function useSaveNetworkSettings(): ApiMutation<Partial<NetworkSettingsValues>, NetworkSettingsView> {
  return useApiMutation({
    perform: (api, change: Partial<NetworkSettingsValues>) => api.service.saveNetwork(change),
    onSuccess: (client, view) => client.setQueryData(queryKeys.service.network(), view),
  });
}
