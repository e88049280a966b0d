import { describe, expect, it } from 'vitest';
import { PublishSchedule, retryBackoffMs, type PublishTiming } from '../../../main/names/publish-schedule.js';

const timing: PublishTiming = { refreshMs: 4_000_000, retryFirstMs: 5_000, retryMaxMs: 60_000, minPutIntervalMs: 10_000, concurrentPuts: 2 };
/** No jitter: a retry comes after 0.75 of its backoff. */
const noJitter = (): number => 0;

describe('network publish schedule', () => {
  it('a new record is due at once, and a burst puts the next one a min interval after the last put began', () => {
    const schedule = new PublishSchedule(timing, noJitter);
    schedule.markDue('k1', 1_000);
    expect(schedule.earliestDue()).toBe(1_000);
    const [first] = schedule.takeDue(1_000);
    expect(first).toEqual({ name: 'k1', version: 1 });
    // Being put: not due again, and no timer is wanted for it.
    expect(schedule.earliestDue()).toBe(Infinity);
    schedule.markDue('k1', 2_000);
    schedule.putEnded(first!, 'done', 3_000);
    schedule.release('k1');
    // The put was for version 1; version 2 is due 10 s after that put began.
    expect(schedule.earliestDue()).toBe(11_000);
    expect(schedule.takeDue(10_999)).toEqual([]);
    expect(schedule.takeDue(11_000)).toEqual([{ name: 'k1', version: 2 }]);
  });

  it('a record accepted everywhere is put again after refreshMs', () => {
    const schedule = new PublishSchedule(timing, noJitter);
    schedule.markDue('k1', 0);
    const [task] = schedule.takeDue(0);
    schedule.putEnded(task!, 'done', 500);
    schedule.release('k1');
    expect(schedule.earliestDue()).toBe(500 + timing.refreshMs);
  });

  it('a failed put is retried with a doubling backoff, and a name gone is dropped', () => {
    const schedule = new PublishSchedule(timing, noJitter);
    schedule.markDue('k1', 0);
    let now = 0;
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      const [task] = schedule.takeDue(now);
      schedule.putEnded(task!, 'failed', now);
      schedule.release('k1');
      waits.push(schedule.earliestDue() - now);
      now = schedule.earliestDue();
    }
    expect(waits).toEqual([3_750, 7_500, 15_000]);
    const [task] = schedule.takeDue(now);
    schedule.putEnded(task!, 'gone', now);
    schedule.release('k1');
    expect(schedule.earliestDue()).toBe(Infinity);
  });

  it('puts at most concurrentPuts names at once', () => {
    const schedule = new PublishSchedule(timing, noJitter);
    for (const name of ['a', 'b', 'c']) schedule.markDue(name, 0);
    const tasks = schedule.takeDue(0);
    expect(tasks.map((task) => task.name)).toEqual(['a', 'b']);
    expect(schedule.full).toBe(true);
    expect(schedule.takeDue(0)).toEqual([]);
    schedule.putEnded(tasks[0]!, 'done', 0);
    schedule.release('a');
    expect(schedule.takeDue(0).map((task) => task.name)).toEqual(['c']);
  });

  it('a withdrawn name is not due, and its put under way counts for nothing', () => {
    const schedule = new PublishSchedule(timing, noJitter);
    schedule.markDue('k1', 0);
    const [task] = schedule.takeDue(0);
    schedule.withdraw('k1');
    schedule.putEnded(task!, 'done', 100);
    schedule.release('k1');
    expect(schedule.earliestDue()).toBe(Infinity);
    // And its next record is due at once: the last put's time went with it.
    schedule.markDue('k1', 200);
    expect(schedule.earliestDue()).toBe(200);
  });

  it('the backoff is capped at retryMaxMs and jittered into its last quarter', () => {
    expect(retryBackoffMs(1, timing, 0)).toBe(3_750);
    expect(retryBackoffMs(1, timing, 1)).toBe(5_000);
    expect(retryBackoffMs(30, timing, 0.5)).toBe(60_000 * 0.875);
  });
});
