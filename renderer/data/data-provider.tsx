/**
 * The request cache of one signed-in session, around the pages: the session's API client for the data
 * hooks, the service's events applied to the cache, and the refresh signal (the service is back, the
 * event stream resumed after a gap) loading every query shown again.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import type { ApiClient } from '../api/client.js';
import { globalTimers } from '../lib/timers.js';
import { connectLiveCache, type ServiceEventSource } from './live-cache.js';
import { createQueryClient } from './query-client.js';
import { SessionApiContext } from './session-api.js';

export interface DataProviderProps {
  /** The session's client: a new session gets a new provider (and cache), never a new client under the same one. */
  api: ApiClient;
  events: ServiceEventSource;
  /** Calls its listener when everything shown may be stale (renderer/app/refresh-signal.ts). */
  refreshes: { subscribe: (listener: () => void) => () => void };
  children: ReactNode;
}

export function DataProvider({ api, events, refreshes, children }: DataProviderProps) {
  const [client] = useState(createQueryClient);
  useEffect(() => connectLiveCache(client, events, globalTimers), [client, events]);
  useEffect(() => refreshes.subscribe(() => void client.invalidateQueries()), [client, refreshes]);
  return (
    <QueryClientProvider client={client}>
      <SessionApiContext.Provider value={api}>{children}</SessionApiContext.Provider>
    </QueryClientProvider>
  );
}
