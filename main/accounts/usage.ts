import type { AccountUsage, PartnerUserUsage, Plan } from '../../shared/api-types.js';
import { LimitReachedError } from '../base/errors.js';
import { unixSeconds } from '../base/clock.js';
import type { Repositories, Transaction } from '../store/repositories/index.js';
import type { AccountRow } from '../store/repositories/accounts.js';
import type { UsageColumn, UsageRow } from '../store/repositories/usage.js';
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

function isCurrentPeriod(ctx: AccountsContext, row: UsageRow): boolean {
  return row.periodStart >= periodStartOf(unixSeconds(ctx.clock));
}

/** Usage of the current month: a row still on last month's period is reset first. */
export async function currentUsage(ctx: AccountsContext, tx: Repositories, accountId: number): Promise<UsageRow> {
  // Outside a transaction the caller adds the meter's pending egress next: read where no flush commits.
  const row = await (tx === ctx.store && ctx.egressMeter ? ctx.egressMeter.reading(() => tx.usage.usageOf(accountId)) : tx.usage.usageOf(accountId));
  if (isCurrentPeriod(ctx, row)) return row;
  const periodStart = periodStartOf(unixSeconds(ctx.clock));
  await tx.usage.resetPeriod(accountId, periodStart);
  return { ...row, periodStart, ingress: 0, egress: 0 };
}

/**
 * {@link currentUsage} for a request's hot path (stats, the gateway's egress check): no await when the
 * store has the row at hand and it is on the current period.
 */
export function currentUsageNow(ctx: AccountsContext, accountId: number): UsageRow | Promise<UsageRow> {
  const row = ctx.store.current.usage(accountId);
  return row !== undefined && isCurrentPeriod(ctx, row) ? row : currentUsage(ctx, ctx.store, accountId);
}

/** Throws {@link LimitReachedError} when `amount` more of `kind` would pass the plan (`uncounted`: see check). */
function judge(ctx: AccountsContext, account: AccountRow, usage: UsageRow, kind: UsageKind, amount: number, uncounted: number): void {
  const limit = planOf(ctx, account)[LIMIT[kind]] as number;
  if (current(usage, kind) + uncounted + amount > limit) throw new LimitReachedError(kind);
}

/**
 * The one way to ask whether a change may happen: throws {@link LimitReachedError} (403, naming the
 * counter) when adding `amount` would pass the account's plan limit. Call it before changing anything,
 * on the transaction of the change when the change is a database write. What counts beside the counter:
 * metered egress not yet written, and ingress held by upload addresses.
 */
export async function check(ctx: AccountsContext, tx: Repositories, accountId: number, kind: UsageKind, amount: number): Promise<void> {
  if (amount <= 0) return;
  const account = await tx.accounts.accountById(accountId);
  if (!account) throw new Error(`account ${accountId} vanished`);
  const usage = await currentUsage(ctx, tx, accountId);
  const uncounted =
    kind === 'egress'
      ? (ctx.egressMeter?.pending(accountId) ?? 0)
      : kind === 'ingress'
        ? await tx.uploads.reservedUploadBytes(accountId, unixSeconds(ctx.clock))
        : 0;
  judge(ctx, account, usage, kind, amount, uncounted);
}

/** {@link check} of a response's egress, before its body: no await when the store has the rows at hand. */
export function checkEgressNow(ctx: AccountsContext, accountId: number, bytes: number): void | Promise<void> {
  if (bytes <= 0) return;
  const account = ctx.store.current.account(accountId);
  const usage = ctx.store.current.usage(accountId);
  if (!account || usage === undefined || !isCurrentPeriod(ctx, usage)) return check(ctx, ctx.store, accountId, 'egress', bytes);
  judge(ctx, account, usage, 'egress', bytes, ctx.egressMeter?.pending(accountId) ?? 0);
}

/** Egress of a response: metered in memory when the server runs a meter (see egress-meter.ts). */
export function recordEgress(ctx: AccountsContext, accountId: number, bytes: number): void | Promise<void> {
  if (ctx.egressMeter) ctx.egressMeter.add(accountId, bytes);
  else return ctx.store.transaction((tx) => record(ctx, tx, accountId, 'egress', bytes));
}

/**
 * Moves a counter (negative amounts release), on the transaction of the change it counts. Callers check
 * first; this never refuses. The day's row of usage_daily follows (one upsert; `ipns` has no daily column).
 */
export async function record(ctx: AccountsContext, tx: Transaction, accountId: number, kind: UsageKind, amount: number): Promise<void> {
  if (amount === 0) return;
  await currentUsage(ctx, tx, accountId);
  await tx.usage.addUsage(accountId, COLUMN[kind], amount);
  if (kind !== 'ipns') await tx.usage.mirrorDailyUsage(accountId, utcDay(ctx.clock.nowMs()), kind === 'ingress' ? amount : 0, kind === 'egress' ? amount : 0);
  // A notice only: the stream reads the stats when it sends, and its read waits for this transaction.
  ctx.events?.usageChanged(accountId);
}

/** Check and record as one step, on the caller's transaction. */
export async function reserve(ctx: AccountsContext, tx: Transaction, accountId: number, kind: UsageKind, amount: number): Promise<void> {
  await check(ctx, tx, accountId, kind, amount);
  await record(ctx, tx, accountId, kind, amount);
}

/** A partner user's usage as the partner API shows it (`usage`: {@link currentUsage} of the account). */
export function partnerUserUsage(ctx: AccountsContext, account: AccountRow, usage: UsageRow): PartnerUserUsage {
  const plan = planOf(ctx, account);
  const nextPlan = ctx.plans.byId(account.nextPlanId) ?? plan;
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

/** The account's stats (`usage`: {@link currentUsage} of the account). */
export function accountUsage(ctx: AccountsContext, account: AccountRow, usage: UsageRow): AccountUsage {
  // Not `{ ...view, ... }`: V8 clones a 19-key spread into a slow object, which cost ~4 µs per stats
  // request (building and serializing) in test/bench/auth.ts; adding the two keys keeps it fast.
  return Object.assign(partnerUserUsage(ctx, account, usage), { eth_addr: '', token_amount: formatCents(account.balanceCents) });
}
