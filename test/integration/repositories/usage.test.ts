import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { migratePostgres } from '../../../main/store/pg/migrate.js';
import { PG_MIGRATIONS } from '../../../main/store/pg/migrations/index.js';
import type { UsageRepository } from '../../../main/store/repositories/usage.js';
import { insertTestAccount, newAccount } from '../../helpers/account-rows.js';
import { startPostgres, type PostgresServer } from '../../helpers/engines/postgres.js';
import { testPool } from '../../helpers/pg-test-pool.js';
import { REPOSITORY_ENGINES, repository, type EngineDatabase } from '../../helpers/repository-engines.js';
import { PG_QUERY_MODULES } from '../../../main/store/pg/modules.js';

const accountQueries = PG_QUERY_MODULES.accounts;
const usageQueries = PG_QUERY_MODULES.usage;

describe.each(REPOSITORY_ENGINES.map((make) => [make().name, make] as const))('UsageRepository on %s', (_name, make) => {
  const engine = make();
  let database: EngineDatabase;
  let usage: UsageRepository;
  let accountId: number;
  let otherId: number;
  beforeAll(() => engine.start());
  afterAll(() => engine.stop());
  beforeEach(async () => {
    database = await engine.open();
    usage = repository(database, 'usage');
    accountId = await insertTestAccount(database, { uuid: 'a', periodStart: 1000 });
    otherId = await insertTestAccount(database, { uuid: 'b', periodStart: 2000 });
  });
  afterEach(() => database.close());

  it('starts at zero in the period the account was created with; a missing account throws', async () => {
    expect(await usage.usageOf(accountId)).toEqual({ accountId, periodStart: 1000, ingress: 0, egress: 0, pinnedCount: 0, pinnedBytes: 0, ipnsCount: 0 });
    await expect(usage.usageOf(accountId + otherId + 100)).rejects.toThrow(/usage row missing/);
  });

  it('moves each counter by its amount (negative releases), one account only, past 2^32', async () => {
    await usage.addUsage(accountId, 'ingress', 2 ** 33);
    await usage.addUsage(accountId, 'ingress', 5);
    await usage.addUsage(accountId, 'egress', 7);
    await usage.addUsage(accountId, 'pinned_count', 3);
    await usage.addUsage(accountId, 'pinned_count', -1);
    await usage.addUsage(accountId, 'pinned_bytes', 2 ** 50);
    await usage.addUsage(accountId, 'ipns_count', 2);
    expect(await usage.usageOf(accountId)).toEqual({
      accountId,
      periodStart: 1000,
      ingress: 2 ** 33 + 5,
      egress: 7,
      pinnedCount: 2,
      pinnedBytes: 2 ** 50,
      ipnsCount: 2,
    });
    expect(await usage.usageOf(otherId)).toMatchObject({ ingress: 0, egress: 0, pinnedCount: 0, pinnedBytes: 0, ipnsCount: 0 });
    await usage.addUsage(accountId + otherId + 100, 'ingress', 1);
  });

  it('adds concurrent increments exactly (no read-modify-write)', async () => {
    await Promise.all(Array.from({ length: 40 }, (_, i) => usage.addUsage(accountId, 'egress', i + 1)));
    expect((await usage.usageOf(accountId)).egress).toBe((40 * 41) / 2);
  });

  it('resets the period: a new start, ingress and egress zero, the pinned and IPNS counters kept', async () => {
    await usage.addUsage(accountId, 'ingress', 10);
    await usage.addUsage(accountId, 'egress', 20);
    await usage.addUsage(accountId, 'pinned_count', 3);
    await usage.addUsage(accountId, 'pinned_bytes', 300);
    await usage.addUsage(accountId, 'ipns_count', 1);
    await usage.resetPeriod(accountId, 5000);
    expect(await usage.usageOf(accountId)).toEqual({ accountId, periodStart: 5000, ingress: 0, egress: 0, pinnedCount: 3, pinnedBytes: 300, ipnsCount: 1 });
    expect((await usage.usageOf(otherId)).periodStart).toBe(2000);
  });

  it("mirrors writes into the day's row: increments added, pinned values copied from usage as they are now", async () => {
    await usage.addUsage(accountId, 'pinned_bytes', 100);
    await usage.addUsage(accountId, 'pinned_count', 1);
    await usage.mirrorDailyUsage(accountId, '2026-01-02', 10, 0);
    await usage.addUsage(accountId, 'pinned_bytes', 50);
    await usage.mirrorDailyUsage(accountId, '2026-01-02', 5, 7);
    expect(await usage.dailyUsageFrom(accountId, '2026-01-01')).toEqual([{ day: '2026-01-02', ingress: 15, egress: 7, pinnedBytes: 150, pinnedCount: 1 }]);
    await usage.mirrorDailyUsage(accountId, '2026-01-03', 0, 2 ** 40);
    expect(await usage.dailyUsageFrom(accountId, '2026-01-03')).toEqual([{ day: '2026-01-03', ingress: 0, egress: 2 ** 40, pinnedBytes: 150, pinnedCount: 1 }]);
    expect(await usage.dailyUsageFrom(otherId, '2026-01-01')).toEqual([]);
  });

  it('adds concurrent mirrors of one day exactly', async () => {
    await Promise.all(Array.from({ length: 30 }, () => usage.mirrorDailyUsage(accountId, '2026-02-01', 1, 2)));
    expect(await usage.dailyUsageFrom(accountId, '2026-02-01')).toEqual([{ day: '2026-02-01', ingress: 30, egress: 60, pinnedBytes: 0, pinnedCount: 0 }]);
  });

  it('writes no daily row for a missing account', async () => {
    const missing = accountId + otherId + 100;
    await usage.mirrorDailyUsage(missing, '2026-01-02', 1, 1);
    expect(await usage.dailyUsageFrom(missing, '2000-01-01')).toEqual([]);
    expect(await usage.dailyUsageBefore(missing, '2100-01-01')).toBeNull();
  });

  it('lists the days from a first day on, oldest first, and finds the last day before it', async () => {
    for (const [day, ingress] of [
      ['2026-03-10', 1],
      ['2025-12-31', 2],
      ['2026-01-01', 3],
      ['2026-02-28', 4],
    ] as const) {
      await usage.addUsage(accountId, 'pinned_count', 1);
      await usage.mirrorDailyUsage(accountId, day, ingress, 0);
    }
    await usage.mirrorDailyUsage(otherId, '2026-01-15', 9, 9);
    expect((await usage.dailyUsageFrom(accountId, '2026-01-01')).map((row) => [row.day, row.ingress])).toEqual([
      ['2026-01-01', 3],
      ['2026-02-28', 4],
      ['2026-03-10', 1],
    ]);
    expect(await usage.dailyUsageFrom(accountId, '2026-03-11')).toEqual([]);
    expect(await usage.dailyUsageBefore(accountId, '2026-01-01')).toEqual({ day: '2025-12-31', ingress: 2, egress: 0, pinnedBytes: 0, pinnedCount: 2 });
    expect((await usage.dailyUsageBefore(accountId, '2026-03-10'))?.day).toBe('2026-02-28');
    expect((await usage.dailyUsageBefore(accountId, '2099-01-01'))?.day).toBe('2026-03-10');
    expect(await usage.dailyUsageBefore(accountId, '2025-12-31')).toBeNull();
  });
});

