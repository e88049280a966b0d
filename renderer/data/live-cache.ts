/**
 * The service's events applied to the request cache, once for the whole window: each area's rule
 * (pins.ts, account.ts, sync-events.ts, …) patches the records that changed in place and loads again,
 * paced, the queries whose rows moved. Pages only read the cache: none listens to the stream for its own data.
 */
import { notifyManager, type QueryClient } from '@tanstack/react-query';
import type { ServiceEventName, ServiceEvents } from '../../shared/api-types.js';
import type { Timers } from '../lib/timers.js';
import { usageEventToCache } from './account.js';
import { keyEventToCache } from './keys.js';
import { createLiveReloads, type LiveReloads } from './live-reloads.js';
import { nameEventToCache } from './names.js';
import { partnerEventToCache } from './partners.js';
import { pinEventToCache } from './pins.js';
import { syncEventToCache } from './sync-events.js';

/** Where the events come from: the window's event hub (renderer/events), or a test's. */
export interface ServiceEventSource {
  subscribe<T extends ServiceEventName>(type: T, handler: (payload: ServiceEvents[T]) => void): () => void;
}

type CacheRules = { [T in ServiceEventName]: (client: QueryClient, payload: ServiceEvents[T], reloads: LiveReloads) => void };

/** One rule per event of the service, each its area's (an event without one is a type error). */
const RULES: CacheRules = {
  pin: pinEventToCache,
  usage: usageEventToCache,
  name: nameEventToCache,
  key: keyEventToCache,
  partner: partnerEventToCache,
  sync: syncEventToCache,
};

/** Starts applying `events` to `client`; answers the function that stops it. */
export function connectLiveCache(client: QueryClient, events: ServiceEventSource, timers: Timers): () => void {
  const reloads = createLiveReloads(client, timers);
  const stops = (Object.keys(RULES) as ServiceEventName[]).map((type) => subscribeRule(client, events, type, reloads));
  return () => {
    for (const stop of stops) stop();
    reloads.cancel();
  };
}

function subscribeRule<T extends ServiceEventName>(client: QueryClient, events: ServiceEventSource, type: T, reloads: LiveReloads): () => void {
  const rule = RULES[type];
  // One notification for what an event changes: a page never renders its rows patched but its reload not yet asked for;
  // and one reload for the queries it moves.
  return events.subscribe(type, (payload) => notifyManager.batch(() => reloads.together(() => rule(client, payload, reloads))));
}
