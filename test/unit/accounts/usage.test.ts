import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AccountUsage, PartnerUserUsage } from '../../../shared/api-types.js';
import { LimitReachedError } from '../../../main/base/errors.js';
import { createOwner, createPartnerUser, type AccountRow } from '../../../main/accounts/accounts.js';
import { nextPeriodStart, periodStartOf } from '../../../main/accounts/billing-period.js';
import { accountUsage, check, currentUsage, partnerUserUsage, record, reserve, type UsageKind } from '../../../main/accounts/usage.js';
import type { UsageRow } from '../../../main/store/repositories/usage.js';
import { accountsFixture, type AccountsFixture } from './accounts-fixture.js';
import { manualClock, type ManualClock } from '../../helpers/manual-clock.js';

const GiB = 1024 ** 3;
const JAN_31_LAST_SECOND = Date.UTC(2027, 0, 31, 23, 59, 59);
const FEB_1 = Date.UTC(2027, 1, 1);

async function expectLimit(work: () => Promise<void>, kind: UsageKind): Promise<void> {
  let caught: unknown;
  try {
    await work();
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

  beforeEach(async () => {
    clock = manualClock(Date.UTC(2027, 0, 15, 12));
    fx = accountsFixture(clock);
    const owner = await createOwner(fx.ctx);
    ownerId = owner.id;
    userId = (await createPartnerUser(fx.ctx, owner, { uuid: 'user-1', name: 'User', email: 'u@example.com' })).id;
  });
  afterEach(() => fx.close());

  /** reserve as a caller does it: on a transaction of its own. */
  function reserveAlone(accountId: number, kind: UsageKind, amount: number): Promise<void> {
    return fx.ctx.store.transaction((tx) => reserve(fx.ctx, tx, accountId, kind, amount));
  }

  /** record as a caller does it: on a transaction of its own. */
  function recordAlone(accountId: number, kind: UsageKind, amount: number): Promise<void> {
    return fx.ctx.store.transaction((tx) => record(fx.ctx, tx, accountId, kind, amount));
  }

  /** The account and its usage of the current month, read as the stats routes read them. */
  async function statsOf(id: number): Promise<[AccountRow, UsageRow]> {
    const account = await fx.ctx.store.accounts.accountById(id);
    if (!account) throw new Error(`account ${id} missing`);
    return [account, await currentUsage(fx.ctx, fx.ctx.store, id)];
  }

  async function partnerView(id: number): Promise<PartnerUserUsage> {
    return partnerUserUsage(fx.ctx, ...(await statsOf(id)));
  }

  async function accountView(id: number): Promise<AccountUsage> {
    return accountUsage(fx.ctx, ...(await statsOf(id)));
  }

  it('a new account is on Free: 100 pins, 1 GiB pinned, 5 GiB ingress and egress, 3 IPNS', async () => {
    expect(await partnerView(userId)).toMatchObject({
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

  it('reserve up to the limit exactly, then refuses the next unit naming the counter and changing nothing', async () => {
    const limits: [UsageKind, number][] = [
      ['pinned_count', 100],
      ['pinned_bytes', GiB],
      ['ingress', 5 * GiB],
      ['egress', 5 * GiB],
      ['ipns', 3],
    ];
    for (const [kind, limit] of limits) {
      await reserveAlone(userId, kind, limit - 1);
      await reserveAlone(userId, kind, 1);
      const before = await fx.ctx.store.usage.usageOf(userId);
      await expectLimit(() => reserveAlone(userId, kind, 1), kind);
      await expectLimit(() => check(fx.ctx, fx.ctx.store, userId, kind, 1), kind);
      expect(await fx.ctx.store.usage.usageOf(userId)).toEqual(before);
    }
    const usage = await fx.ctx.store.usage.usageOf(userId);
    expect(usage).toMatchObject({ pinnedCount: 100, pinnedBytes: GiB, ingress: 5 * GiB, egress: 5 * GiB, ipnsCount: 3 });
  });

  it('a single change larger than the room left is refused whole', async () => {
    await reserveAlone(userId, 'pinned_bytes', GiB - 10);
    await expectLimit(() => reserveAlone(userId, 'pinned_bytes', 11), 'pinned_bytes');
    expect((await fx.ctx.store.usage.usageOf(userId)).pinnedBytes).toBe(GiB - 10);
    await reserveAlone(userId, 'pinned_bytes', 10);
    expect((await fx.ctx.store.usage.usageOf(userId)).pinnedBytes).toBe(GiB);
  });

  it('check alone never changes a counter; zero and negative amounts always pass', async () => {
    await check(fx.ctx, fx.ctx.store, userId, 'pinned_count', 100);
    expect((await fx.ctx.store.usage.usageOf(userId)).pinnedCount).toBe(0);
    await recordAlone(userId, 'pinned_count', 100);
    await check(fx.ctx, fx.ctx.store, userId, 'pinned_count', 0);
    await check(fx.ctx, fx.ctx.store, userId, 'pinned_count', -5);
    await recordAlone(userId, 'pinned_count', -40);
    expect((await fx.ctx.store.usage.usageOf(userId)).pinnedCount).toBe(60);
    await check(fx.ctx, fx.ctx.store, userId, 'pinned_count', 40);
  });

  it('record never refuses (callers check first)', async () => {
    await recordAlone(userId, 'ipns', 5);
    expect((await fx.ctx.store.usage.usageOf(userId)).ipnsCount).toBe(5);
    await expectLimit(() => check(fx.ctx, fx.ctx.store, userId, 'ipns', 1), 'ipns');
  });

  it('the owner on Local is unlimited', async () => {
    await reserveAlone(ownerId, 'pinned_bytes', 100 * 1024 * GiB);
    await reserveAlone(ownerId, 'ipns', 1_000_000);
    expect(await fx.ctx.store.usage.usageOf(ownerId)).toMatchObject({ pinnedBytes: 100 * 1024 * GiB, ipnsCount: 1_000_000 });
  });

  it('ingress and egress reset at the first second of the next month (UTC); pinned counters do not', async () => {
    clock.set(JAN_31_LAST_SECOND);
    await reserveAlone(userId, 'ingress', 5 * GiB);
    await reserveAlone(userId, 'egress', 5 * GiB);
    await reserveAlone(userId, 'pinned_count', 7);
    await expectLimit(() => check(fx.ctx, fx.ctx.store, userId, 'ingress', 1), 'ingress');
    await expectLimit(() => check(fx.ctx, fx.ctx.store, userId, 'egress', 1), 'egress');

    clock.set(FEB_1 - 1);
    await expectLimit(() => check(fx.ctx, fx.ctx.store, userId, 'ingress', 1), 'ingress');

    clock.set(FEB_1);
    await check(fx.ctx, fx.ctx.store, userId, 'ingress', 5 * GiB);
    await check(fx.ctx, fx.ctx.store, userId, 'egress', 1);
    expect(await currentUsage(fx.ctx, fx.ctx.store, userId)).toMatchObject({ periodStart: FEB_1 / 1000, ingress: 0, egress: 0, pinnedCount: 7 });
    await reserveAlone(userId, 'ingress', 3);
    expect(await fx.ctx.store.usage.usageOf(userId)).toMatchObject({ periodStart: FEB_1 / 1000, ingress: 3, egress: 0, pinnedCount: 7 });
  });

  it('stats show the reset counters after the month turns, before anything else touches them', async () => {
    await recordAlone(userId, 'egress', 1234);
    clock.set(Date.UTC(2027, 2, 3));
    expect((await partnerView(userId)).egress).toBe(0);
  });

  it('next_bill_at is the first second of next month, UTC, also across a year end', async () => {
    expect((await accountView(userId)).next_bill_at).toBe(FEB_1 / 1000);
    clock.set(JAN_31_LAST_SECOND);
    expect((await accountView(userId)).next_bill_at).toBe(FEB_1 / 1000);
    clock.set(Date.UTC(2027, 11, 31, 23, 59, 59));
    expect((await accountView(userId)).next_bill_at).toBe(Date.UTC(2028, 0, 1) / 1000);
    expect(nextPeriodStart(Date.UTC(2028, 1, 29, 5) / 1000)).toBe(Date.UTC(2028, 2, 1) / 1000);
    expect(periodStartOf(Date.UTC(2028, 1, 29, 5) / 1000)).toBe(Date.UTC(2028, 1, 1) / 1000);
  });

  it('account stats carry the balance as a two-decimal string; partner user stats omit eth_addr and token_amount', async () => {
    expect(await accountView(ownerId)).toMatchObject({ plan: 'Local', token_amount: '1000.00', eth_addr: '' });
    const userView = await partnerView(userId);
    expect(userView).not.toHaveProperty('eth_addr');
    expect(userView).not.toHaveProperty('token_amount');
  });
});
