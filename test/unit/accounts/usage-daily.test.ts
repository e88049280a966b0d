import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOwner, createPartnerUser } from '../../../main/accounts/accounts.js';
import { record } from '../../../main/accounts/usage.js';
import { dailyUsage, fillDays, utcDay } from '../../../main/accounts/usage-daily.js';
import type { DailyUsageRow } from '../../../main/store/repositories/usage.js';
import { accountsFixture, type AccountsFixture } from './accounts-fixture.js';
import { manualClock, type ManualClock } from '../../helpers/manual-clock.js';

const DAY = 24 * 3600 * 1000;
const TODAY = Date.UTC(2026, 10, 25, 23, 59, 59);

function row(day: string, values: Partial<DailyUsageRow> = {}): DailyUsageRow {
  return { day, ingress: 0, egress: 0, pinnedBytes: 0, pinnedCount: 0, ...values };
}

describe('usage per day: the series', () => {
  it('is exactly N UTC days, oldest first, ending today', () => {
    const series = fillDays([], null, TODAY, 5);
    expect(series.map((day) => day.day)).toEqual(['2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24', '2026-11-25']);
    expect(fillDays([], null, TODAY, 1).map((day) => day.day)).toEqual(['2026-11-25']);
    expect(fillDays([], null, TODAY, 366)).toHaveLength(366);
    expect(fillDays([], null, Date.UTC(2026, 0, 2), 3).map((day) => day.day)).toEqual(['2025-12-31', '2026-01-01', '2026-01-02']);
    expect(utcDay(Date.UTC(2026, 10, 25, 23, 59, 59, 999))).toBe('2026-11-25');
    expect(utcDay(Date.UTC(2026, 10, 26))).toBe('2026-11-26');
  });

  it('a day without a row has no traffic and holds the pinned values of the latest earlier day (0 before any)', () => {
    const rows = [row('2026-11-22', { ingress: 5, egress: 7, pinnedBytes: 100, pinnedCount: 1 }), row('2026-11-24', { pinnedBytes: 40, pinnedCount: 2 })];
    expect(fillDays(rows, null, TODAY, 5)).toEqual([
      { day: '2026-11-21', ingress: 0, egress: 0, pinned_bytes: 0, pinned_count: 0 },
      { day: '2026-11-22', ingress: 5, egress: 7, pinned_bytes: 100, pinned_count: 1 },
      { day: '2026-11-23', ingress: 0, egress: 0, pinned_bytes: 100, pinned_count: 1 },
      { day: '2026-11-24', ingress: 0, egress: 0, pinned_bytes: 40, pinned_count: 2 },
      { day: '2026-11-25', ingress: 0, egress: 0, pinned_bytes: 40, pinned_count: 2 },
    ]);
    const before = row('2026-10-01', { ingress: 999, pinnedBytes: 9, pinnedCount: 3 });
    expect(fillDays([], before, TODAY, 2)).toEqual([
      { day: '2026-11-24', ingress: 0, egress: 0, pinned_bytes: 9, pinned_count: 3 },
      { day: '2026-11-25', ingress: 0, egress: 0, pinned_bytes: 9, pinned_count: 3 },
    ]);
  });
});

describe('usage per day: written with the counters', () => {
  let clock: ManualClock;
  let fx: AccountsFixture;
  let id: number;
  beforeEach(async () => {
    clock = manualClock(TODAY - 2 * DAY);
    fx = accountsFixture(clock);
    id = (await createOwner(fx.ctx)).id;
  });
  afterEach(() => fx.close());

  it("ingress and egress add up per day; pinned values are those after the day's last change, carried to quiet days", async () => {
    await fx.ctx.store.transaction((tx) => record(fx.ctx, tx, id, 'ingress', 100));
    await fx.ctx.store.transaction((tx) => record(fx.ctx, tx, id, 'ingress', 23));
    await fx.ctx.store.transaction((tx) => record(fx.ctx, tx, id, 'egress', 50));
    await fx.ctx.store.transaction((tx) => record(fx.ctx, tx, id, 'pinned_count', 2));
    await fx.ctx.store.transaction((tx) => record(fx.ctx, tx, id, 'pinned_bytes', 1000));
    await fx.ctx.store.transaction((tx) => record(fx.ctx, tx, id, 'ipns', 1));
    clock.set(TODAY - DAY);
    await fx.ctx.store.transaction((tx) => record(fx.ctx, tx, id, 'pinned_count', -1));
    await fx.ctx.store.transaction((tx) => record(fx.ctx, tx, id, 'pinned_bytes', -400));
    await fx.ctx.store.transaction((tx) => record(fx.ctx, tx, id, 'egress', 7));
    clock.set(TODAY);
    expect(await dailyUsage(fx.ctx, id, 4)).toEqual([
      { day: '2026-11-22', ingress: 0, egress: 0, pinned_bytes: 0, pinned_count: 0 },
      { day: '2026-11-23', ingress: 123, egress: 50, pinned_bytes: 1000, pinned_count: 2 },
      { day: '2026-11-24', ingress: 0, egress: 7, pinned_bytes: 600, pinned_count: 1 },
      { day: '2026-11-25', ingress: 0, egress: 0, pinned_bytes: 600, pinned_count: 1 },
    ]);
  });

  it('a counter write rolled back with its transaction leaves no daily trace', async () => {
    await fx.ctx.store.transaction((tx) => record(fx.ctx, tx, id, 'ingress', 10));
    await expect(
      fx.ctx.store.transaction(async (tx) => {
        await record(fx.ctx, tx, id, 'ingress', 5);
        throw new Error('refused after the write');
      }),
    ).rejects.toThrow('refused after the write');
    expect((await dailyUsage(fx.ctx, id, 1))[0]).toMatchObject({ day: '2026-11-23', ingress: 10 });
  });

  it("another account's usage is not in the series", async () => {
    const owner = await fx.ctx.store.accounts.accountById(id);
    if (!owner) throw new Error('no owner');
    const otherId = (await createPartnerUser(fx.ctx, owner, { uuid: 'other', name: 'other', email: 'o@example.com' })).id;
    await fx.ctx.store.transaction((tx) => record(fx.ctx, tx, otherId, 'ingress', 77));
    expect((await dailyUsage(fx.ctx, id, 1))[0]).toMatchObject({ ingress: 0 });
    expect((await dailyUsage(fx.ctx, otherId, 1))[0]).toMatchObject({ ingress: 77 });
  });
});
