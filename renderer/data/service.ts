/**
 * The service itself in the request cache (the Settings page, for the owner account): its facts and a
 * garbage collection run now (the settings are settings.ts's). No event changes the facts: a settings save
 * loads them again.
 */
import type { ServiceFacts } from '../../shared/api-types.js';
import type { GarbageCollection } from '../api/service.js';
import { useApiMutation, type ApiMutation } from './api-mutation.js';
import { useApiQuery, type ApiQuery } from './api-query.js';
import { nullUnlessOwner } from './owner-only.js';
import { queryKeys } from './query-keys.js';

/** The service's facts, or null: they are the owner's, and this account is another (403). */
export function useServiceFacts(): ApiQuery<ServiceFacts | null> {
  return useApiQuery({
    queryKey: queryKeys.service.facts(),
    load: (api, signal) => nullUnlessOwner(api.service.facts(signal)),
  });
}

/** One garbage collection cycle now: the pins and blocks it removes reach the cache as events. */
export function useCollectGarbage(): ApiMutation<void, GarbageCollection> {
  return useApiMutation({ perform: (api) => api.service.collectGarbage() });
}
