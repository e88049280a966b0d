import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Change } from '../../main/base/changes.js';
import { openChangeChannel, type ChangeChannel } from '../../main/store/pg/change-channel.js';
import { openPostgresStore, type PostgresStore } from '../../main/store/pg/pg-store.js';
import { newAccount } from '../helpers/account-rows.js';
import { startPostgres, type PostgresServer } from '../helpers/engines/postgres.js';
import { queryDatabase } from './postgres-instances-helpers.js';
import { until } from '../helpers/until.js';

/**
 * The PostgreSQL store answers account and usage rows from memory (store.current, row-cache.ts), and drops
 * a copy when its own write commits and when the database announces a change of the row (migration 3's
 * triggers, over LISTEN/NOTIFY), whoever wrote it. The copies here would live a minute: whatever this test
 * sees dropped was dropped by a write or an announcement, not by age.
 */
describe('copies of account and usage rows across instances on PostgreSQL', () => {
  let postgres: PostgresServer;
  let url: string;
  let a: PostgresStore;
  let b: PostgresStore;
  let pool: pg.Pool;
  let channel: ChangeChannel;
  const heard: Change[] = [];
  let id = 0;

  beforeAll(async () => {
    postgres = await startPostgres();
    url = await postgres.createDatabase('row_cache');
    [a, b] = [await openPostgresStore(url, { rowCacheMs: 60_000 }), await openPostgresStore(url, { rowCacheMs: 60_000 })];
    pool = new pg.Pool({ connectionString: url, max: 1 });
    // Wired as the composition root wires it for instance A.
    channel = await openChangeChannel({
      url,
      pool,
      onChange(change) {
        heard.push(change);
        if (change.kind === 'account' || change.kind === 'usage') a.rowChanged(change.kind, Number(change.key));
      },
      onResync: () => a.rowsMissed(),
      onError: () => undefined,
    });
    id = await a.accounts.insertAccount(newAccount());
  });

  afterAll(async () => {
    await channel?.close();
    await pool?.end();
    await Promise.all([a?.close(), b?.close()]);
    await postgres?.stop();
  });

  /**
   * A reads both rows through its handle until it holds copies of both: the announcement of its own
   * last write may still arrive and drop a copy just read (harmless: one more read).
   */
  async function cached(): Promise<void> {
    await until('A to hold copies of both rows', async () => {
      await a.usage.usageOf(id);
      await a.accounts.accountById(id);
      return a.current.usage(id) !== undefined && a.current.account(id) !== undefined ? true : undefined;
    });
  }

  it('drops its copy at once when its own write commits, autocommit or in a transaction, committed or not', async () => {
    await cached();
    await a.usage.addUsage(id, 'ingress', 5);
    expect(a.current.usage(id)).toBeUndefined();
    expect((await a.usage.usageOf(id)).ingress).toBe(5);
    await cached();
    await a.transaction(async (tx) => {
      await tx.usage.addUsage(id, 'ingress', 1);
      await tx.accounts.setBalance(id, 250);
      // Not committed yet: other readers still see the committed row.
      expect((await a.usage.usageOf(id)).ingress).toBe(5);
    });
    expect(a.current.usage(id)).toBeUndefined();
    expect(a.current.account(id)).toBeUndefined();
    expect((await a.usage.usageOf(id)).ingress).toBe(6);
    await cached();
    await expect(
      a.transaction(async (tx) => {
        await tx.usage.addUsage(id, 'egress', 1);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(a.current.usage(id)).toBeUndefined();
    expect((await a.usage.usageOf(id)).egress).toBe(0);
  });

  it('drops a copy when another instance writes the row', async () => {
    await cached();
    await b.usage.addUsage(id, 'egress', 9);
    await until('A to drop its copy of the usage row', async () => (a.current.usage(id) === undefined ? true : undefined), 10_000);
    expect(heard).toContainEqual({ kind: 'usage', key: String(id) });
    expect((await a.usage.usageOf(id)).egress).toBe(9);
    await b.accounts.setPlan(id, 2);
    await until('A to drop its copy of the account row', async () => (a.current.account(id) === undefined ? true : undefined), 10_000);
    expect((await a.accounts.accountById(id))?.planId).toBe(2);
  });

  it('drops a copy when an operator’s SQL writes the row', async () => {
    await cached();
    await queryDatabase(url, 'UPDATE accounts SET balance_cents = 1000 WHERE id = $1', [id]);
    await until('A to drop its copy of the account row', async () => (a.current.account(id) === undefined ? true : undefined), 10_000);
    expect((await a.accounts.accountById(id))?.balanceCents).toBe(1000);
  });

  it('drops every copy when the listening session was lost', async () => {
    await cached();
    await queryDatabase(url, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN pinfold_changes'");
    await until(
      'the copies to go with the lost session',
      async () => (a.current.usage(id) === undefined && a.current.account(id) === undefined ? true : undefined),
      10_000,
    );
  });
});
