import { describe, expect, it } from 'vitest';
import type { AccountRow } from '../../../main/store/repositories/accounts.js';
import type { UsageRow } from '../../../main/store/repositories/usage.js';
import { RowCache } from '../../../main/store/pg/row-cache.js';

const usage = (ingress: number): UsageRow => ({ accountId: 7, periodStart: 0, ingress, egress: 0, pinnedCount: 0, pinnedBytes: 0, ipnsCount: 0 });
const account = { id: 7 } as unknown as AccountRow;

describe('the PostgreSQL store’s copies of account and usage rows', () => {
  it('answers a kept row until its age runs out, then asks again', () => {
    let now = 1_000;
    const rows = new RowCache(2_000, () => now);
    expect(rows.usage(7)).toBeUndefined();
    rows.keepUsage(7, rows.generation('usage', 7), usage(5));
    rows.keepAccount(7, rows.generation('account', 7), account);
    expect(rows.usage(7)).toEqual(usage(5));
    expect(rows.account(7)).toBe(account);
    now += 1_999;
    expect(rows.usage(7)?.ingress).toBe(5);
    now += 1;
    expect(rows.usage(7)).toBeUndefined();
    expect(rows.account(7)).toBeUndefined();
  });

  it('never keeps an answer read before the row was dropped (an older copy)', () => {
    const rows = new RowCache(60_000);
    const before = rows.generation('usage', 7);
    // A write commits (or is announced) while the read is on its way.
    rows.drop('usage', 7);
    rows.keepUsage(7, before, usage(1));
    expect(rows.usage(7)).toBeUndefined();
    // A read begun after the drop is kept; a drop of another account or kind changes nothing for it.
    rows.keepUsage(7, rows.generation('usage', 7), usage(2));
    rows.drop('account', 7);
    rows.drop('usage', 8);
    expect(rows.usage(7)?.ingress).toBe(2);
  });

  it('drops every copy, and every read in flight, when announcements were missed', () => {
    const rows = new RowCache(60_000);
    rows.keepUsage(7, rows.generation('usage', 7), usage(1));
    const inFlight = rows.generation('account', 9);
    rows.dropAll();
    expect(rows.usage(7)).toBeUndefined();
    rows.keepAccount(9, inFlight, account);
    expect(rows.account(9)).toBeUndefined();
    expect(rows.blockLocation()).toBeUndefined();
  });

  it('keeps no account that is not there (a missing row is asked again)', () => {
    const rows = new RowCache(60_000);
    rows.keepAccount(3, rows.generation('account', 3), null);
    expect(rows.account(3)).toBeUndefined();
  });
});