/**
 * What only PostgreSQL has to show: transactions of several instances at once. The domain reads usage,
 * judges, then writes, on one transaction; SQLite's single writer made that one step, and here usageOf's
 * row lock must. (The query functions are called on two clients, as two instances' transactions would.)
 */
describe('UsageRepository on postgres, across concurrent transactions', () => {
  let server: PostgresServer;
  let pool: pg.Pool;
  let closePool: () => Promise<void>;
  let accountId: number;
  beforeAll(async () => {
    server = await startPostgres();
    ({ pool, close: closePool } = testPool(await server.createDatabase('usage_tx')));
    await migratePostgres(pool, PG_MIGRATIONS);
    accountId = await accountQueries.insertAccount(pool, newAccount({ periodStart: 1000 }));
  });
  afterAll(async () => {
    await closePool();
    await server.stop();
  });

  it("makes a second transaction's read wait for the first's commit, then see its writes", async () => {
    const first = await pool.connect();
    const second = await pool.connect();
    try {
      await first.query('BEGIN');
      const seenFirst = await usageQueries.usageOf(first, accountId);
      await second.query('BEGIN');
      let secondRead = false;
      const secondDone = (async () => {
        const usage = await usageQueries.usageOf(second, accountId);
        secondRead = true;
        await usageQueries.addUsage(second, accountId, 'ingress', 1);
        return usage;
      })();
      await usageQueries.addUsage(first, accountId, 'ingress', seenFirst.ingress + 10);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(secondRead).toBe(false);
      await first.query('COMMIT');
      expect((await secondDone).ingress).toBe(10);
      await second.query('COMMIT');
      expect((await usageQueries.usageOf(pool, accountId)).ingress).toBe(11);
    } finally {
      await first.query('ROLLBACK').catch(() => undefined);
      await second.query('ROLLBACK').catch(() => undefined);
      first.release();
      second.release();
    }
  });

  it('resets a past period once: a reset that read the old period late changes nothing', async () => {
    await usageQueries.resetPeriod(pool, accountId, 2000);
    await usageQueries.addUsage(pool, accountId, 'egress', 5);
    await usageQueries.resetPeriod(pool, accountId, 2000);
    expect(await usageQueries.usageOf(pool, accountId)).toMatchObject({ periodStart: 2000, egress: 5 });
  });
});
