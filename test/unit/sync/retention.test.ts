import { describe, expect, it } from 'vitest';
import { BadInputError } from '../../../main/base/errors.js';
import { DEFAULT_RETENTION, formatRetention, keptVersions, parseRetention, type RetentionPolicy } from '../../../main/sync/retention.js';

const HOUR = 3600;
const DAY = 24 * HOUR;
/** A fixed "now": Wednesday 2026-11-25 12:00 UTC. */
const NOW = Date.UTC(2026, 10, 25, 12) / 1000;

/** Versions made at the given ages (seconds before NOW). */
function at(...ages: number[]) {
  return ages.map((age) => ({ createdAt: NOW - age }));
}

function keptAges(ages: number[], policy: RetentionPolicy, now = NOW): number[] {
  const versions = at(...ages);
  return [...keptVersions(versions, policy, now)].map((index) => ages[index] as number).sort((a, b) => a - b);
}

describe('keptVersions', () => {
  it('keeps every version of the last 24 hours under the default policy', () => {
    const ages = [0, 60, HOUR, 5 * HOUR, 23 * HOUR];
    expect(keptAges(ages, DEFAULT_RETENTION)).toEqual(ages);
  });

  it('keeps the newest version of each UTC day for 30 days, then of each week for a year, then nothing', () => {
    // Day 3 before now has three versions (morning, noon, evening): the evening one stays.
    const day3 = NOW - 3 * DAY;
    const startOfDay3 = Math.floor(day3 / DAY) * DAY;
    const ages = [0, NOW - (startOfDay3 + 8 * HOUR), NOW - (startOfDay3 + 12 * HOUR), NOW - (startOfDay3 + 20 * HOUR)];
    expect(keptAges(ages, DEFAULT_RETENTION)).toEqual([0, NOW - (startOfDay3 + 20 * HOUR)]);

    // One version a day for 400 days: 30 dailies (ages 1..30 days; age 0 is the current one), about 48
    // weeklies beyond them, and nothing older than a year.
    const daily = Array.from({ length: 400 }, (_, i) => i * DAY);
    const kept = keptAges(daily, DEFAULT_RETENTION);
    expect(kept.filter((age) => age <= 30 * DAY)).toEqual(Array.from({ length: 31 }, (_, i) => i * DAY));
    const weeklies = kept.filter((age) => age > 30 * DAY);
    expect(weeklies.length).toBeGreaterThanOrEqual(47);
    expect(weeklies.length).toBeLessThanOrEqual(48);
    expect(Math.max(...kept)).toBeLessThanOrEqual(365 * DAY);
    // One per week: no two kept weeklies in the same 7-day period.
    const periods = weeklies.map((age) => Math.floor((NOW - age) / (7 * DAY)));
    expect(new Set(periods).size).toBe(weeklies.length);
  });

  it('always keeps the current (newest) version, whatever the policy and its age', () => {
    const ancient = [900 * DAY, 1000 * DAY];
    expect(keptAges(ancient, DEFAULT_RETENTION)).toEqual([900 * DAY]);
    expect(keptAges(ancient, { keep: 'none' })).toEqual([900 * DAY]);
    expect(keptAges([], DEFAULT_RETENTION)).toEqual([]);
  });

  it('keep all keeps everything; keep none only the current version', () => {
    const ages = [0, DAY, 400 * DAY];
    expect(keptAges(ages, { keep: 'all' })).toEqual(ages);
    expect(keptAges(ages, { keep: 'none' })).toEqual([0]);
  });

  it('never wants back a version it released earlier, as time moves on (default policy)', () => {
    // Versions every 5 hours for 60 days; the clock moves 6 hours at a time for a year. Over the whole
    // set, what is kept at each step must be a subset of what was kept the step before: a version left
    // out once is gone (GC frees its blocks) and could not be kept again.
    const versions = Array.from({ length: (60 * 24) / 5 }, (_, i) => ({ createdAt: NOW - 60 * DAY + i * 5 * HOUR }));
    let previous = keptVersions(versions, DEFAULT_RETENTION, NOW);
    for (let step = 1; step <= 4 * 400; step++) {
      const kept = keptVersions(versions, DEFAULT_RETENTION, NOW + step * 6 * HOUR);
      const reappeared = [...kept].filter((index) => !previous.has(index));
      expect(reappeared, `step ${step}`).toEqual([]);
      previous = kept;
    }
    expect(previous.size).toBe(1);
  });
});

describe('parseRetention / formatRetention', () => {
  it('reads all, none and tiers, sorted by age, and writes them back', () => {
    expect(parseRetention('all')).toEqual({ keep: 'all' });
    expect(parseRetention(' none ')).toEqual({ keep: 'none' });
    expect(parseRetention('1y:1w, 24h:all, 30d:1d')).toEqual(DEFAULT_RETENTION);
    expect(formatRetention(DEFAULT_RETENTION)).toBe('1d:all,30d:1d,1y:1w');
    expect(parseRetention(formatRetention(DEFAULT_RETENTION))).toEqual(DEFAULT_RETENTION);
    expect(formatRetention(parseRetention('90m:all,2w:12h'))).toBe('90m:all,2w:12h');
  });

  it('refuses anything else with a message naming what is wrong', () => {
    const bad = ['', 'some', '24h', '24h:all:1', '0d:all', '24x:all', '30d:0h', '-1d:1h', '101y:all', '1d:1.5h', Array(17).fill('1d:all').join(',')];
    for (const text of bad) expect(() => parseRetention(text), text).toThrow(BadInputError);
    expect(() => parseRetention('24x:all')).toThrow(/keep: within "24x"/);
    expect(() => parseRetention('30d:soon')).toThrow(/keep: every "soon"/);
  });
});
