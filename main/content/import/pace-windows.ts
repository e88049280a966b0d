import type { MinimumPace } from './readable-chunks.js';

/**
 * The windows of a {@link MinimumPace} while a stream flows: one timer, armed by `start`, disarmed by
 * `stop` (the stream paused, ended or failed); each window that ends short of its minimum calls `fail`,
 * else the next window starts on the same timer. Without a pace it does nothing.
 */
export class PaceWindows {
  private timer: NodeJS.Timeout | undefined;
  private received = 0;
  private required = 0;

  constructor(
    private readonly pace: MinimumPace | undefined,
    private readonly fail: (error: unknown) => void,
  ) {}

  /** Bytes that arrived in the current window. */
  count(bytes: number): void {
    this.received += bytes;
  }

  start(): void {
    if (this.pace === undefined || this.timer !== undefined) return;
    this.open();
    this.timer = setTimeout(this.closeWindow, this.pace.windowMs);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private open(): void {
    this.received = 0;
    this.required = this.pace?.minBytes() ?? 0;
  }

  private readonly closeWindow = (): void => {
    if (this.pace === undefined || this.timer === undefined) return;
    if (this.received < this.required) {
      this.fail(this.pace.error(this.received, this.required));
      return;
    }
    this.open();
    this.timer.refresh();
  };
}
