/** Hands each decoded service event to the handlers subscribed to its type (useEvent in the pages). */
import type { ServiceEvent, ServiceEventMap, ServiceEventType } from './service-events.js';

export type ServiceEventHandler<T extends ServiceEventType> = (payload: ServiceEventMap[T]) => void;

export interface EventHub {
  subscribe<T extends ServiceEventType>(type: T, handler: ServiceEventHandler<T>): () => void;
  dispatch(event: ServiceEvent): void;
}

export function createEventHub(): EventHub {
  // Keyed by type: a handler in the set of `T` only ever receives `ServiceEventMap[T]`.
  const handlers = new Map<ServiceEventType, Set<(payload: never) => void>>();
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
