/**
 * A runner's first sync: a promise settled once, by whichever comes first (the first root pinned, a
 * pause, a failure, a stop); later outcomes are not its business.
 */
export class FirstSync {
  readonly done: Promise<void>;
  private pending: { resolve: () => void; reject: (error: unknown) => void } | undefined;

  constructor() {
    this.done = new Promise<void>((resolve, reject) => {
      this.pending = { resolve, reject };
    });
    // Nobody may be listening (a restart): an unobserved rejection must not crash the process.
    this.done.catch(() => undefined);
  }

  /** Resolves the first sync (no `error`) or rejects it, unless it already settled. */
  settle(error?: unknown): void {
    const pending = this.pending;
    this.pending = undefined;
    if (!pending) return;
    if (error === undefined) pending.resolve();
    else pending.reject(error);
  }
}
