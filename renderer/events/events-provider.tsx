/**
 * The window's one event stream, open while someone is signed in and the window is visible. Its events
 * reach the request cache (renderer/data/live-cache.ts, through useEventHub()), which keeps what pages
 * show current; useEvent() is for what is not cached data (a toast when something finishes).
 *
 * When the stream is open again after a gap (hidden window, service restart), the refresh signal loads
 * every query shown again, so nothing missed stays stale.
 */
import { createContext, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
import type { ServiceEventName } from '../../shared/api-types.js';
import { documentVisibility, windowTimers } from '../app/dom-environment.js';
import { useServices } from '../app/services-context.js';
import { useApi } from '../app/session.js';
import { createEventHub, type EventHub, type ServiceEventHandler } from './event-hub.js';
import { createEventStream } from './event-stream.js';
import { decodeServiceEvent } from './service-events.js';

const EventsContext = createContext<EventHub | null>(null);

/** Signed in only: the stream is opened with the session's key. */
export function EventsProvider({ children }: { children: ReactNode }) {
  const api = useApi();
  const { refresh } = useServices();
  const hub = useMemo(() => createEventHub(), []);

  useEffect(() => {
    const stream = createEventStream({
      open: (signal) => api.events.open(signal),
      visibility: documentVisibility,
      timers: windowTimers,
      onEvent(event, data) {
        const decoded = decodeServiceEvent(event, data);
        if (decoded) hub.dispatch(decoded);
      },
      onOpen(resumed) {
        if (resumed) refresh.bump();
      },
    });
    stream.start();
    return () => stream.stop();
  }, [api, hub, refresh]);

  return <EventsContext.Provider value={hub}>{children}</EventsContext.Provider>;
}

/** The hub of the window's events: what the request cache subscribes to. */
export function useEventHub(): EventHub {
  const hub = useContext(EventsContext);
  if (!hub) throw new Error('useEventHub() outside <EventsProvider>');
  return hub;
}

/** Calls `handler` with each event of `type` while the component is mounted (the latest handler, no resubscribing). */
export function useEvent<T extends ServiceEventName>(type: T, handler: ServiceEventHandler<T>): void {
  const hub = useContext(EventsContext);
  if (!hub) throw new Error('useEvent() outside <EventsProvider>');
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => hub.subscribe(type, (payload) => latest.current(payload)), [hub, type]);
}
