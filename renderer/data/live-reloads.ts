/**
 * Queries loaded again because of live events, paced: a burst of events (a garbage collection removing
 * thousands of pins, a busy upload moving the usage) costs one reload a second, not one per event, and
 * a lone event is shown without delay.
 */
import { hashKey, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { createThrottle } from '../lib/throttle.js';
import type { Timers } from '../lib/timers.js';

/** Live events that move rows load the queries they touch at most this often. */
export const LIVE_RELOAD_PAUSE_MS = 1000;

export interface LiveReloads {
  /**
   * This exact query (or, `under`, every query under this key) loads again: at once, then at most once per
   * pause while events keep asking.
   */
  soon(queryKey: QueryKey, scope?: 'exact' | 'under'): void;
  /** The queries under this key load again `ms` after the first ask of a run; asks meanwhile join it. */
  after(queryKey: QueryKey, ms: number): void;
  /**
   * Runs `work` (one event's rule): what it asks `soon` loads in one go, so the second query one event
   * moves (the page a pin left and the one it joined) does not wait out the pause the first began.
   */
  together(work: () => void): void;
  /** Nothing more is loaded (the session ended). */
  cancel(): void;
}

export function createLiveReloads(client: QueryClient, timers: Timers, pauseMs = LIVE_RELOAD_PAUSE_MS): LiveReloads {
  const due = new Map<string, { queryKey: QueryKey; exact: boolean }>();
  const throttle = createThrottle(
    () => {
      const asked = [...due.values()];
      due.clear();
      // Only queries someone shows are fetched; the others are marked stale and load when shown again.
      for (const { queryKey, exact } of asked) void client.invalidateQueries({ queryKey, exact });
    },
    pauseMs,
    timers,
  );
  const delayed = new Map<string, unknown>();
  let gathering = false;
  return {
    soon(queryKey, scope = 'exact') {
      due.set(`${scope} ${hashKey(queryKey)}`, { queryKey, exact: scope === 'exact' });
      if (!gathering) throttle.call();
    },
    together(work) {
      if (gathering) {
        work();
        return;
      }
      gathering = true;
      try {
        work();
      } finally {
        gathering = false;
      }
      if (due.size > 0) throttle.call();
    },
    after(queryKey, ms) {
      const hash = hashKey(queryKey);
      if (delayed.has(hash)) return;
      delayed.set(
        hash,
        timers.setTimeout(() => {
          delayed.delete(hash);
          void client.invalidateQueries({ queryKey });
        }, ms),
      );
    },
    cancel() {
      throttle.cancel();
      due.clear();
      for (const handle of delayed.values()) timers.clearTimeout(handle);
      delayed.clear();
    },
  };
}
