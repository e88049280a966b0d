import { describe, expect, it } from 'vitest';
import { chartDays, isEmptyAccount, storageSummary, trafficSummary, usageSeries } from '../../../renderer/lib/usage-series.js';
import type { DailyUsage } from '../../../shared/api-types.js';

const MiB = 1024 ** 2;
const day = (date: string, ingress: number, egress: number, pinned: number, pins: number): DailyUsage => ({
  day: date,
  ingress,
  egress,
  pinned_bytes: pinned,
  pinned_count: pins,
});

const DAYS = [day('2026-11-23', 0, 0, 0, 0), day('2026-11-24', 10 * MiB, MiB, 4 * MiB, 2), day('2026-11-25', 2 * MiB, 0, 6 * MiB, 3)];

describe('usage series', () => {
  it('turns days into uPlot columns at UTC midnight', () => {
    const series = usageSeries(DAYS);
    expect(series.x).toEqual([Date.UTC(2026, 10, 23) / 1000, Date.UTC(2026, 10, 24) / 1000, Date.UTC(2026, 10, 25) / 1000]);
    expect(series.ingress).toEqual([0, 10 * MiB, 2 * MiB]);
    expect(series.pinnedBytes).toEqual([0, 4 * MiB, 6 * MiB]);
    expect(series.pinnedCount).toEqual([0, 2, 3]);
  });

  it('says in words what the charts show', () => {
    expect(trafficSummary(DAYS)).toBe('Last 3 days: 12 MiB uploaded, 1 MiB served. Busiest day: Nov 24, 10 MiB uploaded, 1 MiB served.');
    expect(trafficSummary([day('2026-11-25', 0, 0, 0, 0)])).toBe('Last 1 day: nothing uploaded or served yet.');
    expect(storageSummary(DAYS)).toBe('Pinned storage went from 0 B to 6 MiB (3 pins) over the last 3 days.');
    expect(storageSummary([day('2026-11-25', 0, 0, MiB, 1), day('2026-11-26', 0, 0, MiB, 1)])).toBe(
      'Pinned storage stayed at 1 MiB (1 pin) over the last 2 days.',
    );
    expect(storageSummary([])).toBe('No pinned storage recorded yet.');
  });

  it('charts from the first day something happened, but never fewer than seven days', () => {
    const month = Array.from({ length: 30 }, (_, index) => day(`2026-10-${String(index + 1).padStart(2, '0')}`, 0, 0, 0, 0));
    const yesterdayOnly = [...month.slice(0, 29), day('2026-10-30', 2048, 0, 2048, 1)];
    expect(chartDays(yesterdayOnly).map((entry) => entry.day)).toEqual(yesterdayOnly.slice(23).map((entry) => entry.day));
    expect(chartDays(month)).toHaveLength(7);
    // A day with storage but no traffic counts as something happened; every day from it on is kept.
    const fromTenth = month.map((entry, index) => (index >= 9 ? { ...entry, pinned_bytes: MiB } : entry));
    expect(chartDays(fromTenth)[0]?.day).toBe('2026-10-10');
    expect(chartDays(fromTenth)).toHaveLength(21);
    expect(chartDays(DAYS)).toEqual(DAYS);
    expect(chartDays([])).toEqual([]);
  });

  it('calls an account empty only when nothing at all happened in it', () => {
    expect(isEmptyAccount({ pinned_count: 0, ingress: 0, egress: 0, ipns: 0 })).toBe(true);
    expect(isEmptyAccount({ pinned_count: 0, ingress: 1, egress: 0, ipns: 0 })).toBe(false);
    expect(isEmptyAccount({ pinned_count: 0, ingress: 0, egress: 0, ipns: 1 })).toBe(false);
  });
});
