/**
 * The browser's side of the DOM-free logic (event stream, connectivity): the document's visibility and
 * the window's timers, in the small interfaces that logic takes.
 */
import type { Timers, VisibilitySource } from '../events/event-stream.js';

export const documentVisibility: VisibilitySource = {
  isVisible: () => document.visibilityState === 'visible',
  subscribe(listener) {
    document.addEventListener('visibilitychange', listener);
    return () => document.removeEventListener('visibilitychange', listener);
  },
};

export const windowTimers: Timers = {
  setTimeout: (callback, ms) => window.setTimeout(callback, ms),
  clearTimeout: (handle) => window.clearTimeout(handle as number),
};
