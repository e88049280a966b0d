import { LimitReachedError } from '../base/errors.js';
import { UnfetchableDagError } from '../network/fetch-errors.js';
import type { PinRow } from '../store/repositories/pins.js';

/**
 * Which pins' fetches start and stop, and what a fetch's end means, as pure functions: the fetches
 * (pin-fetches.ts) look at the `pinning` pins, then perform what these decide.
 */

/** The pin is no longer `pinning` (removed, failed at its deadline, complete): what its fetch got is not wanted. */
export class PinNotPendingError extends Error {
  override readonly name = 'PinNotPendingError';
}

export interface FetchesNow {
  /** Pins whose fetch runs now. */
  running: { has(pinId: number): boolean; keys(): Iterable<number> };
  /** Pins whose fetch failed for a passing reason: not tried again before this time (ms). */
  retryAfter: ReadonlyMap<number, number>;
  /** The fetches are closing: nothing more starts. */
  stopping: boolean;
}

export interface FetchLook {
  /** Pins to start fetching. */
  start: PinRow[];
  /** Running fetches whose pin is no longer `pinning`. */
  stop: number[];
  /** Retry times of pins no longer `pinning`, to drop. */
  forget: number[];
}

/**
 * Given the `pinning` pins: a pin starts unless its fetch runs, its deadline has passed (settling fails it),
 * or its retry time has not come; a fetch, or a retry time, of a pin not among them ends.
 */
export function planPinFetches(pending: readonly PinRow[], now: FetchesNow, nowSeconds: number, nowMs: number): FetchLook {
  const wanted = new Set<number>();
  const start: PinRow[] = [];
  for (const pin of pending) {
    wanted.add(pin.id);
    if (now.running.has(pin.id) || now.stopping) continue;
    if (pin.deadline !== null && pin.deadline <= nowSeconds) continue;
    if ((now.retryAfter.get(pin.id) ?? 0) > nowMs) continue;
    start.push(pin);
  }
  const stop = [...now.running.keys()].filter((id) => !wanted.has(id));
  const forget = [...now.retryAfter.keys()].filter((id) => !wanted.has(id));
  return { start, stop, forget };
}

/**
 * What a fetch that threw means: the pin fails (over its plan's limit, or a DAG no source can send whole),
 * nothing (stopped on purpose: the pin left `pinning`, the service stops, or it went offline, and the next
 * look once back online starts it again), or it is tried again later.
 */
export function fetchEndAction(error: unknown, aborted: boolean): 'fail-pin' | 'stopped' | 'retry-later' {
  if (error instanceof LimitReachedError || error instanceof UnfetchableDagError) return 'fail-pin';
  if (error instanceof PinNotPendingError || aborted) return 'stopped';
  return 'retry-later';
}
