import type { Plan } from '../../shared/api-types.js';
import { unixSeconds } from '../base/clock.js';
import { nextPeriodStart, periodStartOf } from '../accounts/billing-period.js';
import type { AccountsContext } from '../accounts/context.js';
import { accountUsage, currentUsageNow, planOf } from '../accounts/usage.js';
import type { AccountRow } from '../store/repositories/accounts.js';
import type { UsageRow } from '../store/repositories/usage.js';
import { ok } from './envelope.js';

/**
 * The body of `GET /api/v0/stats`, the call every SDK and the window make most often. Building and
 * serializing the 19 figures cost about 7 µs of a request's 40 (test/bench/auth.ts), so an account's
 * answer is kept, as JSON, while everything it is made of is unchanged: the account row and its usage
 * row (read-cache objects: any write to the database, by this process or another, makes new ones), the
 * egress metered but not yet written, the plans, and the billing month.
 */
interface Answer {
  usage: UsageRow;
  pendingEgress: number;
  plan: Plan;
  nextPlan: Plan | null;
  /** The billing month it was made in: [from, until) in Unix seconds. */
  from: number;
  until: number;
  json: string;
}

const answers = new WeakMap<AccountRow, Answer>();

/** The JSON answer; without an await when the store has the account's usage at hand (the common case). */
export function statsAnswer(ctx: AccountsContext, account: AccountRow): string | Promise<string> {
  const usage = currentUsageNow(ctx, account.id);
  return usage instanceof Promise ? usage.then((row) => answerFor(ctx, account, row)) : answerFor(ctx, account, usage);
}

function answerFor(ctx: AccountsContext, account: AccountRow, usage: UsageRow): string {
  const pendingEgress = ctx.egressMeter?.pending(account.id) ?? 0;
  const plan = planOf(ctx, account);
  const nextPlan = ctx.plans.byId(account.nextPlanId);
  const now = unixSeconds(ctx.clock);
  const known = answers.get(account);
  if (
    known &&
    known.usage === usage &&
    known.pendingEgress === pendingEgress &&
    known.plan === plan &&
    known.nextPlan === nextPlan &&
    now >= known.from &&
    now < known.until
  )
    return known.json;
  const json = JSON.stringify(ok(accountUsage(ctx, account, usage)));
  answers.set(account, { usage, pendingEgress, plan, nextPlan, from: periodStartOf(now), until: nextPeriodStart(now), json });
  return json;
}
