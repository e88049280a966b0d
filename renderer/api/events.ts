import type { ApiCore } from './core.js';

export interface EventsApi {
  /** GET /api/v0/events: the open `text/event-stream` response; renderer/events reads it. */
  open(signal: AbortSignal): Promise<Response>;
}

export function eventsApi(core: ApiCore): EventsApi {
  return {
    open: (signal) => core.stream({ path: '/api/v0/events', signal }),
  };
}
