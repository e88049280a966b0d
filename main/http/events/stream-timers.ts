import type { EventStream } from './event-stream.js';

const MAX_TIMER_MS = 2 ** 31 - 1;

/** How long until a session's stream must close (setTimeout's bound kept: a longer delay would fire at once). */
export function expiryDelayMs(expiresAtSeconds: number, nowMs: number): number {
  return Math.min(MAX_TIMER_MS, Math.max(0, expiresAtSeconds * 1000 - nowMs));
}

/**
 * The hub's timers: one keep-alive interval while any stream is open, and one expiry timer per
 * session's stream. None keeps the process alive.
 */
export class StreamTimers {
  private keepAlive: NodeJS.Timeout | undefined;
  private readonly expiries = new Map<EventStream, NodeJS.Timeout>();

  constructor(
    private readonly keepAliveMs: number,
    private readonly tick: () => void,
  ) {}

  /** Closes the stream at its session's expiry, if it has one. */
  watchExpiry(stream: EventStream, nowMs: number): void {
    if (stream.expiresAt === null) return;
    const timer = setTimeout(() => stream.close(), expiryDelayMs(stream.expiresAt, nowMs));
    timer.unref();
    this.expiries.set(stream, timer);
  }

  forgetExpiry(stream: EventStream): void {
    const timer = this.expiries.get(stream);
    if (timer) clearTimeout(timer);
    this.expiries.delete(stream);
  }

  startKeepAlive(): void {
    if (this.keepAlive) return;
    this.keepAlive = setInterval(this.tick, this.keepAliveMs);
    this.keepAlive.unref();
  }

  stopKeepAlive(): void {
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.keepAlive = undefined;
  }
}
