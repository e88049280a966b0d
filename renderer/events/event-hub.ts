/** Hands each decoded service event to the handlers subscribed to its type (the request cache's live rules, and useEvent). */
import type { ServiceEventName, ServiceEvents } from '../../shared/api-types.js';
import type { ServiceEvent } from './service-events.js';

export type ServiceEventHandler<T extends ServiceEventName> = (payload: ServiceEvents[T]) => void;

export interface EventHub {
  subscribe<T extends ServiceEventName>(type: T, handler: ServiceEventHandler<T>): () => void;
  dispatch(event: ServiceEvent): void;
}

export function createEventHub(): EventHub {
  // Keyed by type: a handler in the set of `T` only ever receives `ServiceEvents[T]`.
  const handlers = new Map<ServiceEventName, Set<(payload: never) => void>>();
  return {
    subscribe(type, handler) {
      let set = handlers.get(type);
      if (!set) {
        set = new Set();
        handlers.set(type, set);
      }
      const entry = set;
      entry.add(handler);
      return () => {
        entry.delete(handler);
      };
    },
    dispatch(event) {
      for (const handler of [...(handlers.get(event.type) ?? [])]) (handler as (payload: ServiceEvent['payload']) => void)(event.payload);
    },
  };
}
