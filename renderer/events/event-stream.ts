/**
 * The window's one connection to GET /api/v0/events. EventSource cannot send the key headers, so it
 * reads the stream with fetch and the pure SSE parser. It holds no connection while the window is
 * hidden (an idle, minimised window costs the service nothing), reconnects with backoff when the
 * stream breaks, and tells its owner each time it is open again after a gap, so pages refetch what
 * they may have missed. DOM-free: the document's visibility and the timers are passed in.
 */
import { EVENT_STREAM_RETRY_MS } from '../../shared/api-types.js';
import { ApiError, isAbortError } from '../api/api-error.js';
import type { Timers } from '../lib/timers.js';
import { createReconnectTimer } from './reconnect-timer.js';
import { readSse } from './sse-reader.js';

/** The document's visibility, as far as the stream needs it. */
export interface VisibilitySource {
  isVisible(): boolean;
  /** Calls `listener` on every change; answers a function that stops it. */
  subscribe(listener: () => void): () => void;
}

export type { Timers } from '../lib/timers.js';

/** `stopped`: not started or stopped; `hidden`: no connection because the window is hidden; `waiting`: backing off. */
export type EventStreamStatus = 'stopped' | 'connecting' | 'open' | 'waiting' | 'hidden';

export interface EventStreamInit {
  /** Opens the stream (the API core's `stream` call with the current key); rejects with ApiError. */
  open(signal: AbortSignal): Promise<Response>;
  visibility: VisibilitySource;
  timers: Timers;
  random?: () => number;
  onEvent(event: string, data: string): void;
  /** The stream is open; `resumed` is true when it was open before (a gap: refetch what may be missed). */
  onOpen?(resumed: boolean): void;
  onStatus?(status: EventStreamStatus): void;
  /** The service refused the key: the stream stops for good. */
  onUnauthorized?(error: ApiError): void;
}

export interface EventStream {
  start(): void;
  stop(): void;
  status(): EventStreamStatus;
}

/** The service's own `retry:` is the base; this is used until it has sent one. */
export const DEFAULT_RETRY_MS = EVENT_STREAM_RETRY_MS;
/** However often it failed, the stream tries again at least this often while the window is visible. */
export const MAX_RETRY_MS = 60_000;

export function createEventStream(init: EventStreamInit): EventStream {
  let status: EventStreamStatus = 'stopped';
  let connection: AbortController | null = null;
  let unsubscribe: (() => void) | null = null;
  let everOpened = false;
  const reconnects = createReconnectTimer({ timers: init.timers, baseMs: DEFAULT_RETRY_MS, maxMs: MAX_RETRY_MS, minBaseMs: 250, random: init.random });

  const setStatus = (next: EventStreamStatus): void => {
    if (next === status) return;
    status = next;
    init.onStatus?.(next);
  };

  const disconnect = (): void => {
    connection?.abort();
    connection = null;
  };

  const scheduleReconnect = (): void => {
    if (status === 'stopped' || status === 'hidden') return;
    setStatus('waiting');
    reconnects.schedule(connect);
  };

  const connect = (): void => {
    if (status === 'stopped' || !init.visibility.isVisible()) return;
    disconnect();
    const controller = new AbortController();
    connection = controller;
    setStatus('connecting');
    void (async () => {
      try {
        const response = await init.open(controller.signal);
        if (controller.signal.aborted) {
          await response.body?.cancel().catch(() => undefined);
          return;
        }
        setStatus('open');
        const resumed = everOpened;
        everOpened = true;
        init.onOpen?.(resumed);
        await readSse(response, controller.signal, {
          retry: (ms) => reconnects.setBase(ms),
          event(event, data) {
            // A stream that delivers is healthy: the next break starts the backoff afresh.
            reconnects.reset();
            init.onEvent(event, data);
          },
        });
      } catch (error) {
        if (controller.signal.aborted || isAbortError(error)) return;
        if (error instanceof ApiError && error.isUnauthorized) {
          stop();
          init.onUnauthorized?.(error);
          return;
        }
        // Anything else (no answer, 429 for too many streams, a service without events) is retried later.
      }
      if (controller.signal.aborted || connection !== controller) return;
      connection = null;
      scheduleReconnect();
    })();
  };

  const visibilityChanged = (): void => {
    if (status === 'stopped') return;
    if (init.visibility.isVisible()) {
      if (status === 'hidden') {
        reconnects.reset();
        setStatus('connecting');
        connect();
      }
    } else {
      reconnects.cancel();
      disconnect();
      setStatus('hidden');
    }
  };

  const stop = (): void => {
    reconnects.cancel();
    disconnect();
    unsubscribe?.();
    unsubscribe = null;
    setStatus('stopped');
  };

  return {
    start() {
      if (status !== 'stopped') return;
      unsubscribe = init.visibility.subscribe(visibilityChanged);
      if (init.visibility.isVisible()) {
        setStatus('connecting');
        connect();
      } else setStatus('hidden');
    },
    stop,
    status: () => status,
  };
}
