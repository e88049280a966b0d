import { constants, type Stats } from 'node:fs';
import { access, lstat } from 'node:fs/promises';
import { describeFsError } from './scanner.js';
import { pollStep, reportedKind, seenKindOf } from './watch-decisions.js';
import type { WatchSession } from './watch-session.js';
import type { PendingWrite } from './write-stability.js';

/**
 * The watcher's stability check, the effect side of write-stability.ts: while a file is pending, a
 * timer lstat's every pending file each `pollMs` and reports those that held still. The timer runs
 * only while a file is pending, and one poll at a time.
 */
export class StabilityPoller {
  private timer: NodeJS.Timeout | undefined;
  private polling = false;

  constructor(
    private readonly session: WatchSession,
    private readonly pollMs: number,
  ) {}

  /** Arms the timer for the next poll, unless it is armed, closed, or nothing is pending. */
  schedule(): void {
    if (this.timer || this.session.closed || this.session.pending.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.poll();
    }, this.pollMs);
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async poll(): Promise<void> {
    if (this.polling || this.session.closed) return;
    this.polling = true;
    try {
      const now = this.session.clock.nowMs();
      await Promise.all(this.session.pending.pendingNow().map(([rel, write]) => this.check(rel, write, now)));
    } finally {
      this.polling = false;
      this.schedule();
    }
  }

  private async check(rel: string, write: PendingWrite, now: number): Promise<void> {
    const { session } = this;
    const abs = session.absOf(rel);
    let info: Stats;
    try {
      info = await lstat(abs);
    } catch (error) {
      session.pending.drop(rel);
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') session.report({ path: rel, reason: describeFsError(error) });
      return;
    }
    if (!session.pending.isPending(rel, write)) return;
    const step = pollStep(seenKindOf(info));
    if (step !== 'check') {
      // A folder in its place is chokidar's to report (addDir); a symlink is not synced.
      session.pending.drop(rel);
      if (step === 'not-regular') session.report({ path: rel, reason: 'not a regular file' });
      return;
    }
    if (session.pending.look(rel, info, now) !== 'still') return;
    try {
      await access(abs, constants.R_OK);
    } catch (error) {
      session.report({ path: rel, reason: describeFsError(error) });
      return;
    }
    const stat = { size: info.size, mtimeMs: info.mtimeMs, ino: info.ino };
    // Written again while the first version was being reported: it is a change by now.
    const kind = reportedKind(write.kind, session.known.has(rel));
    session.known.set(rel, stat);
    if (!session.closed) session.emit({ kind, path: rel, ...stat });
  }
}
