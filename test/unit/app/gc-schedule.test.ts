import { afterEach, describe, expect, it, vi } from 'vitest';
import { leaderRetrySeconds, startGcSchedule, type GcLeadership } from '../../../main/app/gc-schedule.js';
import { silentLogger } from '../../../main/base/logger.js';

describe('the periodic GC and its leader', () => {
  it('a follower asks to lead every interval, and at least every 30 s', () => {
    expect(leaderRetrySeconds(1)).toBe(1);
    expect(leaderRetrySeconds(30)).toBe(30);
    expect(leaderRetrySeconds(3600)).toBe(30);
  });

  it('one instance alone (SQLite) always leads', async () => {
    const schedule = await startGcSchedule({ intervalSeconds: 3600, leadership: null, runCycle: async () => undefined, logger: silentLogger });
    expect(schedule.leads()).toBe(true);
    schedule.close();
  });

  it('asks once before it serves and reports what the leadership says; a failed ask is not fatal', async () => {
    let leads = false;
    let asked = 0;
    const leadership: GcLeadership = {
      leads: () => leads,
      async attempt() {
        asked++;
        if (asked === 1) throw new Error('database away');
        return leads;
      },
    };
    const schedule = await startGcSchedule({ intervalSeconds: 3600, leadership, runCycle: async () => undefined, logger: silentLogger });
    expect(asked).toBe(1);
    expect(schedule.leads()).toBe(false);
    leads = true;
    expect(schedule.leads()).toBe(true);
    schedule.close();
  });

  describe('a new interval (the gc_interval_seconds setting changed)', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('applies from the change on: the next cycle comes that long after it, and then every that long', async () => {
      vi.useFakeTimers();
      let cycles = 0;
      const schedule = await startGcSchedule({ intervalSeconds: 3600, leadership: null, runCycle: async () => cycles++, logger: silentLogger });
      await vi.advanceTimersByTimeAsync(1800_000);
      schedule.reschedule(60);
      await vi.advanceTimersByTimeAsync(59_000);
      expect(cycles).toBe(0);
      await vi.advanceTimersByTimeAsync(1000);
      expect(cycles).toBe(1);
      await vi.advanceTimersByTimeAsync(120_000);
      expect(cycles).toBe(3);
      schedule.close();
      // Closed, a late change starts nothing again.
      schedule.reschedule(1);
      await vi.advanceTimersByTimeAsync(10_000);
      expect(cycles).toBe(3);
    });

    it('a follower asks to lead at the new pace too', async () => {
      vi.useFakeTimers();
      let asked = 0;
      const leadership: GcLeadership = { leads: () => false, attempt: async () => (asked++, false) };
      const schedule = await startGcSchedule({ intervalSeconds: 3600, leadership, runCycle: async () => undefined, logger: silentLogger });
      expect(asked).toBe(1);
      schedule.reschedule(5);
      await vi.advanceTimersByTimeAsync(10_000);
      expect(asked).toBe(3);
      schedule.close();
    });
  });
});
