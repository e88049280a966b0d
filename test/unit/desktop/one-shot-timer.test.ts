import { describe, expect, it } from 'vitest';
import { OneShotTimer, type SupervisorTimers } from '../../../main/desktop/one-shot-timer.js';

/** Timers moved by hand: `pending` holds what is scheduled, by handle. */
function handTimers(): SupervisorTimers & { pending: Map<number, () => void> } {
  const pending = new Map<number, () => void>();
  let next = 0;
  return {
    pending,
    setTimeout(callback) {
      pending.set(++next, callback);
      return next;
    },
    clearTimeout(handle) {
      pending.delete(handle as number);
    },
  };
}

describe('one-shot timer', () => {
  it('fires once, then has nothing left to cancel', () => {
    const timers = handTimers();
    const timer = new OneShotTimer(timers);
    let fired = 0;
    timer.schedule(100, () => fired++);
    const [[handle, fire]] = [...timers.pending] as [[number, () => void]];
    timers.pending.delete(handle);
    fire();
    expect(fired).toBe(1);
    timers.pending.set(handle, () => undefined);
    timer.cancel();
    // A fired timer forgot its handle: cancelling later clears nothing that reuses it.
    expect(timers.pending.has(handle)).toBe(true);
  });

  it('a cancel clears what is pending, and a second cancel does nothing', () => {
    const timers = handTimers();
    const timer = new OneShotTimer(timers);
    timer.schedule(100, () => undefined);
    expect(timers.pending.size).toBe(1);
    timer.cancel();
    expect(timers.pending.size).toBe(0);
    timer.cancel();
    expect(timers.pending.size).toBe(0);
  });
});
