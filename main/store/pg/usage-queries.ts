import type { DailyUsageRow, UsageColumn, UsageRow } from '../repositories/usage.js';
import { int, row, rows, type Queryable } from './queryable.js';
import { lockInTransaction } from './row-lock.js';

/**
 * The usage counters of the billing period and their daily mirror: the PostgreSQL side of UsageRepository
 * (SQLite binds two modules into it, store/db/usage-queries.ts and usage-daily-queries.ts; here it is one).
 * Counters move in single statements (`x = x + $1`), so concurrent writers from several instances add up.
 */

interface RawUsage {
  account_id: string;
  period_start: string;
  ingress: string;
  egress: string;
  pinned_count: string;
  pinned_bytes: string;
  ipns_count: string;
}

/**
 * Read each time (SQLite serves it from its read cache; several instances share this database). Inside a
 * transaction the row is locked until it ends (row-lock.ts): the domain reads usage to judge a plan limit
 * or to reset a past period and then writes it, and another instance's transaction on the account waits.
 */
export async function usageOf(q: Queryable, accountId: number): Promise<UsageRow> {
  const raw = await row<RawUsage>(
    q,
    `SELECT account_id, period_start, ingress, egress, pinned_count, pinned_bytes, ipns_count FROM usage WHERE account_id = $1${lockInTransaction(q)}`,
    [accountId],
  );
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
}

const ADD_STATEMENTS: Record<UsageColumn, string> = {
  ingress: 'UPDATE usage SET ingress = ingress + $1 WHERE account_id = $2',
  egress: 'UPDATE usage SET egress = egress + $1 WHERE account_id = $2',
  pinned_count: 'UPDATE usage SET pinned_count = pinned_count + $1 WHERE account_id = $2',
  pinned_bytes: 'UPDATE usage SET pinned_bytes = pinned_bytes + $1 WHERE account_id = $2',
  ipns_count: 'UPDATE usage SET ipns_count = ipns_count + $1 WHERE account_id = $2',
};

/** One atomic UPDATE: never a read-modify-write. */
export async function addUsage(q: Queryable, accountId: number, column: UsageColumn, amount: number): Promise<void> {
  await q.query(ADD_STATEMENTS[column], [amount, accountId]);
}

/**
 * Starts a new period: only when the row is still on an earlier one, so that of two instances that both saw
 * last month's row (outside a transaction nothing locks it), the later reset does not zero what the new
 * period has counted since. (SQLite's resets unconditionally; the domain calls it only for a later start.)
 */
export async function resetPeriod(q: Queryable, accountId: number, periodStart: number): Promise<void> {
  await q.query('UPDATE usage SET period_start = $1, ingress = 0, egress = 0 WHERE account_id = $2 AND period_start < $1', [periodStart, accountId]);
}

// ---- usage_daily ----

interface RawDaily {
  day: string;
  ingress: string;
  egress: string;
  pinned_bytes: string;
  pinned_count: string;
}

function toDaily(raw: RawDaily): DailyUsageRow {
  return { day: raw.day, ingress: int(raw.ingress), egress: int(raw.egress), pinnedBytes: int(raw.pinned_bytes), pinnedCount: int(raw.pinned_count) };
}

/**
 * Mirrors a usage counter write into the day's row, in one upsert: adds the ingress and egress increments
 * and copies pinned_bytes and pinned_count from the `usage` row as they are now (after the write).
 */
export async function mirrorDailyUsage(q: Queryable, accountId: number, day: string, ingress: number, egress: number): Promise<void> {
  await q.query(
    `INSERT INTO usage_daily (account_id, day, ingress, egress, pinned_bytes, pinned_count)
     SELECT account_id, $1, $2, $3, pinned_bytes, pinned_count FROM usage WHERE account_id = $4
     ON CONFLICT (account_id, day) DO UPDATE SET ingress = usage_daily.ingress + EXCLUDED.ingress, egress = usage_daily.egress + EXCLUDED.egress,
       pinned_bytes = EXCLUDED.pinned_bytes, pinned_count = EXCLUDED.pinned_count`,
    [day, ingress, egress, accountId],
  );
}

/** The account's rows from `firstDay` on, oldest first ('YYYY-MM-DD' sorts the same under any collation). */
export async function dailyUsageFrom(q: Queryable, accountId: number, firstDay: string): Promise<DailyUsageRow[]> {
  return (
    await rows<RawDaily>(q, 'SELECT day, ingress, egress, pinned_bytes, pinned_count FROM usage_daily WHERE account_id = $1 AND day >= $2 ORDER BY day', [
      accountId,
      firstDay,
    ])
  ).map(toDaily);
}

/** The account's last row before `firstDay`: where the pinned values of the days after it come from. */
export async function dailyUsageBefore(q: Queryable, accountId: number, firstDay: string): Promise<DailyUsageRow | null> {
  const raw = await row<RawDaily>(
    q,
    'SELECT day, ingress, egress, pinned_bytes, pinned_count FROM usage_daily WHERE account_id = $1 AND day < $2 ORDER BY day DESC LIMIT 1',
    [accountId, firstDay],
  );
  return raw ? toDaily(raw) : null;
}
