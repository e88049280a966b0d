import { unixSeconds } from '../base/clock.js';
import { BadInputError } from '../base/errors.js';
import type { BootTracker } from './boot-tracker.js';
import type { FirstSync } from './first-sync.js';
import type { RunnerContext } from './runner-context.js';
import { nextSteps, type RunnerEvent, type RunnerStep } from './runner-policy.js';
import type { SerialQueue } from './serial-queue.js';
import type { StatusKeeper } from './status-keeper.js';

export interface RecoveryDeps {
  ctx: RunnerContext;
  boot: BootTracker;
  queue: SerialQueue;
  status: StatusKeeper;
  firstSync: FirstSync;
  /** Halts the boot under way for a pause or a failure (a new generation). */
  haltBoot(): Promise<void>;
  /** Boots again (from the folder's queue). */
  bootAgain(): Promise<void>;
  /** Scans the whole folder for the boot of generation `gen`. */
  rescanAll(gen: number): Promise<void>;
}

/**
 * How a runner recovers: runner-policy.ts decides the steps on each event (a gone root, a failure, a
 * user's rescan or retry, a retry due); this takes them, with the one retry timer.
 */
export class RunnerRecovery {
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: RecoveryDeps) {}

  /** Takes the steps the recovery policy decides on `event`. */
  async take(event: RunnerEvent): Promise<void> {
    const { status, boot, ctx } = this.deps;
    for (const step of nextSteps({ state: status.state, stopped: boot.stopped }, event, ctx.retry)) await this.perform(step);
  }

  /** The folder root failed the unmounted-drive rule. */
  pauseForRoot(reason: string): Promise<void> {
    return this.take({ type: 'root-gone', reason });
  }

  /** A boot, scan or batch of generation `gen` failed. */
  afterFailure(error: unknown, gen: number): Promise<void> {
    return this.take({ type: 'failed', error, current: this.deps.boot.current(gen) });
  }

  clearRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  private async perform(step: RunnerStep): Promise<void> {
    const { deps } = this;
    switch (step.type) {
      case 'boot':
        return deps.bootAgain();
      case 'rescan-all':
        return deps.rescanAll(deps.boot.generation);
      case 'pause':
        return this.pause(step.reason);
      case 'fail':
        return this.fail(step.error, step.message);
      case 'retry-later':
        return this.retryLater(step.after, step.ms);
      case 'check-root': {
        const check = await deps.ctx.checkRoot();
        return this.take({ type: 'root-checked', ok: check.ok });
      }
    }
  }

  private async pause(reason: string): Promise<void> {
    const { ctx, status } = this.deps;
    await this.deps.haltBoot();
    status.note({ type: 'stopped', state: 'paused', reason, at: unixSeconds(ctx.clock) });
    ctx.logger.warn('sync folder paused', { folderId: ctx.folderId, path: ctx.folderPath, reason });
    this.deps.firstSync.settle(new BadInputError(`path: ${reason}`));
    return this.take({ type: 'paused' });
  }

  private async fail(error: unknown, message: string): Promise<void> {
    const { ctx, status } = this.deps;
    ctx.logger.error('sync batch failed', { folderId: ctx.folderId, path: ctx.folderPath, error });
    this.deps.firstSync.settle(error);
    await this.deps.haltBoot();
    status.note({ type: 'stopped', state: 'error', reason: message, at: unixSeconds(ctx.clock) });
    return this.take({ type: 'errored' });
  }

  /** Reports `retry-due` after `ms`, on the folder's queue, for the boot running now. */
  private retryLater(after: 'error' | 'root-gone', ms: number): void {
    const { boot, queue } = this.deps;
    const gen = boot.generation;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void queue.enqueue(() => this.take({ type: 'retry-due', after, current: boot.current(gen) }));
    }, ms);
    this.retryTimer.unref();
  }
}
