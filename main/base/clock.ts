/** Injected wherever time matters so tests can move it without sleeping. */
export interface Clock {
  /** Milliseconds since the epoch. */
  nowMs(): number;
}

export const systemClock: Clock = { nowMs: () => Date.now() };

export function unixSeconds(clock: Clock): number {
  return Math.floor(clock.nowMs() / 1000);
}
