/**
 * How long to wait before the next try after `attempt` failures in a row: doubling from `baseMs`, capped
 * at `maxMs`, and spread over the upper half of that ("equal jitter") so that many windows of one
 * service that went away do not all come back in the same millisecond.
 */
export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
  /** 0 ≤ r < 1; Math.random in the app, fixed in tests. */
  random?: () => number;
}

export function backoffDelay(attempt: number, options: BackoffOptions): number {
  const random = options.random ?? Math.random;
  const exponent = Math.min(Math.max(attempt, 0), 30);
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** exponent);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
