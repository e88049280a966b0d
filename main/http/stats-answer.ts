import type { Plan } from '../../shared/api-types.js';
import { unixSeconds } from '../base/clock.js';
import { nextPeriodStart, periodStartOf } from '../accounts/billing-period.js';
import type { AccountsContext } from '../accounts/context.js';
import { accountUsage, planOf } from '../accounts/usage.js';
import { type AccountRow } from '../store/db/accounts-queries.js';
import { usageOf, type UsageRow } from '../store/db/usage-queries.js';
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

export function statsAnswer(ctx: AccountsContext, account: AccountRow): string {
  const usage = usageOf(ctx.db, account.id);
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
  const json = JSON.stringify(ok(accountUsage(ctx, account)));
  answers.set(account, { usage, pendingEgress, plan, nextPlan, from: periodStartOf(now), until: nextPeriodStart(now), json });
  return json;
}
