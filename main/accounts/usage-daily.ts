import type { DailyUsage } from '../../shared/api-types.js';
import type { DailyUsageRow } from '../store/repositories/usage.js';
import type { AccountsContext } from './context.js';

/**
 * Usage per day (issue 12, `GET /api/v0/stats/daily`): the series the Overview charts. usage.ts writes
 * the rows with every counter change; this reads them back as exactly N days ending today (UTC).
 */

export const DEFAULT_DAYS = 30;
export const MAX_DAYS = 366;
const DAY_MS = 24 * 60 * 60 * 1000;

/** 'YYYY-MM-DD' of the UTC day holding `ms`. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * Exactly `days` entries, oldest first, the last one the day of `todayMs`. A day without a row had no
 * ingress or egress, and held what the latest earlier day held (`before`, the last row before the
 * window; nothing before any row).
 */
export function fillDays(rows: readonly DailyUsageRow[], before: DailyUsageRow | null, todayMs: number, days: number): DailyUsage[] {
  const byDay = new Map(rows.map((row) => [row.day, row]));
  let pinnedBytes = before?.pinnedBytes ?? 0;
  let pinnedCount = before?.pinnedCount ?? 0;
  const series: DailyUsage[] = [];
  for (let back = days - 1; back >= 0; back--) {
    const day = utcDay(todayMs - back * DAY_MS);
    const row = byDay.get(day);
    if (row) {
      pinnedBytes = row.pinnedBytes;
      pinnedCount = row.pinnedCount;
    }
    series.push({ day, ingress: row?.ingress ?? 0, egress: row?.egress ?? 0, pinned_bytes: pinnedBytes, pinned_count: pinnedCount });
  }
  return series;
}

export async function dailyUsage(ctx: AccountsContext, accountId: number, days: number): Promise<DailyUsage[]> {
  const todayMs = ctx.clock.nowMs();
  const firstDay = utcDay(todayMs - (days - 1) * DAY_MS);
  // One transaction: no write lands between the two reads; none of the meter's commits either (see egress-meter.ts).
  const readDays = (): Promise<readonly [DailyUsageRow[], DailyUsageRow | null]> =>
    ctx.store.transaction(async (tx) => [await tx.usage.dailyUsageFrom(accountId, firstDay), await tx.usage.dailyUsageBefore(accountId, firstDay)] as const);
  const [rows, before] = await (ctx.egressMeter ? ctx.egressMeter.reading(readDays) : readDays());
  const series = fillDays(rows, before, todayMs, days);
  // Egress the meter has not written yet is today's, as stats count it.
  const today = series[series.length - 1];
  if (today) today.egress += ctx.egressMeter?.pending(accountId) ?? 0;
  return series;
}
