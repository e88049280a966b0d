import type { AccountUsage, PartnerUserUsage, Plan } from '../../shared/api-types.js';
import { LimitReachedError } from '../base/errors.js';
import { unixSeconds } from '../base/clock.js';
import { inTransaction } from '../store/db/database.js';
import { accountById, addUsage, resetPeriod, usageOf, type AccountRow, type UsageColumn, type UsageRow } from '../store/db/accounts-queries.js';
import { reservedUploadBytes } from '../store/db/uploads-queries.js';
import { mirrorDailyUsage } from '../store/db/usage-daily-queries.js';
import { nextPeriodStart, periodStartOf } from './billing-period.js';
import type { AccountsContext } from './context.js';
import { formatCents } from './money.js';
import { LOCAL_PLAN } from './plans.js';
import { utcDay } from './usage-daily.js';

/** The five plan-limited counters, by their names in stats and in limit errors. */
export type UsageKind = 'pinned_count' | 'pinned_bytes' | 'ingress' | 'egress' | 'ipns';

const COLUMN: Record<UsageKind, UsageColumn> = {
  pinned_count: 'pinned_count',
  pinned_bytes: 'pinned_bytes',
  ingress: 'ingress',
  egress: 'egress',
  ipns: 'ipns_count',
};

const LIMIT: Record<UsageKind, keyof Plan> = {
  pinned_count: 'pinned_count_limit',
  pinned_bytes: 'pinned_bytes_limit',
  ingress: 'ingress_limit',
  egress: 'egress_limit',
  ipns: 'ipns_limit',
};

function current(row: UsageRow, kind: UsageKind): number {
  switch (kind) {
    case 'pinned_count':
      return row.pinnedCount;
    case 'pinned_bytes':
      return row.pinnedBytes;
    case 'ingress':
      return row.ingress;
    case 'egress':
      return row.egress;
    case 'ipns':
      return row.ipnsCount;
  }
}

export function planOf(ctx: AccountsContext, account: AccountRow): Plan {
  return ctx.plans.byId(account.planId) ?? LOCAL_PLAN;
}

/** Usage of the current month: a row still on last month's period is reset first. */
export function currentUsage(ctx: AccountsContext, accountId: number): UsageRow {
  const row = usageOf(ctx.db, accountId);
  const periodStart = periodStartOf(unixSeconds(ctx.clock));
  if (row.periodStart >= periodStart) return row;
  resetPeriod(ctx.db, accountId, periodStart);
  return { ...row, periodStart, ingress: 0, egress: 0 };
}

/** What counts against a limit beyond the counter: metered egress not yet written, ingress held by upload addresses. */
function uncounted(ctx: AccountsContext, accountId: number, kind: UsageKind): number {
  if (kind === 'egress') return ctx.egressMeter?.pending(accountId) ?? 0;
  if (kind === 'ingress') return reservedUploadBytes(ctx.db, accountId, unixSeconds(ctx.clock));
  return 0;
}

/**
 * The one way to ask whether a change may happen: throws {@link LimitReachedError} (403, naming the
 * counter) when adding `amount` would pass the account's plan limit. Call it before changing anything,
 * inside the same transaction as the change when the change is a database write.
 */
export function check(ctx: AccountsContext, accountId: number, kind: UsageKind, amount: number): void {
  if (amount <= 0) return;
  const account = accountById(ctx.db, accountId);
  if (!account) throw new Error(`account ${accountId} vanished`);
  const limit = planOf(ctx, account)[LIMIT[kind]] as number;
  if (current(currentUsage(ctx, accountId), kind) + uncounted(ctx, accountId, kind) + amount > limit) throw new LimitReachedError(kind);
}

/** Egress of a response: metered in memory when the server runs a meter (see egress-meter.ts). */
export function recordEgress(ctx: AccountsContext, accountId: number, bytes: number): void {
  if (ctx.egressMeter) ctx.egressMeter.add(accountId, bytes);
  else record(ctx, accountId, 'egress', bytes);
}

/**
 * Moves a counter (negative amounts release). Callers check first; this never refuses. The day's row of
 * usage_daily follows in the same transaction (one upsert; the `ipns` counter has no daily column).
 */
export function record(ctx: AccountsContext, accountId: number, kind: UsageKind, amount: number): void {
  if (amount === 0) return;
  inTransaction(ctx.db, () => {
    currentUsage(ctx, accountId);
    addUsage(ctx.db, accountId, COLUMN[kind], amount);
    if (kind !== 'ipns') mirrorDailyUsage(ctx.db, accountId, utcDay(ctx.clock.nowMs()), kind === 'ingress' ? amount : 0, kind === 'egress' ? amount : 0);
  });
  // A notice only: the stream reads the stats when it sends (after the caller's transaction has committed).
  ctx.events?.usageChanged(accountId);
}

/** Check and record as one step. */
export function reserve(ctx: AccountsContext, accountId: number, kind: UsageKind, amount: number): void {
  inTransaction(ctx.db, () => {
    check(ctx, accountId, kind, amount);
    record(ctx, accountId, kind, amount);
  });
}

export function partnerUserUsage(ctx: AccountsContext, account: AccountRow): PartnerUserUsage {
  const plan = planOf(ctx, account);
  const nextPlan = ctx.plans.byId(account.nextPlanId) ?? plan;
  const usage = currentUsage(ctx, account.id);
  return {
    name: account.name,
    provider: account.provider,
    email: account.email,
    email_verified: false,
    plan: plan.name,
    next_plan: nextPlan.name,
    next_bill_at: nextPeriodStart(unixSeconds(ctx.clock)),
    pinned_count: usage.pinnedCount,
    pinned_count_limit: plan.pinned_count_limit,
    pinned_bytes: usage.pinnedBytes,
    pinned_bytes_limit: plan.pinned_bytes_limit,
    ingress: usage.ingress,
    ingress_limit: plan.ingress_limit,
    egress: usage.egress + (ctx.egressMeter?.pending(account.id) ?? 0),
    egress_limit: plan.egress_limit,
    ipns: usage.ipnsCount,
    ipns_limit: plan.ipns_limit,
  };
}

export function accountUsage(ctx: AccountsContext, account: AccountRow): AccountUsage {
  // Not `{ ...view, ... }`: V8 clones a 19-key spread into a slow object, which cost ~4 µs per stats
  // request (building and serializing) in test/bench/auth.ts; adding the two keys keeps it fast.
  return Object.assign(partnerUserUsage(ctx, account), { eth_addr: '', token_amount: formatCents(account.balanceCents) });
}
