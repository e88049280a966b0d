/**
 * Is the service reachable? Any call that gets no answer turns the window "offline" (the banner "Pinfold
 * service is not reachable" with Retry); from then on, and only while the window is visible, a cheap
 * probe asks again with backoff. The first answer, from the probe or from any other call, turns it back
 * "online" and fires `onRecovered`, on which pages refetch. Nothing runs while the service answers.
 * DOM-free: visibility and timers are passed in (the event stream's interfaces).
 */
import { isAbortError } from '../api/api-error.js';
import type { Timers, VisibilitySource } from '../events/event-stream.js';
import { backoffDelay } from '../lib/backoff.js';
import { createStore, type Store } from '../lib/store.js';

export type Connectivity = { state: 'online' } | { state: 'offline'; checking: boolean };

export interface ConnectivityInit {
  /** One cheap call to the service; resolves if it answered, rejects if not. */
  probe(signal: AbortSignal): Promise<unknown>;
  visibility: VisibilitySource;
  timers: Timers;
  random?: () => number;
  /** The service answers again after being unreachable. */
  onRecovered?(): void;
}

export interface ConnectivityMonitor {
  readonly store: Store<Connectivity>;
  /** A call got no answer. */
  reportUnreachable: () => void;
  /** A call got an answer. */
  reportAnswered: () => void;
  /** The banner's Retry: probe now. */
  retryNow: () => void;
  dispose: () => void;
}

export const PROBE_BASE_MS = 1000;
export const PROBE_MAX_MS = 30_000;
const ONLINE: Connectivity = { state: 'online' };

export function createConnectivityMonitor(init: ConnectivityInit): ConnectivityMonitor {
  const store = createStore<Connectivity>(ONLINE);
  let failures = 0;
  let timer: unknown = null;
  let probing: AbortController | null = null;

  const cancel = (): void => {
    if (timer !== null) init.timers.clearTimeout(timer);
    timer = null;
    probing?.abort();
    probing = null;
  };

  const offline = (checking: boolean): void => store.set({ state: 'offline', checking });

  const schedule = (): void => {
    if (store.get().state !== 'offline' || !init.visibility.isVisible()) return;
    const delay = backoffDelay(failures, { baseMs: PROBE_BASE_MS, maxMs: PROBE_MAX_MS, ...(init.random ? { random: init.random } : {}) });
    failures += 1;
    timer = init.timers.setTimeout(() => {
      timer = null;
      check();
    }, delay);
  };

  const check = (): void => {
    if (store.get().state !== 'offline') return;
    cancel();
    const controller = new AbortController();
    probing = controller;
    offline(true);
    init.probe(controller.signal).then(
      () => {
        if (probing === controller) reportAnswered();
      },
      (error: unknown) => {
        if (probing !== controller || isAbortError(error)) return;
        probing = null;
        offline(false);
        schedule();
      },
    );
  };

  const reportAnswered = (): void => {
    if (store.get().state === 'online') return;
    cancel();
    failures = 0;
    store.set(ONLINE);
    init.onRecovered?.();
  };

  const unsubscribe = init.visibility.subscribe(() => {
    if (store.get().state !== 'offline') return;
    if (init.visibility.isVisible()) check();
    else {
      cancel();
      offline(false);
    }
  });

  return {
    store,
    reportUnreachable() {
      if (store.get().state === 'offline') return;
      failures = 0;
      offline(false);
      schedule();
    },
    reportAnswered,
    retryNow() {
      if (store.get().state !== 'offline') return;
      failures = 0;
      check();
    },
    dispose() {
      cancel();
      unsubscribe();
    },
  };
}
