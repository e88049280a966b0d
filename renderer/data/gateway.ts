/** What the window asks of the gateway through the request cache (the View page). */
import { useApiQuery, type ApiQuery } from './api-query.js';
import { queryKeys } from './query-keys.js';

/**
 * Whether the gateway serves `path` without a key (`--public-gateway`), asked only while `enabled`: where
 * the gateway worker adds the window's key, the answer does not matter.
 */
export function usePublicGateway(path: string, enabled: boolean): ApiQuery<boolean> {
  return useApiQuery({ queryKey: queryKeys.gateway.public(path), load: (api, signal) => api.gateway.isPublic(path, signal), enabled });
}
