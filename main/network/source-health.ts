import type { FetchTuning } from './fetch-tuning.js';

export type HealthState = 'ready' | 'waiting' | 'aside';

/**
 * Whether a source may be asked now (a circuit breaker with cool-down). After a failure it waits a backoff
 * (exponential, with jitter) before it is asked again; after `failuresBeforeAside` failures in a row, or one
 * wrong block, it is set aside for a while (longer each time it is set aside again without a success in
 * between); a `429`/`503` makes it wait what its `Retry-After` says. A success clears all of it. "The
 * source does not have this block" is no failure.
 */
export class SourceHealth {
  private failures = 0;
  private asides = 0;
  private waitUntil = 0;
  private asideUntil = 0;

  constructor(
    private readonly tuning: FetchTuning,
    private readonly now: () => number = () => performance.now(),
    private readonly random: () => number = Math.random,
  ) {}

  /** When the source may be asked again (now or earlier: it may be asked now). */
  readyAt(): number {
    return Math.max(this.waitUntil, this.asideUntil);
  }

  isReady(): boolean {
    return this.now() >= this.readyAt();
  }

  state(): HealthState {
    const now = this.now();
    if (now < this.asideUntil) return 'aside';
    return now < this.waitUntil ? 'waiting' : 'ready';
  }

  succeeded(): void {
    this.failures = 0;
    this.asides = 0;
  }

  /** A request failed (network, timeout, a server error, a response that is not what was asked for). */
  failed(): void {
    this.failures++;
    if (this.failures >= this.tuning.failuresBeforeAside) {
      this.failures = 0;
      this.setAside(Math.min(this.tuning.asideMaxMs, this.tuning.asideMs * 2 ** this.asides));
      this.asides++;
      return;
    }
    const backoff = Math.min(this.tuning.backoffMaxMs, this.tuning.backoffBaseMs * 2 ** (this.failures - 1));
    // Full jitter on the upper half: sources that failed together do not all come back at once.
    this.waitUntil = Math.max(this.waitUntil, this.now() + backoff / 2 + (this.random() * backoff) / 2);
  }

  /** The source sent a block that does not match its CID, or one nobody asked for: it is not trusted for a while. */
  misbehaved(): void {
    this.setAside(this.tuning.wrongBlockAsideMs);
  }

  /** `429`/`503`: not asked again before `ms` (a wait longer than the longest honoured sets it aside that long). */
  busy(ms: number): void {
    const until = this.now() + ms;
    if (ms > this.tuning.maxRetryAfterMs) this.asideUntil = Math.max(this.asideUntil, until);
    else this.waitUntil = Math.max(this.waitUntil, until);
  }

  private setAside(ms: number): void {
    this.asideUntil = Math.max(this.asideUntil, this.now() + ms);
  }
}
