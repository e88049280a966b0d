/**
 * At most one run per pause: the first call runs at once, calls during the pause run once when it ends.
 * A burst of live events (a garbage collection removing thousands of pins) then costs one reload a
 * second, not one per event, and a lone event is shown without delay.
 */
import type { Timers } from './timers.js';

export interface Throttle {
  call: () => void;
  cancel: () => void;
}

export function createThrottle(run: () => void, pauseMs: number, timers: Timers): Throttle {
  let timer: unknown = null;
  let pending = false;
  const endPause = () => {
    timer = null;
    if (!pending) return;
    pending = false;
    run();
    timer = timers.setTimeout(endPause, pauseMs);
  };
  return {
    call() {
      if (timer !== null) {
        pending = true;
        return;
      }
      run();
      timer = timers.setTimeout(endPause, pauseMs);
    },
    cancel() {
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
      pending = false;
    },
  };
}
