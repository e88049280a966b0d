/**
 * When the event stream tries again after a break: a backoff from the service's own `retry:` (doubling
 * with each failure, with jitter, up to a ceiling), started afresh once a stream delivers.
 */
import { backoffDelay } from '../lib/backoff.js';
import type { Timers } from '../lib/timers.js';

export interface ReconnectTimer {
  /** Calls `connect` after the next delay of the backoff (in place of a call already waiting). */
  schedule(connect: () => void): void;
  /** Nothing waits any more. */
  cancel(): void;
  /** A stream delivered, or the window is shown again: the next break waits the base delay. */
  reset(): void;
  /** The service's `retry:`, in milliseconds: the base delay from now on. */
  setBase(ms: number): void;
}

export interface ReconnectTimerInit {
  timers: Timers;
  baseMs: number;
  maxMs: number;
  /** Never under this, whatever the service asks. */
  minBaseMs: number;
  random?: (() => number) | undefined;
}

export function createReconnectTimer({ timers, baseMs, maxMs, minBaseMs, random }: ReconnectTimerInit): ReconnectTimer {
  let timer: unknown = null;
  let failures = 0;
  let base = baseMs;
  const cancel = (): void => {
    if (timer !== null) timers.clearTimeout(timer);
    timer = null;
  };
  return {
    schedule(connect) {
      const delay = backoffDelay(failures, { baseMs: base, maxMs, ...(random ? { random } : {}) });
      failures += 1;
      cancel();
      timer = timers.setTimeout(() => {
        timer = null;
        connect();
      }, delay);
    },
    cancel,
    reset() {
      failures = 0;
    },
    setBase(ms) {
      base = Math.max(ms, minBaseMs);
    },
  };
}
