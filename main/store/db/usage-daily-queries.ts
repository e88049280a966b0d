import { stmt, type Db } from './database.js';
import type { DailyUsageRow } from '../repositories/usage.js';

/** Usage per account per UTC day (migration 12). */

interface RawDaily {
  day: string;
  ingress: number;
  egress: number;
  pinned_bytes: number;
  pinned_count: number;
}

function toDaily(raw: RawDaily): DailyUsageRow {
  return { day: raw.day, ingress: raw.ingress, egress: raw.egress, pinnedBytes: raw.pinned_bytes, pinnedCount: raw.pinned_count };
}

/**
 * Mirrors a usage counter write into the day's row, in one upsert: adds the ingress and egress increments
 * and copies pinned_bytes and pinned_count from the `usage` row as they are now (after the write).
 */
export function mirrorDailyUsage(db: Db, accountId: number, day: string, ingress: number, egress: number): void {
  stmt(
    db,
    `INSERT INTO usage_daily (account_id, day, ingress, egress, pinned_bytes, pinned_count)
     SELECT account_id, ?, ?, ?, pinned_bytes, pinned_count FROM usage WHERE account_id = ?
     ON CONFLICT (account_id, day) DO UPDATE SET ingress = ingress + excluded.ingress, egress = egress + excluded.egress,
       pinned_bytes = excluded.pinned_bytes, pinned_count = excluded.pinned_count`,
  ).run(day, ingress, egress, accountId);
}

/** The account's rows from `firstDay` on, oldest first. */
export function dailyUsageFrom(db: Db, accountId: number, firstDay: string): DailyUsageRow[] {
  return (
    stmt(db, 'SELECT day, ingress, egress, pinned_bytes, pinned_count FROM usage_daily WHERE account_id = ? AND day >= ? ORDER BY day').all(
      accountId,
      firstDay,
    ) as RawDaily[]
  ).map(toDaily);
}

/** The account's last row before `firstDay`: where the pinned values of the days after it come from. */
export function dailyUsageBefore(db: Db, accountId: number, firstDay: string): DailyUsageRow | null {
  const raw = stmt(
    db,
    'SELECT day, ingress, egress, pinned_bytes, pinned_count FROM usage_daily WHERE account_id = ? AND day < ? ORDER BY day DESC LIMIT 1',
  ).get(accountId, firstDay) as RawDaily | undefined;
  return raw ? toDaily(raw) : null;
}
