import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BadInputError, ConflictError, ForbiddenError, NotFoundError, PaymentRequiredError } from '../../../main/base/errors.js';
import { createOwner, createPartnerUser, credit, setPartner, type AccountRow } from '../../../main/accounts/accounts.js';
import { listPartnerUsers, requirePartner, requireUserOf, updateUserPlan } from '../../../main/accounts/partners.js';
import { record } from '../../../main/accounts/usage.js';
import { accountById, ledgerOf } from '../../../main/store/db/accounts-queries.js';
import { accountsFixture, manualClock, type AccountsFixture } from './accounts-fixture.js';

describe('partners, plan changes, the ledger and credits', () => {
  let fx: AccountsFixture;
  let owner: AccountRow;
  beforeEach(() => {
    fx = accountsFixture(manualClock(Date.UTC(2027, 0, 10)));
    owner = createOwner(fx.ctx);
  });
  afterEach(() => fx.close());

  function row(id: number): AccountRow {
    const found = accountById(fx.ctx.db, id);
    if (!found) throw new Error(`account ${id} missing`);
    return found;
  }

  it('the owner is a partner with 1000.00; new users are Free with 0.00 and keep their uuid', () => {
    expect(owner).toMatchObject({ isOwner: true, isPartner: true, planId: 0, balanceCents: 100_000 });
    const user = createPartnerUser(fx.ctx, owner, { uuid: 'my-own-id', name: 'U', email: 'u@example.com' });
    expect(user).toMatchObject({ uuid: 'my-own-id', isPartner: false, partnerId: owner.id, planId: 1, nextPlanId: 1, balanceCents: 0 });
    expect(() => createPartnerUser(fx.ctx, owner, { uuid: 'my-own-id', name: 'V', email: 'v@example.com' })).toThrow(ConflictError);
  });

  it("lists a partner's own users newest first (ties by creation order) with plan name and pinned usage; a non-partner is refused", () => {
    const a = createPartnerUser(fx.ctx, owner, { uuid: 'a', name: 'A', email: 'a@example.com' });
    const b = createPartnerUser(fx.ctx, owner, { uuid: 'b', name: 'B', email: 'b@example.com' });
    updateUserPlan(fx.ctx, owner.id, 'b', 4);
    record(fx.ctx, a.id, 'pinned_count', 2);
    record(fx.ctx, a.id, 'pinned_bytes', 77);
    const other = setPartner(fx.ctx, 'a', true);
    createPartnerUser(fx.ctx, other, { uuid: 'c', name: 'C', email: 'c@example.com' });
    expect(listPartnerUsers(fx.ctx, owner, { limit: 10, start: 0 })).toEqual({
      items: [
        { uuid: 'b', name: 'B', plan: 'Business', created_at: b.createdAt, pinned_bytes: 0, pinned_count: 0 },
        { uuid: 'a', name: 'A', plan: 'Free', created_at: a.createdAt, pinned_bytes: 77, pinned_count: 2 },
      ],
      total: 2,
    });
    expect(listPartnerUsers(fx.ctx, owner, { limit: 1, start: 1 }).items.map((user) => user.uuid)).toEqual(['a']);
    expect(listPartnerUsers(fx.ctx, other, { limit: 10, start: 0 }).items.map((user) => user.uuid)).toEqual(['c']);
    expect(() => listPartnerUsers(fx.ctx, row(b.id), { limit: 10, start: 0 })).toThrow(ForbiddenError);
  });

  it('update-plan moves the user at once, charges the partner and writes one ledger row', () => {
    const user = createPartnerUser(fx.ctx, owner, { uuid: 'u1', name: 'U', email: 'u@example.com' });
    const change = updateUserPlan(fx.ctx, owner.id, 'u1', 3);
    expect(change.feeCents).toBe(999);
    expect(row(user.id)).toMatchObject({ planId: 3, nextPlanId: 3 });
    expect(row(owner.id).balanceCents).toBe(100_000 - 999);
    expect(ledgerOf(fx.ctx.db, owner.id)).toEqual([
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

  it('a balance too short is 402 and changes neither plan, balance nor ledger', () => {
    const partner = createPartnerUser(fx.ctx, owner, { uuid: 'p', name: 'P', email: 'p@example.com' });
    setPartner(fx.ctx, 'p', true);
    credit(fx.ctx, 'p', 1000);
    const user = createPartnerUser(fx.ctx, row(partner.id), { uuid: 'pu', name: 'PU', email: 'pu@example.com' });
    updateUserPlan(fx.ctx, partner.id, 'pu', 2);
    const ledgerBefore = ledgerOf(fx.ctx.db, partner.id);
    expect(ledgerBefore.map((r) => r.kind)).toEqual(['credit', 'plan_fee']);
    expect(row(partner.id).balanceCents).toBe(501);
    expect(() => updateUserPlan(fx.ctx, partner.id, 'pu', 3)).toThrow(PaymentRequiredError);
    expect(row(partner.id).balanceCents).toBe(501);
    expect(row(user.id).planId).toBe(2);
    expect(ledgerOf(fx.ctx.db, partner.id)).toEqual(ledgerBefore);
  });

  it('a balance of exactly the fee is enough; a free plan costs nothing but is still a ledger row', () => {
    createPartnerUser(fx.ctx, owner, { uuid: 'p', name: 'P', email: 'p@example.com' });
    const partner = setPartner(fx.ctx, 'p', true);
    credit(fx.ctx, 'p', 499);
    createPartnerUser(fx.ctx, partner, { uuid: 'pu', name: 'PU', email: 'pu@example.com' });
    updateUserPlan(fx.ctx, partner.id, 'pu', 2);
    expect(row(partner.id).balanceCents).toBe(0);
    updateUserPlan(fx.ctx, partner.id, 'pu', 1);
    expect(ledgerOf(fx.ctx.db, partner.id).map((r) => [r.kind, r.amountCents, r.balanceAfterCents])).toEqual([
      ['credit', 499, 499],
      ['plan_fee', -499, 0],
      ['plan_fee', 0, 0],
    ]);
  });

  it("refuses unknown plans and the Local plan, and another partner's user, changing nothing", () => {
    const user = createPartnerUser(fx.ctx, owner, { uuid: 'u1', name: 'U', email: 'u@example.com' });
    expect(() => updateUserPlan(fx.ctx, owner.id, 'u1', 0)).toThrow(BadInputError);
    expect(() => updateUserPlan(fx.ctx, owner.id, 'u1', 42)).toThrow(/plan_id 42/);
    createPartnerUser(fx.ctx, owner, { uuid: 'p2', name: 'P2', email: 'p2@example.com' });
    const other = setPartner(fx.ctx, 'p2', true);
    credit(fx.ctx, 'p2', 10_000);
    expect(() => updateUserPlan(fx.ctx, other.id, 'u1', 2)).toThrow(NotFoundError);
    expect(() => requireUserOf(fx.ctx, other, 'u1')).toThrow(NotFoundError);
    expect(row(user.id).planId).toBe(1);
    expect(row(other.id).balanceCents).toBe(10_000);
    expect(row(owner.id).balanceCents).toBe(100_000);
    expect(ledgerOf(fx.ctx.db, owner.id)).toEqual([]);
  });

  it('a non-partner is refused', () => {
    const user = createPartnerUser(fx.ctx, owner, { uuid: 'u1', name: 'U', email: 'u@example.com' });
    expect(() => requirePartner(user)).toThrow(ForbiddenError);
    expect(() => updateUserPlan(fx.ctx, user.id, 'u1', 1)).toThrow(ForbiddenError);
    setPartner(fx.ctx, 'u1', true);
    expect(() => requirePartner(row(user.id))).not.toThrow();
    setPartner(fx.ctx, 'u1', false);
    expect(() => requirePartner(row(user.id))).toThrow(ForbiddenError);
  });

  it('credit adds with a ledger row; bad amounts and unknown uuids change nothing', () => {
    createPartnerUser(fx.ctx, owner, { uuid: 'u1', name: 'U', email: 'u@example.com' });
    expect(credit(fx.ctx, 'u1', 2550).balanceCents).toBe(2550);
    expect(credit(fx.ctx, 'u1', 50).balanceCents).toBe(2600);
    for (const bad of [0, -5, 1.5, Number.NaN]) expect(() => credit(fx.ctx, 'u1', bad)).toThrow(BadInputError);
    expect(() => credit(fx.ctx, 'nobody', 100)).toThrow(NotFoundError);
    const user = fx.ctx.db.prepare('SELECT id FROM accounts WHERE uuid = ?').get('u1') as { id: number };
    expect(ledgerOf(fx.ctx.db, user.id).map((r) => [r.kind, r.amountCents, r.balanceAfterCents, r.subjectAccountId])).toEqual([
      ['credit', 2550, 2550, null],
      ['credit', 50, 2600, null],
    ]);
    expect(row(user.id).balanceCents).toBe(2600);
  });
});
