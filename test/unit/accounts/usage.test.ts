import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LimitReachedError } from '../../../main/base/errors.js';
import { createOwner, createPartnerUser } from '../../../main/accounts/accounts.js';
import { nextPeriodStart, periodStartOf } from '../../../main/accounts/billing-period.js';
import { accountUsage, check, currentUsage, partnerUserUsage, record, reserve, type UsageKind } from '../../../main/accounts/usage.js';
import { accountById } from '../../../main/store/db/accounts-queries.js';
import { usageOf } from '../../../main/store/db/usage-queries.js';
import { accountsFixture, manualClock, type AccountsFixture, type ManualClock } from './accounts-fixture.js';

const GiB = 1024 ** 3;
const JAN_31_LAST_SECOND = Date.UTC(2027, 0, 31, 23, 59, 59);
const FEB_1 = Date.UTC(2027, 1, 1);

function expectLimit(fn: () => void, kind: UsageKind): void {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(LimitReachedError);
  expect((caught as LimitReachedError).limit).toBe(kind);
  expect((caught as Error).message).toBe(`plan limit reached: ${kind}`);
}

describe('usage counters and plan limits', () => {
  let clock: ManualClock;
  let fx: AccountsFixture;
  let userId: number;
  let ownerId: number;

  beforeEach(() => {
    clock = manualClock(Date.UTC(2027, 0, 15, 12));
    fx = accountsFixture(clock);
    const owner = createOwner(fx.ctx);
    ownerId = owner.id;
    userId = createPartnerUser(fx.ctx, owner, { uuid: 'user-1', name: 'User', email: 'u@example.com' }).id;
  });
  afterEach(() => fx.close());

  it('a new account is on Free: 100 pins, 1 GiB pinned, 5 GiB ingress and egress, 3 IPNS', () => {
    const account = accountById(fx.ctx.db, userId);
    if (!account) throw new Error('user missing');
    expect(partnerUserUsage(fx.ctx, account)).toMatchObject({
      plan: 'Free',
      next_plan: 'Free',
      pinned_count: 0,
      pinned_count_limit: 100,
      pinned_bytes_limit: GiB,
      ingress_limit: 5 * GiB,
      egress_limit: 5 * GiB,
      ipns_limit: 3,
    });
  });

  it('reserve up to the limit exactly, then refuses the next unit naming the counter and changing nothing', () => {
    const limits: [UsageKind, number][] = [
      ['pinned_count', 100],
      ['pinned_bytes', GiB],
      ['ingress', 5 * GiB],
      ['egress', 5 * GiB],
      ['ipns', 3],
    ];
    for (const [kind, limit] of limits) {
      reserve(fx.ctx, userId, kind, limit - 1);
      reserve(fx.ctx, userId, kind, 1);
      const before = usageOf(fx.ctx.db, userId);
      expectLimit(() => reserve(fx.ctx, userId, kind, 1), kind);
      expectLimit(() => check(fx.ctx, userId, kind, 1), kind);
      expect(usageOf(fx.ctx.db, userId)).toEqual(before);
    }
    const usage = usageOf(fx.ctx.db, userId);
    expect(usage).toMatchObject({ pinnedCount: 100, pinnedBytes: GiB, ingress: 5 * GiB, egress: 5 * GiB, ipnsCount: 3 });
  });

  it('a single change larger than the room left is refused whole', () => {
    reserve(fx.ctx, userId, 'pinned_bytes', GiB - 10);
    expectLimit(() => reserve(fx.ctx, userId, 'pinned_bytes', 11), 'pinned_bytes');
    expect(usageOf(fx.ctx.db, userId).pinnedBytes).toBe(GiB - 10);
    reserve(fx.ctx, userId, 'pinned_bytes', 10);
    expect(usageOf(fx.ctx.db, userId).pinnedBytes).toBe(GiB);
  });

  it('check alone never changes a counter; zero and negative amounts always pass', () => {
    check(fx.ctx, userId, 'pinned_count', 100);
    expect(usageOf(fx.ctx.db, userId).pinnedCount).toBe(0);
    record(fx.ctx, userId, 'pinned_count', 100);
    check(fx.ctx, userId, 'pinned_count', 0);
    check(fx.ctx, userId, 'pinned_count', -5);
    record(fx.ctx, userId, 'pinned_count', -40);
    expect(usageOf(fx.ctx.db, userId).pinnedCount).toBe(60);
    check(fx.ctx, userId, 'pinned_count', 40);
  });

  it('record never refuses (callers check first)', () => {
    record(fx.ctx, userId, 'ipns', 5);
    expect(usageOf(fx.ctx.db, userId).ipnsCount).toBe(5);
    expectLimit(() => check(fx.ctx, userId, 'ipns', 1), 'ipns');
  });

  it('the owner on Local is unlimited', () => {
    reserve(fx.ctx, ownerId, 'pinned_bytes', 100 * 1024 * GiB);
    reserve(fx.ctx, ownerId, 'ipns', 1_000_000);
    expect(usageOf(fx.ctx.db, ownerId)).toMatchObject({ pinnedBytes: 100 * 1024 * GiB, ipnsCount: 1_000_000 });
  });

  it('ingress and egress reset at the first second of the next month (UTC); pinned counters do not', () => {
    clock.set(JAN_31_LAST_SECOND);
    reserve(fx.ctx, userId, 'ingress', 5 * GiB);
    reserve(fx.ctx, userId, 'egress', 5 * GiB);
    reserve(fx.ctx, userId, 'pinned_count', 7);
    expectLimit(() => check(fx.ctx, userId, 'ingress', 1), 'ingress');
    expectLimit(() => check(fx.ctx, userId, 'egress', 1), 'egress');

    clock.set(FEB_1 - 1);
    expectLimit(() => check(fx.ctx, userId, 'ingress', 1), 'ingress');

    clock.set(FEB_1);
    check(fx.ctx, userId, 'ingress', 5 * GiB);
    check(fx.ctx, userId, 'egress', 1);
    expect(currentUsage(fx.ctx, userId)).toMatchObject({ periodStart: FEB_1 / 1000, ingress: 0, egress: 0, pinnedCount: 7 });
    reserve(fx.ctx, userId, 'ingress', 3);
    expect(usageOf(fx.ctx.db, userId)).toMatchObject({ periodStart: FEB_1 / 1000, ingress: 3, egress: 0, pinnedCount: 7 });
  });

  it('stats show the reset counters after the month turns, before anything else touches them', () => {
    record(fx.ctx, userId, 'egress', 1234);
    clock.set(Date.UTC(2027, 2, 3));
    const account = accountById(fx.ctx.db, userId);
    if (!account) throw new Error('user missing');
    expect(partnerUserUsage(fx.ctx, account).egress).toBe(0);
  });

  it('next_bill_at is the first second of next month, UTC, also across a year end', () => {
    const account = accountById(fx.ctx.db, userId);
    if (!account) throw new Error('user missing');
    expect(accountUsage(fx.ctx, account).next_bill_at).toBe(FEB_1 / 1000);
    clock.set(JAN_31_LAST_SECOND);
    expect(accountUsage(fx.ctx, account).next_bill_at).toBe(FEB_1 / 1000);
    clock.set(Date.UTC(2027, 11, 31, 23, 59, 59));
    expect(accountUsage(fx.ctx, account).next_bill_at).toBe(Date.UTC(2028, 0, 1) / 1000);
    expect(nextPeriodStart(Date.UTC(2028, 1, 29, 5) / 1000)).toBe(Date.UTC(2028, 2, 1) / 1000);
    expect(periodStartOf(Date.UTC(2028, 1, 29, 5) / 1000)).toBe(Date.UTC(2028, 1, 1) / 1000);
  });

  it('account stats carry the balance as a two-decimal string; partner user stats omit eth_addr and token_amount', () => {
    const owner = accountById(fx.ctx.db, ownerId);
    const user = accountById(fx.ctx.db, userId);
    if (!owner || !user) throw new Error('account missing');
    expect(accountUsage(fx.ctx, owner)).toMatchObject({ plan: 'Local', token_amount: '1000.00', eth_addr: '' });
    const partnerView = partnerUserUsage(fx.ctx, user);
    expect(partnerView).not.toHaveProperty('eth_addr');
    expect(partnerView).not.toHaveProperty('token_amount');
  });
});
