import { ForbiddenError, NotFoundError, PaymentRequiredError, BadInputError } from '../base/errors.js';
import { unixSeconds } from '../base/clock.js';
import { inTransaction } from '../store/db/database.js';
import type { PartnerUserSummary } from '../../shared/api-types.js';
import {
  accountById,
  countPartnerUsers,
  insertLedger,
  partnerUser,
  partnerUsersPage,
  setBalance,
  setPlan,
  type AccountRow,
} from '../store/db/accounts-queries.js';
import type { AccountsContext } from './context.js';
import { parseAmount } from './money.js';
import { LOCAL_PLAN } from './plans.js';

export function requirePartner(account: AccountRow): void {
  if (!account.isPartner) throw new ForbiddenError('this account is not a qualified partner');
}

/** A partner reaches only the users it created; anyone else's uuid is simply unknown to it. */
export function requireUserOf(ctx: AccountsContext, partner: AccountRow, uuid: string): AccountRow {
  const user = partnerUser(ctx.db, partner.id, uuid);
  if (!user) throw new NotFoundError(`no user with uuid ${uuid}`);
  return user;
}

/** `GET /api/v0/partner/users` (issue 12): the users this partner created, newest first, with the total. */
export function listPartnerUsers(
  ctx: AccountsContext,
  partner: AccountRow,
  page: { limit: number; start: number },
): { items: PartnerUserSummary[]; total: number } {
  requirePartner(partner);
  // Two synchronous reads on one connection: no write lands between them.
  const items = partnerUsersPage(ctx.db, partner.id, page.limit, page.start).map((row) => ({
    uuid: row.uuid,
    name: row.name,
    plan: (ctx.plans.byId(row.planId) ?? LOCAL_PLAN).name,
    created_at: row.createdAt,
    pinned_bytes: row.pinnedBytes,
    pinned_count: row.pinnedCount,
  }));
  return { items, total: countPartnerUsers(ctx.db, partner.id) };
}

export interface PlanChange {
  user: AccountRow;
  partner: AccountRow;
  feeCents: number;
}

/**
 * Moves a partner's user to another plan at once and charges the plan's price to the partner, with a
 * ledger row; a balance too low for the fee fails with 402 and changes nothing.
 */
export function updateUserPlan(ctx: AccountsContext, partnerId: number, uuid: string, planId: number): PlanChange {
  const plan = ctx.plans.byId(planId);
  if (!plan || plan.id === LOCAL_PLAN.id) throw new BadInputError(`plan_id ${planId} is not a plan of GET /api/v0/plans`);
  const feeCents = parseAmount(plan.price, 'plan price');
  const change = inTransaction(ctx.db, () => {
    const partner = accountById(ctx.db, partnerId);
    if (!partner) throw new NotFoundError('partner account not found');
    requirePartner(partner);
    const user = requireUserOf(ctx, partner, uuid);
    if (partner.balanceCents < feeCents) throw new PaymentRequiredError(`balance too low for the ${plan.name} plan fee of ${plan.price}`);
    const balance = partner.balanceCents - feeCents;
    setBalance(ctx.db, partner.id, balance);
    setPlan(ctx.db, user.id, plan.id);
    insertLedger(ctx.db, {
      accountId: partner.id,
      amountCents: -feeCents,
      balanceAfterCents: balance,
      kind: 'plan_fee',
      subjectAccountId: user.id,
      planId: plan.id,
      createdAt: unixSeconds(ctx.clock),
    });
    const updatedUser = accountById(ctx.db, user.id);
    const updatedPartner = accountById(ctx.db, partner.id);
    if (!updatedUser || !updatedPartner) throw new Error('accounts vanished during plan change');
    return { user: updatedUser, partner: updatedPartner, feeCents };
  });
  // The user's plan and limits moved, and the partner's balance.
  ctx.events?.usageChanged(change.user.id);
  ctx.events?.usageChanged(change.partner.id);
  return change;
}
