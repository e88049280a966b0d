import { describe, expect, it } from 'vitest';
import { INITIAL_BATCH_TIMER, stepBatchTimer, type BatchTimerEffect, type BatchTimerEvent, type BatchTimerState } from '../../../main/sync/batch-timer.js';

const timing = { stabilityPollMs: 250 };

/**
 * The runner's side of the timer over a fake clock: one timer, a serial queue, a coalescer reduced to
 * its due time, and files being written or not. Nothing sleeps: `advance` moves the clock and fires
 * what is due.
 */
function fakeRunner() {
  let now = 1_000;
  let state: BatchTimerState = INITIAL_BATCH_TIMER;
  let timerAt: number | undefined;
  let dueAt: number | undefined;
  let writing = false;
  let queuedTicks = 0;
  const batches: number[] = [];
  const step = (event: BatchTimerEvent): BatchTimerEffect[] => {
    const next = stepBatchTimer(state, event, timing);
    state = next.state;
    for (const effect of next.effects) {
      if (effect.type === 'set-timer') timerAt = now + effect.ms;
      else if (effect.type === 'clear-timer') timerAt = undefined;
      else if (effect.type === 'queue-tick') queuedTicks++;
    }
    return next.effects;
  };
  const arm = (): BatchTimerEffect[] => step({ type: 'arm', stopped: false, dueAt, now });
  return {
    get now() {
      return now;
    },
    get timerAt() {
      return timerAt;
    },
    get queuedTicks() {
      return queuedTicks;
    },
    batches,
    changes(due: number | undefined) {
      dueAt = due;
      return arm();
    },
    writing(on: boolean) {
      writing = on;
    },
    advance(ms: number) {
      now += ms;
      if (timerAt !== undefined && timerAt <= now) {
        timerAt = undefined;
        step({ type: 'timer-fired' });
      }
    },
    /** Runs one queued tick as the runner does: takes what settled, reports it done. */
    runTick() {
      queuedTicks--;
      const effects = step({ type: 'tick-started', current: true });
      if (!effects.some((e) => e.type === 'take-batch')) return;
      const settled = dueAt !== undefined && now >= dueAt && !writing;
      if (settled) {
        batches.push(now);
        dueAt = undefined;
      }
      step({ type: 'tick-done', current: true, tookBatch: settled, writing, stopped: false, dueAt, now });
    },
  };
}

describe('folder runner batch timer', () => {
  it('arms at the coalescer due time, queues one tick when it fires, and takes the batch', () => {
    const r = fakeRunner();
    expect(r.changes(1_500)).toEqual([{ type: 'set-timer', ms: 500 }]);
    r.advance(499);
    expect(r.queuedTicks).toBe(0);
    r.advance(1);
    expect(r.queuedTicks).toBe(1);
    r.runTick();
    expect(r.batches).toEqual([1_500]);
    expect(r.timerAt).toBeUndefined();
  });

  it('a due time already past fires at once; nothing waiting clears the timer', () => {
    const r = fakeRunner();
    expect(r.changes(900)).toEqual([{ type: 'set-timer', ms: 0 }]);
    expect(r.changes(undefined)).toEqual([{ type: 'clear-timer' }]);
  });

  it('while a tick waits on the queue, arming waits for it, and the tick arms again once it ran', () => {
    const r = fakeRunner();
    r.changes(1_100);
    r.advance(100);
    expect(r.queuedTicks).toBe(1);
    // More changes while the tick waits: no timer, no second tick.
    expect(r.changes(1_400)).toEqual([]);
    r.runTick();
    expect(r.batches).toEqual([]);
    expect(r.timerAt).toBe(1_400);
    r.advance(300);
    r.runTick();
    expect(r.batches).toEqual([1_400]);
  });

  it('holds the batch while files are written, polling every stabilityPollMs, and takes it once they are still', () => {
    const r = fakeRunner();
    r.changes(1_200);
    r.writing(true);
    r.advance(200);
    r.runTick();
    expect(r.batches).toEqual([]);
    expect(r.timerAt).toBe(1_450);
    r.advance(250);
    r.runTick();
    expect(r.timerAt).toBe(1_700);
    r.writing(false);
    r.advance(250);
    r.runTick();
    expect(r.batches).toEqual([1_700]);
  });

  it('a tick of an older boot takes nothing and arms nothing; a stopped runner arms nothing', () => {
    const queued = stepBatchTimer(INITIAL_BATCH_TIMER, { type: 'timer-fired' }, timing);
    expect(queued).toEqual({ state: { tickQueued: true }, effects: [{ type: 'queue-tick' }] });
    expect(stepBatchTimer(queued.state, { type: 'timer-fired' }, timing).effects).toEqual([]);
    expect(stepBatchTimer(queued.state, { type: 'tick-started', current: false }, timing)).toEqual({ state: { tickQueued: false }, effects: [] });
    const stale = { type: 'tick-done', current: false, tookBatch: false, writing: true, stopped: false, dueAt: 5, now: 0 } as const;
    expect(stepBatchTimer(INITIAL_BATCH_TIMER, stale, timing).effects).toEqual([]);
    expect(stepBatchTimer(INITIAL_BATCH_TIMER, { type: 'arm', stopped: true, dueAt: 5, now: 0 }, timing).effects).toEqual([]);
  });
});
