import type { DailyUsageRow, UsageColumn, UsageRow } from '../repositories/usage.js';
import { int, orNull, type Int } from '../sql/columns.js';
import { ROW_LOCK } from '../sql/dialects.js';
import { queryRow, queryRows, statement } from '../sql/query.js';
import { sql, type Sql } from '../sql/sql.js';

/**
 * The usage counters of the billing period and their daily mirror (UsageRepository). Counters move in
 * single statements (`x = x + amount`), so concurrent writers (PostgreSQL's instances) add up.
 */

interface RawUsage {
  account_id: Int;
  period_start: Int;
  ingress: Int;
  egress: Int;
  pinned_count: Int;
  pinned_bytes: Int;
  ipns_count: Int;
}

/**
 * Inside a PostgreSQL transaction the row is locked until it ends (ROW_LOCK): the domain reads usage to judge
 * a plan limit or to reset a past period and then writes it, and another instance's transaction on the
 * account waits. SQLite serves it from its read cache (store/db's binding).
 */
export const usageOf = queryRow(
  (accountId: number) =>
    sql`SELECT account_id, period_start, ingress, egress, pinned_count, pinned_bytes, ipns_count FROM usage WHERE account_id = ${accountId}${ROW_LOCK}`,
  (raw: RawUsage | undefined, [accountId]): UsageRow => {
    if (!raw) throw new Error(`usage row missing for account ${accountId}`);
    return {
      accountId: int(raw.account_id),
      periodStart: int(raw.period_start),
      ingress: int(raw.ingress),
      egress: int(raw.egress),
      pinnedCount: int(raw.pinned_count),
      pinnedBytes: int(raw.pinned_bytes),
      ipnsCount: int(raw.ipns_count),
    };
  },
);

/** One statement per column, each its own cached statement. */
const ADD: Record<UsageColumn, (accountId: number, amount: number) => Sql> = {
  ingress: (accountId, amount) => sql`UPDATE usage SET ingress = ingress + ${amount} WHERE account_id = ${accountId}`,
  egress: (accountId, amount) => sql`UPDATE usage SET egress = egress + ${amount} WHERE account_id = ${accountId}`,
  pinned_count: (accountId, amount) => sql`UPDATE usage SET pinned_count = pinned_count + ${amount} WHERE account_id = ${accountId}`,
  pinned_bytes: (accountId, amount) => sql`UPDATE usage SET pinned_bytes = pinned_bytes + ${amount} WHERE account_id = ${accountId}`,
  ipns_count: (accountId, amount) => sql`UPDATE usage SET ipns_count = ipns_count + ${amount} WHERE account_id = ${accountId}`,
};

/** One atomic UPDATE: never a read-modify-write. */
export const addUsage = statement((accountId: number, column: UsageColumn, amount: number) => ADD[column](accountId, amount));

/**
 * Starts a new period: only when the row is still on an earlier one, so that of two instances that both saw
 * last month's row (outside a transaction nothing locks it), the later reset does not zero what the new
 * period has counted since. (The domain calls it only for a later start.)
 */
export const resetPeriod = statement(
  (accountId: number, periodStart: number) =>
    sql`UPDATE usage SET period_start = ${periodStart}, ingress = 0, egress = 0 WHERE account_id = ${accountId} AND period_start < ${periodStart}`,
);

// ---- usage_daily: usage per account per UTC day ----

interface RawDaily {
  day: string;
  ingress: Int;
  egress: Int;
  pinned_bytes: Int;
  pinned_count: Int;
}

function toDaily(raw: RawDaily): DailyUsageRow {
  return { day: raw.day, ingress: int(raw.ingress), egress: int(raw.egress), pinnedBytes: int(raw.pinned_bytes), pinnedCount: int(raw.pinned_count) };
}

/**
 * Mirrors a usage counter write into the day's row, in one upsert: adds the ingress and egress increments
 * and copies pinned_bytes and pinned_count from the `usage` row as they are now (after the write).
 */
export const mirrorDailyUsage = statement(
  (accountId: number, day: string, ingress: number, egress: number) =>
    sql`INSERT INTO usage_daily (account_id, day, ingress, egress, pinned_bytes, pinned_count)
        SELECT account_id, ${day}, ${ingress}, ${egress}, pinned_bytes, pinned_count FROM usage WHERE account_id = ${accountId}
        ON CONFLICT (account_id, day) DO UPDATE SET ingress = usage_daily.ingress + excluded.ingress, egress = usage_daily.egress + excluded.egress,
          pinned_bytes = excluded.pinned_bytes, pinned_count = excluded.pinned_count`,
);

/** The account's rows from `firstDay` on, oldest first ('YYYY-MM-DD' sorts the same under any collation). */
export const dailyUsageFrom = queryRows(
  (accountId: number, firstDay: string) =>
    sql`SELECT day, ingress, egress, pinned_bytes, pinned_count FROM usage_daily WHERE account_id = ${accountId} AND day >= ${firstDay} ORDER BY day`,
  toDaily,
);

/** The account's last row before `firstDay`: where the pinned values of the days after it come from. */
export const dailyUsageBefore = queryRow(
  (accountId: number, firstDay: string) =>
    sql`SELECT day, ingress, egress, pinned_bytes, pinned_count FROM usage_daily WHERE account_id = ${accountId} AND day < ${firstDay} ORDER BY day DESC LIMIT 1`,
  orNull(toDaily),
);
