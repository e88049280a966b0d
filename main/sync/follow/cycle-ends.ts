/** Who waits for the follow runner's cycle under way (or the next) to end: woken at each cycle's end, or a stop. */
export class CycleEnds {
  private readonly waiters = new Set<() => void>();

  /** Settles at the next {@link endAll}, or when `signal` ends. */
  next(signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const wake = (): void => {
        this.waiters.delete(wake);
        signal.removeEventListener('abort', wake);
        resolve();
      };
      this.waiters.add(wake);
      signal.addEventListener('abort', wake, { once: true });
    });
  }

  endAll(): void {
    for (const wake of [...this.waiters]) wake();
  }
}
