/** Who waits for a name's next change (the served long-poll of a record): woken by the resolver's writes. */
export class ChangeWaiters {
  private readonly waiters = new Map<string, Set<() => void>>();

  /** Settles at the next {@link wake} of `name`, or when `signal` ends. */
  next(name: string, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const set = this.waiters.get(name) ?? new Set<() => void>();
      this.waiters.set(name, set);
      const wake = (): void => {
        signal.removeEventListener('abort', aborted);
        resolve();
      };
      const aborted = (): void => {
        set.delete(wake);
        if (set.size === 0 && this.waiters.get(name) === set) this.waiters.delete(name);
        resolve();
      };
      set.add(wake);
      signal.addEventListener('abort', aborted, { once: true });
    });
  }

  wake(name: string): void {
    const woken = this.waiters.get(name);
    this.waiters.delete(name);
    for (const wake of woken ?? []) wake();
  }

  wakeAll(): void {
    for (const name of [...this.waiters.keys()]) this.wake(name);
  }
}
