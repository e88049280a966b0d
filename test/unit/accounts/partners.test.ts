import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BadInputError, ConflictError, ForbiddenError, NotFoundError, PaymentRequiredError } from '../../../main/base/errors.js';
import { createOwner, createPartnerUser, credit, requireAccountByUuid, setPartner, type AccountRow } from '../../../main/accounts/accounts.js';
import { listPartnerUsers, requirePartner, requireUserOf, updateUserPlan } from '../../../main/accounts/partners.js';
import { record } from '../../../main/accounts/usage.js';
import { accountsFixture, type AccountsFixture } from './accounts-fixture.js';
import { manualClock } from '../../helpers/manual-clock.js';

describe('partners, plan changes, the ledger and credits', () => {
  let fx: AccountsFixture;
  let owner: AccountRow;
  beforeEach(async () => {
    fx = accountsFixture(manualClock(Date.UTC(2027, 0, 10)));
    owner = await createOwner(fx.ctx);
  });
  afterEach(() => fx.close());

  async function row(id: number): Promise<AccountRow> {
    const found = await fx.ctx.store.accounts.accountById(id);
    if (!found) throw new Error(`account ${id} missing`);
    return found;
  }

  it('the owner is a partner with 1000.00; new users are Free with 0.00 and keep their uuid', async () => {
    expect(owner).toMatchObject({ isOwner: true, isPartner: true, planId: 0, balanceCents: 100_000 });
    const user = await createPartnerUser(fx.ctx, owner, { uuid: 'my-own-id', name: 'U', email: 'u@example.com' });
    expect(user).toMatchObject({ uuid: 'my-own-id', isPartner: false, partnerId: owner.id, planId: 1, nextPlanId: 1, balanceCents: 0 });
    await expect(createPartnerUser(fx.ctx, owner, { uuid: 'my-own-id', name: 'V', email: 'v@example.com' })).rejects.toThrow(ConflictError);
  });

  it("lists a partner's own users newest first (ties by creation order) with plan name and pinned usage; a non-partner is refused", async () => {
    const a = await createPartnerUser(fx.ctx, owner, { uuid: 'a', name: 'A', email: 'a@example.com' });
    const b = await createPartnerUser(fx.ctx, owner, { uuid: 'b', name: 'B', email: 'b@example.com' });
    await updateUserPlan(fx.ctx, owner.id, 'b', 4);
    await fx.ctx.store.transaction(async (tx) => {
      await record(fx.ctx, tx, a.id, 'pinned_count', 2);
      await record(fx.ctx, tx, a.id, 'pinned_bytes', 77);
    });
    const other = await setPartner(fx.ctx, 'a', true);
    await createPartnerUser(fx.ctx, other, { uuid: 'c', name: 'C', email: 'c@example.com' });
    expect(await listPartnerUsers(fx.ctx, owner, { limit: 10, start: 0 })).toEqual({
      items: [
        { uuid: 'b', name: 'B', plan: 'Business', created_at: b.createdAt, pinned_bytes: 0, pinned_count: 0 },
        { uuid: 'a', name: 'A', plan: 'Free', created_at: a.createdAt, pinned_bytes: 77, pinned_count: 2 },
      ],
      total: 2,
    });
    expect((await listPartnerUsers(fx.ctx, owner, { limit: 1, start: 1 })).items.map((user) => user.uuid)).toEqual(['a']);
    expect((await listPartnerUsers(fx.ctx, other, { limit: 10, start: 0 })).items.map((user) => user.uuid)).toEqual(['c']);
    const userB = await row(b.id);
    await expect(listPartnerUsers(fx.ctx, userB, { limit: 10, start: 0 })).rejects.toThrow(ForbiddenError);
  });

  it('update-plan moves the user at once, charges the partner and writes one ledger row', async () => {
    const user = await createPartnerUser(fx.ctx, owner, { uuid: 'u1', name: 'U', email: 'u@example.com' });
    const change = await updateUserPlan(fx.ctx, owner.id, 'u1', 3);
    expect(change.feeCents).toBe(999);
    expect(await row(user.id)).toMatchObject({ planId: 3, nextPlanId: 3 });
    expect((await row(owner.id)).balanceCents).toBe(100_000 - 999);
    expect(await fx.ctx.store.accounts.ledgerOf(owner.id)).toEqual([
      {
        id: expect.any(Number),
        accountId: owner.id,
        amountCents: -999,
        balanceAfterCents: 100_000 - 999,
        kind: 'plan_fee',
        subjectAccountId: user.id,
        planId: 3,
        createdAt: Date.UTC(2027, 0, 10) / 1000,
      },
    ]);
  });

  it('a balance too short is 402 and changes neither plan, balance nor ledger', async () => {
    const partner = await createPartnerUser(fx.ctx, owner, { uuid: 'p', name: 'P', email: 'p@example.com' });
    await setPartner(fx.ctx, 'p', true);
    await credit(fx.ctx, 'p', 1000);
    const user = await createPartnerUser(fx.ctx, await row(partner.id), { uuid: 'pu', name: 'PU', email: 'pu@example.com' });
    await updateUserPlan(fx.ctx, partner.id, 'pu', 2);
    const ledgerBefore = await fx.ctx.store.accounts.ledgerOf(partner.id);
    expect(ledgerBefore.map((r) => r.kind)).toEqual(['credit', 'plan_fee']);
    expect((await row(partner.id)).balanceCents).toBe(501);
    await expect(updateUserPlan(fx.ctx, partner.id, 'pu', 3)).rejects.toThrow(PaymentRequiredError);
    expect((await row(partner.id)).balanceCents).toBe(501);
    expect((await row(user.id)).planId).toBe(2);
    expect(await fx.ctx.store.accounts.ledgerOf(partner.id)).toEqual(ledgerBefore);
  });

  it('a balance of exactly the fee is enough; a free plan costs nothing but is still a ledger row', async () => {
    await createPartnerUser(fx.ctx, owner, { uuid: 'p', name: 'P', email: 'p@example.com' });
    const partner = await setPartner(fx.ctx, 'p', true);
    await credit(fx.ctx, 'p', 499);
    await createPartnerUser(fx.ctx, partner, { uuid: 'pu', name: 'PU', email: 'pu@example.com' });
    await updateUserPlan(fx.ctx, partner.id, 'pu', 2);
    expect((await row(partner.id)).balanceCents).toBe(0);
    await updateUserPlan(fx.ctx, partner.id, 'pu', 1);
    expect((await fx.ctx.store.accounts.ledgerOf(partner.id)).map((r) => [r.kind, r.amountCents, r.balanceAfterCents])).toEqual([
      ['credit', 499, 499],
      ['plan_fee', -499, 0],
      ['plan_fee', 0, 0],
    ]);
  });

  it("refuses unknown plans and the Local plan, and another partner's user, changing nothing", async () => {
    const user = await createPartnerUser(fx.ctx, owner, { uuid: 'u1', name: 'U', email: 'u@example.com' });
    await expect(updateUserPlan(fx.ctx, owner.id, 'u1', 0)).rejects.toThrow(BadInputError);
    await expect(updateUserPlan(fx.ctx, owner.id, 'u1', 42)).rejects.toThrow(/plan_id 42/);
    await createPartnerUser(fx.ctx, owner, { uuid: 'p2', name: 'P2', email: 'p2@example.com' });
    const other = await setPartner(fx.ctx, 'p2', true);
    await credit(fx.ctx, 'p2', 10_000);
    await expect(updateUserPlan(fx.ctx, other.id, 'u1', 2)).rejects.toThrow(NotFoundError);
    await expect(requireUserOf(fx.ctx.store, other, 'u1')).rejects.toThrow(NotFoundError);
    expect((await row(user.id)).planId).toBe(1);
    expect((await row(other.id)).balanceCents).toBe(10_000);
    expect((await row(owner.id)).balanceCents).toBe(100_000);
    expect(await fx.ctx.store.accounts.ledgerOf(owner.id)).toEqual([]);
  });

  it('a non-partner is refused', async () => {
    const user = await createPartnerUser(fx.ctx, owner, { uuid: 'u1', name: 'U', email: 'u@example.com' });
    expect(() => requirePartner(user)).toThrow(ForbiddenError);
    await expect(updateUserPlan(fx.ctx, user.id, 'u1', 1)).rejects.toThrow(ForbiddenError);
    await setPartner(fx.ctx, 'u1', true);
    const partnerNow = await row(user.id);
    expect(() => requirePartner(partnerNow)).not.toThrow();
    await setPartner(fx.ctx, 'u1', false);
    const partnerNoMore = await row(user.id);
    expect(() => requirePartner(partnerNoMore)).toThrow(ForbiddenError);
  });

  it('credit adds with a ledger row; bad amounts and unknown uuids change nothing', async () => {
    await createPartnerUser(fx.ctx, owner, { uuid: 'u1', name: 'U', email: 'u@example.com' });
    expect((await credit(fx.ctx, 'u1', 2550)).balanceCents).toBe(2550);
    expect((await credit(fx.ctx, 'u1', 50)).balanceCents).toBe(2600);
    for (const bad of [0, -5, 1.5, Number.NaN]) await expect(credit(fx.ctx, 'u1', bad)).rejects.toThrow(BadInputError);
    await expect(credit(fx.ctx, 'nobody', 100)).rejects.toThrow(NotFoundError);
    const user = await requireAccountByUuid(fx.ctx.store, 'u1');
    expect((await fx.ctx.store.accounts.ledgerOf(user.id)).map((r) => [r.kind, r.amountCents, r.balanceAfterCents, r.subjectAccountId])).toEqual([
      ['credit', 2550, 2550, null],
      ['credit', 50, 2600, null],
    ]);
    expect((await row(user.id)).balanceCents).toBe(2600);
  });
});
