import { lstat } from 'node:fs/promises';

/**
 * Whether the watched folder itself went away. chokidar reports nothing when it does; its raw
 * fs.watch events on the root do arrive, so each of them asks for a stat of the root, debounced to
 * one per `delayMs`.
 */
export class RootWatch {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly root: string,
    private readonly delayMs: number,
    private readonly isClosed: () => boolean,
    private readonly onGone: () => void,
  ) {}

  /** Something happened at the root: check it soon (once, however many ask meanwhile). */
  poke(): void {
    if (this.timer || this.isClosed()) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      lstat(this.root).then(
        (info) => {
          if (!info.isDirectory() && !this.isClosed()) this.onGone();
        },
        () => {
          if (!this.isClosed()) this.onGone();
        },
      );
    }, this.delayMs);
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
  }
}
