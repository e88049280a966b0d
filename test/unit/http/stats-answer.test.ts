import { afterEach, describe, expect, it } from 'vitest';
import { credit, createOwner } from '../../../main/accounts/accounts.js';
import { accountUsage, currentUsage, record } from '../../../main/accounts/usage.js';
import type { EgressMeter } from '../../../main/accounts/egress-meter.js';
import { ok } from '../../../main/http/envelope.js';
import { statsAnswer } from '../../../main/http/stats-answer.js';
import type { AccountRow } from '../../../main/store/repositories/accounts.js';
import { accountsFixture, type AccountsFixture } from '../accounts/accounts-fixture.js';
import { manualClock, type ManualClock } from '../../helpers/manual-clock.js';

/** The stats answer is kept between requests; each change to what it shows must show in the next one. */
describe('the stats answer', () => {
  let fx: AccountsFixture | undefined;
  afterEach(() => fx?.close());

  interface StatsSetUp {
    id: number;
    owner: () => Promise<AccountRow>;
    answer: () => Promise<unknown>;
    fresh: () => Promise<unknown>;
  }

  async function setUp(clock: ManualClock): Promise<StatsSetUp> {
    fx = accountsFixture(clock);
    const ctx = fx.ctx;
    const id = (await createOwner(ctx)).id;
    const owner = async () => {
      const row = await ctx.store.accounts.accountById(id);
      if (!row) throw new Error('owner missing');
      return row;
    };
    return {
      id,
      owner,
      answer: async () => JSON.parse(await statsAnswer(ctx, await owner())) as unknown,
      fresh: async () => ok(accountUsage(ctx, await owner(), await currentUsage(ctx, ctx.store, id))),
    };
  }

  it('is the envelope of the account usage, and the same text while nothing changed', async () => {
    const { owner, answer, fresh } = await setUp(manualClock(Date.UTC(2027, 0, 15)));
    expect(await answer()).toEqual(await fresh());
    const ctx = (fx as AccountsFixture).ctx;
    expect(await statsAnswer(ctx, await owner())).toBe(await statsAnswer(ctx, await owner()));
  });

  it('follows usage, balance and metered egress', async () => {
    const { id, owner, answer, fresh } = await setUp(manualClock(Date.UTC(2027, 0, 15)));
    const ctx = (fx as AccountsFixture).ctx;
    expect(await answer()).toEqual(await fresh());

    await ctx.store.transaction((tx) => record(ctx, tx, id, 'ingress', 12_345));
    expect(await answer()).toMatchObject({ data: { ingress: 12_345 } });

    await credit(ctx, (await owner()).uuid, 250);
    expect(await answer()).toEqual(await fresh());

    let pending = 0;
    const meter: EgressMeter = {
      add: (_account, bytes) => void (pending += bytes),
      pending: () => pending,
      reading: (read) => read(),
      flush: async () => undefined,
      close: async () => undefined,
    };
    ctx.egressMeter = meter;
    meter.add(id, 4096);
    expect(await answer()).toMatchObject({ data: { egress: 4096 } });
  });

  it('starts the next billing month with its traffic at zero and its next bill date', async () => {
    const clock = manualClock(Date.UTC(2027, 0, 31, 23, 59, 59));
    const { id, answer, fresh } = await setUp(clock);
    const ctx = (fx as AccountsFixture).ctx;
    await ctx.store.transaction((tx) => record(ctx, tx, id, 'ingress', 777));
    expect(await answer()).toMatchObject({ data: { ingress: 777, next_bill_at: Date.UTC(2027, 1, 1) / 1000 } });
    clock.set(Date.UTC(2027, 1, 1));
    expect(await answer()).toMatchObject({ data: { ingress: 0, next_bill_at: Date.UTC(2027, 2, 1) / 1000 } });
    expect(await answer()).toEqual(await fresh());
  });
});
