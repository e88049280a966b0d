/** Timers the supervisor is given (the system's, or a test's it moves by hand). */
export interface SupervisorTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemTimers: SupervisorTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** One pending call at most, which forgets itself when it fires or is cancelled. */
export class OneShotTimer {
  private handle: unknown = null;

  constructor(private readonly timers: SupervisorTimers) {}

  schedule(ms: number, fire: () => void): void {
    this.handle = this.timers.setTimeout(() => {
      this.handle = null;
      fire();
    }, ms);
  }

  cancel(): void {
    if (this.handle !== null) this.timers.clearTimeout(this.handle);
    this.handle = null;
  }
}
