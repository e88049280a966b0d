import { afterEach, describe, expect, it } from 'vitest';
import { credit, createOwner } from '../../../main/accounts/accounts.js';
import { accountUsage, record } from '../../../main/accounts/usage.js';
import { ok } from '../../../main/http/envelope.js';
import { statsAnswer } from '../../../main/http/stats-answer.js';
import { accountById, type AccountRow } from '../../../main/store/db/accounts-queries.js';
import { accountsFixture, manualClock, type AccountsFixture, type ManualClock } from '../accounts/accounts-fixture.js';

/** The stats answer is kept between requests; each change to what it shows must show in the next one. */
describe('the stats answer', () => {
  let fx: AccountsFixture | undefined;
  afterEach(() => fx?.close());

  function setUp(clock: ManualClock): { owner: () => AccountRow; answer: () => unknown; fresh: () => unknown } {
    fx = accountsFixture(clock);
    const ctx = fx.ctx;
    const id = createOwner(ctx).id;
    const owner = () => {
      const row = accountById(ctx.db, id);
      if (!row) throw new Error('owner missing');
      return row;
    };
    return { owner, answer: () => JSON.parse(statsAnswer(ctx, owner())) as unknown, fresh: () => ok(accountUsage(ctx, owner())) };
  }

  it('is the envelope of the account usage, and the same text while nothing changed', () => {
    const { owner, answer, fresh } = setUp(manualClock(Date.UTC(2027, 0, 15)));
    expect(answer()).toEqual(fresh());
    const ctx = (fx as AccountsFixture).ctx;
    expect(statsAnswer(ctx, owner())).toBe(statsAnswer(ctx, owner()));
  });

  it('follows usage, balance and metered egress', () => {
    const { answer, fresh } = setUp(manualClock(Date.UTC(2027, 0, 15)));
    const ctx = (fx as AccountsFixture).ctx;
    expect(answer()).toEqual(fresh());
    const id = (accountById(ctx.db, 1) as AccountRow).id;

    record(ctx, id, 'ingress', 12_345);
    expect(answer()).toMatchObject({ data: { ingress: 12_345 } });

    credit(ctx, (accountById(ctx.db, id) as AccountRow).uuid, 250);
    expect(answer()).toEqual(fresh());

    let pending = 0;
    ctx.egressMeter = { add: (_account, bytes) => void (pending += bytes), pending: () => pending, flush: () => undefined, close: () => undefined };
    ctx.egressMeter.add(id, 4096);
    expect(answer()).toMatchObject({ data: { egress: 4096 } });
  });

  it('starts the next billing month with its traffic at zero and its next bill date', () => {
    const clock = manualClock(Date.UTC(2027, 0, 31, 23, 59, 59));
    const { answer, fresh } = setUp(clock);
    const ctx = (fx as AccountsFixture).ctx;
    record(ctx, (accountById(ctx.db, 1) as AccountRow).id, 'ingress', 777);
    expect(answer()).toMatchObject({ data: { ingress: 777, next_bill_at: Date.UTC(2027, 1, 1) / 1000 } });
    clock.set(Date.UTC(2027, 1, 1));
    expect(answer()).toMatchObject({ data: { ingress: 0, next_bill_at: Date.UTC(2027, 2, 1) / 1000 } });
    expect(answer()).toEqual(fresh());
  });
});
