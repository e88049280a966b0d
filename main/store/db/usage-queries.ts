import { stmt, type Db } from './database.js';
import { cachedRead } from './read-cache.js';
import type { UsageRow, UsageColumn } from '../repositories/usage.js';

/** Typed statements for the usage counters of the billing period. */
interface RawUsage {
  account_id: number;
  period_start: number;
  ingress: number;
  egress: number;
  pinned_count: number;
  pinned_bytes: number;
  ipns_count: number;
}

/** The returned row may be shared with other readers (see read-cache.ts): never mutate it. */
export function usageOf(db: Db, accountId: number): UsageRow {
  return cachedRead(db, `usage:${accountId}`, () => readUsage(db, accountId));
}

function readUsage(db: Db, accountId: number): UsageRow {
  const raw = stmt(db, 'SELECT * FROM usage WHERE account_id = ?').get(accountId) as RawUsage | undefined;
  if (!raw) throw new Error(`usage row missing for account ${accountId}`);
  return {
    accountId: raw.account_id,
    periodStart: raw.period_start,
    ingress: raw.ingress,
    egress: raw.egress,
    pinnedCount: raw.pinned_count,
    pinnedBytes: raw.pinned_bytes,
    ipnsCount: raw.ipns_count,
  };
}

const ADD_STATEMENTS: Record<UsageColumn, string> = {
  ingress: 'UPDATE usage SET ingress = ingress + ? WHERE account_id = ?',
  egress: 'UPDATE usage SET egress = egress + ? WHERE account_id = ?',
  pinned_count: 'UPDATE usage SET pinned_count = pinned_count + ? WHERE account_id = ?',
  pinned_bytes: 'UPDATE usage SET pinned_bytes = pinned_bytes + ? WHERE account_id = ?',
  ipns_count: 'UPDATE usage SET ipns_count = ipns_count + ? WHERE account_id = ?',
};

export function addUsage(db: Db, accountId: number, column: UsageColumn, amount: number): void {
  stmt(db, ADD_STATEMENTS[column]).run(amount, accountId);
}

export function resetPeriod(db: Db, accountId: number, periodStart: number): void {
  stmt(db, 'UPDATE usage SET period_start = ?, ingress = 0, egress = 0 WHERE account_id = ?').run(periodStart, accountId);
}
