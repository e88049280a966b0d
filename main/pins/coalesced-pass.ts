/**
 * One pass of `run` at a time: a nudge while a pass runs asks for one more right after it, however many
 * nudges came meanwhile. `idle()` is the pass started last. A pass that throws is reported to `failed`.
 */
export class CoalescedPass {
  private running: Promise<void> = Promise.resolve();
  private busy = false;
  private again = false;
  private stopped = false;

  constructor(
    private readonly run: () => Promise<void>,
    private readonly failed: (error: unknown) => void,
  ) {}

  nudge(): void {
    if (this.stopped) return;
    if (this.busy) {
      this.again = true;
      return;
    }
    this.running = this.pass();
  }

  idle(): Promise<void> {
    return this.running;
  }

  /** No pass starts after this one; the one running ends after its current turn. */
  stop(): Promise<void> {
    this.stopped = true;
    return this.running;
  }

  private async pass(): Promise<void> {
    this.busy = true;
    try {
      do {
        this.again = false;
        await this.run();
      } while (this.again && !this.stopped);
    } catch (error) {
      if (!this.stopped) this.failed(error);
    } finally {
      this.busy = false;
    }
  }
}
