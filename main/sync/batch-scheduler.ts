import type { Clock } from '../base/clock.js';
import { INITIAL_BATCH_TIMER, stepBatchTimer, type BatchTimerEffect, type BatchTimerEvent, type BatchTimerState } from './batch-timer.js';
import type { BootTracker } from './boot-tracker.js';
import type { Change } from './coalescer.js';
import type { SerialQueue } from './serial-queue.js';

export interface BatchSchedulerDeps {
  clock: Clock;
  stabilityPollMs: number;
  boot: BootTracker;
  queue: SerialQueue;
  /** When the changes waiting settle (the coalescer's `dueAt()`), undefined when none wait. */
  dueAt(): number | undefined;
  /** Takes what settled now, if anything; `writing`: files were still being written. */
  takeSettled(): { changes: readonly Change[] | undefined; writing: boolean };
  runBatch(changes: readonly Change[], gen: number): Promise<void>;
}

/**
 * When a runner takes its next batch: batch-timer.ts decides, this performs it with one timer and one
 * tick at a time on the folder's serial queue.
 */
export class BatchScheduler {
  private state: BatchTimerState = INITIAL_BATCH_TIMER;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: BatchSchedulerDeps) {}

  /** Changes went into the coalescer (or may have): times the next batch. */
  arm(): void {
    const { boot, clock } = this.deps;
    void this.step({ type: 'arm', stopped: boot.stopped, dueAt: this.deps.dueAt(), now: clock.nowMs() });
  }

  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Applies a batch timer event and performs its effects; `gen`: the boot it serves. */
  private step(event: BatchTimerEvent, gen = this.deps.boot.generation): Promise<void> {
    const next = stepBatchTimer(this.state, event, { stabilityPollMs: this.deps.stabilityPollMs });
    this.state = next.state;
    return this.perform(next.effects, gen);
  }

  // Only `take-batch` waits: arming and firing take effect before the first await.
  private async perform(effects: readonly BatchTimerEffect[], gen: number): Promise<void> {
    const { boot, queue } = this.deps;
    for (const effect of effects) {
      switch (effect.type) {
        case 'set-timer':
          this.setTimer(effect.ms);
          break;
        case 'clear-timer':
          this.clear();
          break;
        case 'queue-tick':
          void queue.enqueue(() => this.step({ type: 'tick-started', current: !boot.stopped && boot.current(gen) }, gen));
          break;
        case 'take-batch':
          await this.takeBatch(gen);
          break;
      }
    }
  }

  private setTimer(ms: number): void {
    this.clear();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.step({ type: 'timer-fired' });
    }, ms);
    this.timer.unref();
  }

  private async takeBatch(gen: number): Promise<void> {
    const { boot, clock } = this.deps;
    const { changes, writing } = this.deps.takeSettled();
    if (changes) await this.deps.runBatch(changes, gen);
    const done = { tookBatch: changes !== undefined, writing, stopped: boot.stopped, dueAt: this.deps.dueAt(), now: clock.nowMs() };
    await this.step({ type: 'tick-done', current: boot.current(gen), ...done }, gen);
  }
}
