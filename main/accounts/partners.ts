import { ForbiddenError, NotFoundError, PaymentRequiredError, BadInputError } from '../base/errors.js';
import { unixSeconds } from '../base/clock.js';
import type { PartnerUserSummary } from '../../shared/api-types.js';
import type { Repositories } from '../store/repositories/index.js';
import type { AccountRow } from '../store/repositories/accounts.js';
import type { AccountsContext } from './context.js';
import { parseAmount } from './money.js';
import { LOCAL_PLAN } from './plans.js';

export function requirePartner(account: AccountRow): void {
  if (!account.isPartner) throw new ForbiddenError('this account is not a qualified partner');
}

/** A partner reaches only the users it created; anyone else's uuid is simply unknown to it. */
export async function requireUserOf(tx: Repositories, partner: AccountRow, uuid: string): Promise<AccountRow> {
  const user = await tx.accounts.partnerUser(partner.id, uuid);
  if (!user) throw new NotFoundError(`no user with uuid ${uuid}`);
  return user;
}

/** `GET /api/v0/partner/users` (issue 12): the users this partner created, newest first, with the total. */
export async function listPartnerUsers(
  ctx: AccountsContext,
  partner: AccountRow,
  page: { limit: number; start: number },
): Promise<{ items: PartnerUserSummary[]; total: number }> {
  requirePartner(partner);
  // One transaction: no write lands between the page and the total.
  const [rows, total] = await ctx.store.transaction(
    async (tx) => [await tx.accounts.partnerUsersPage(partner.id, page.limit, page.start), await tx.accounts.countPartnerUsers(partner.id)] as const,
  );
  const items = rows.map((row) => ({
    uuid: row.uuid,
    name: row.name,
    plan: (ctx.plans.byId(row.planId) ?? LOCAL_PLAN).name,
    created_at: row.createdAt,
    pinned_bytes: row.pinnedBytes,
    pinned_count: row.pinnedCount,
  }));
  return { items, total };
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
export async function updateUserPlan(ctx: AccountsContext, partnerId: number, uuid: string, planId: number): Promise<PlanChange> {
  const plan = ctx.plans.byId(planId);
  if (!plan || plan.id === LOCAL_PLAN.id) throw new BadInputError(`plan_id ${planId} is not a plan of GET /api/v0/plans`);
  const feeCents = parseAmount(plan.price, 'plan price');
  const change = await ctx.store.transaction(async (tx) => {
    const partner = await tx.accounts.accountById(partnerId);
    if (!partner) throw new NotFoundError('partner account not found');
    requirePartner(partner);
    const user = await requireUserOf(tx, partner, uuid);
    if (partner.balanceCents < feeCents) throw new PaymentRequiredError(`balance too low for the ${plan.name} plan fee of ${plan.price}`);
    const balance = partner.balanceCents - feeCents;
    await tx.accounts.setBalance(partner.id, balance);
    await tx.accounts.setPlan(user.id, plan.id);
    await tx.accounts.insertLedger({
      accountId: partner.id,
      amountCents: -feeCents,
      balanceAfterCents: balance,
      kind: 'plan_fee',
      subjectAccountId: user.id,
      planId: plan.id,
      createdAt: unixSeconds(ctx.clock),
    });
    const updatedUser = await tx.accounts.accountById(user.id);
    const updatedPartner = await tx.accounts.accountById(partner.id);
    if (!updatedUser || !updatedPartner) throw new Error('accounts vanished during plan change');
    return { user: updatedUser, partner: updatedPartner, feeCents };
  });
  // The user's plan and limits moved, and the partner's balance.
  ctx.events?.usageChanged(change.user.id);
  ctx.events?.usageChanged(change.partner.id);
  return change;
}
