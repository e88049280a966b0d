/**
 * The timers DOM-free logic takes (the event stream, the connectivity monitor, throttles, the live cache),
 * so tests can drive them by hand.
 */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The runtime's own timers: the window's in the browser, Node's under test. */
export const globalTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as number),
};
