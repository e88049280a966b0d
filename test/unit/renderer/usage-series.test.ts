import { describe, expect, it } from 'vitest';
import { isEmptyAccount, storageSummary, trafficSummary, usageSeries } from '../../../renderer/lib/usage-series.js';
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

  it('calls an account empty only when nothing at all happened in it', () => {
    expect(isEmptyAccount({ pinned_count: 0, ingress: 0, egress: 0, ipns: 0 })).toBe(true);
    expect(isEmptyAccount({ pinned_count: 0, ingress: 1, egress: 0, ipns: 0 })).toBe(false);
    expect(isEmptyAccount({ pinned_count: 0, ingress: 0, egress: 0, ipns: 1 })).toBe(false);
  });
});
