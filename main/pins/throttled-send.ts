/**
 * Calls `send` at most once every `intervalMs`: a poke within the interval of the last send is sent at its
 * end (once, however many pokes came meanwhile). For progress events, which the window needs now and then,
 * not at every block.
 */
export class ThrottledSend {
  private lastMs = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly intervalMs: number,
    private readonly send: () => void,
  ) {}

  poke(): void {
    if (this.timer !== null) return;
    const wait = this.lastMs + this.intervalMs - Date.now();
    if (wait <= 0) this.fire();
    else {
      this.timer = setTimeout(this.fire, wait);
      this.timer.unref();
    }
  }

  /** A send still waiting is dropped. */
  dispose(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private readonly fire = (): void => {
    this.timer = null;
    this.lastMs = Date.now();
    this.send();
  };
}
