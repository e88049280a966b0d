/**
 * When a folder runner takes its next batch, as a pure function: `stepBatchTimer(state, event)` answers
 * the next state and the effects the runner performs (one timer, one tick on the serial queue).
 *
 * - Changes waiting arm the timer for the coalescer's `dueAt()`; none waiting clears it.
 * - The timer queues one tick; while a tick waits on the queue, arming waits for it (the tick arms again
 *   once it ran), so a busy folder never piles ticks up.
 * - A tick takes what settled; when nothing settled because files are still being written, it looks
 *   again after `stabilityPollMs` (only while they are), else it arms for what is waiting.
 * - A tick of an older boot (`current: false`) does nothing and arms nothing.
 */

export interface BatchTimerState {
  /** A tick waits on the serial queue. */
  readonly tickQueued: boolean;
}

export const INITIAL_BATCH_TIMER: BatchTimerState = { tickQueued: false };

export type BatchTimerEvent =
  /** Changes went into the coalescer (or may have): time the next batch; `dueAt` is the coalescer's. */
  | { type: 'arm'; stopped: boolean; dueAt: number | undefined; now: number }
  | { type: 'timer-fired' }
  /** The queued tick runs. */
  | { type: 'tick-started'; current: boolean }
  /** The tick's batch is done, or nothing settled; `writing`: files were still being written. */
  | { type: 'tick-done'; current: boolean; tookBatch: boolean; writing: boolean; stopped: boolean; dueAt: number | undefined; now: number };

export type BatchTimerEffect =
  /** Fire `timer-fired` after `ms`, replacing a timer set before. */
  | { type: 'set-timer'; ms: number }
  | { type: 'clear-timer' }
  /** Queue a tick on the serial queue; it reports `tick-started`. */
  | { type: 'queue-tick' }
  /** Take what settled and run it as a batch; report `tick-done`. */
  | { type: 'take-batch' };

export interface BatchTimerTransition {
  state: BatchTimerState;
  effects: BatchTimerEffect[];
}

export interface BatchTimerTiming {
  stabilityPollMs: number;
}

function arm(state: BatchTimerState, stopped: boolean, dueAt: number | undefined, now: number): BatchTimerTransition {
  if (stopped || state.tickQueued) return { state, effects: [] };
  if (dueAt === undefined) return { state, effects: [{ type: 'clear-timer' }] };
  return { state, effects: [{ type: 'set-timer', ms: Math.max(0, dueAt - now) }] };
}

export function stepBatchTimer(state: BatchTimerState, event: BatchTimerEvent, timing: BatchTimerTiming): BatchTimerTransition {
  switch (event.type) {
    case 'arm':
      return arm(state, event.stopped, event.dueAt, event.now);
    case 'timer-fired':
      if (state.tickQueued) return { state, effects: [] };
      return { state: { tickQueued: true }, effects: [{ type: 'queue-tick' }] };
    case 'tick-started':
      return { state: { tickQueued: false }, effects: event.current ? [{ type: 'take-batch' }] : [] };
    case 'tick-done':
      if (!event.current) return { state, effects: [] };
      // Held for files still being written: look again shortly, whatever else is due.
      if (!event.tookBatch && event.writing) return { state, effects: [{ type: 'set-timer', ms: timing.stabilityPollMs }] };
      return arm(state, event.stopped, event.dueAt, event.now);
  }
}
