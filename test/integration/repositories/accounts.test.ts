import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { PgBound } from '../../../main/store/pg/bind.js';
import { migratePostgres } from '../../../main/store/pg/migrate.js';
import { PG_MIGRATIONS } from '../../../main/store/pg/migrations/index.js';
import type { AccountsRepository } from '../../../main/store/repositories/accounts.js';
import { UniqueViolation, type Repositories } from '../../../main/store/repositories/index.js';
import { newAccount } from '../../helpers/account-rows.js';
import { startPostgres, type PostgresServer } from '../../helpers/engines/postgres.js';
import { testPool } from '../../helpers/pg-test-pool.js';
import { REPOSITORY_ENGINES, repository, type EngineDatabase } from '../../helpers/repository-engines.js';
import { PG_QUERY_MODULES } from '../../../main/store/pg/modules.js';

const accountQueries = PG_QUERY_MODULES.accounts;

/** Compile-time: the PostgreSQL modules of this part, bound, are the repositories the domains know. */
type PgRepositories = { [K in keyof typeof PG_QUERY_MODULES]: PgBound<(typeof PG_QUERY_MODULES)[K]> };
const pgModulesMatch: PgRepositories extends Pick<Repositories, 'accounts' | 'keys' | 'usage' | 'uploads'> ? true : never = true;

describe.each(REPOSITORY_ENGINES.map((make) => [make().name, make] as const))('AccountsRepository on %s', (_name, make) => {
  const engine = make();
  let database: EngineDatabase;
  let accounts: AccountsRepository;
  beforeAll(() => engine.start());
  afterAll(() => engine.stop());
  beforeEach(async () => {
    database = await engine.open();
    accounts = repository(database, 'accounts');
  });
  afterEach(() => database.close());

  it('type-checks the PostgreSQL modules against the interfaces', () => {
    expect(pgModulesMatch).toBe(true);
  });

  it('inserts an account with its usage row and reads it back by id, uuid and in the full list', async () => {
    const id = await accounts.insertAccount(newAccount({ planId: 3, balanceCents: 250 }));
    expect(id).toBeTypeOf('number');
    const expected = {
      id,
      uuid: 'u-1',
      name: 'Ada',
      email: 'ada@example.org',
      provider: 'local',
      isOwner: false,
      isPartner: false,
      partnerId: null,
      planId: 3,
      nextPlanId: 3,
      balanceCents: 250,
      createdAt: 1_700_000_000,
    };
    expect(await accounts.accountById(id)).toEqual(expected);
    expect(await accounts.accountByUuid('u-1')).toEqual(expected);
    expect(await accounts.allAccounts()).toEqual([expected]);
    expect(await repository(database, 'usage').usageOf(id)).toEqual({
      accountId: id,
      periodStart: 1_699_999_000,
      ingress: 0,
      egress: 0,
      pinnedCount: 0,
      pinnedBytes: 0,
      ipnsCount: 0,
    });
  });

  it('answers null for missing accounts, an empty list and count when there are none', async () => {
    expect(await accounts.accountById(42)).toBeNull();
    expect(await accounts.accountByUuid('nobody')).toBeNull();
    expect(await accounts.ownerAccount()).toBeNull();
    expect(await accounts.partnerUser(1, 'nobody')).toBeNull();
    expect(await accounts.allAccounts()).toEqual([]);
    expect(await accounts.partnerUsersPage(1, 10, 0)).toEqual([]);
    expect(await accounts.countPartnerUsers(1)).toBe(0);
    expect(await accounts.ledgerOf(1)).toEqual([]);
  });

  it('refuses a second account with the same uuid (UniqueViolation), leaving no usage row behind', async () => {
    await accounts.insertAccount(newAccount());
    await expect(accounts.insertAccount(newAccount({ name: 'Other' }))).rejects.toBeInstanceOf(UniqueViolation);
    expect(await accounts.allAccounts()).toHaveLength(1);
  });

  it('finds the owner (and PostgreSQL refuses a second one)', async () => {
    await accounts.insertAccount(newAccount({ uuid: 'plain' }));
    const ownerId = await accounts.insertAccount(newAccount({ uuid: 'owner', isOwner: true }));
    expect((await accounts.ownerAccount())?.id).toBe(ownerId);
    expect((await accounts.ownerAccount())?.isOwner).toBe(true);
    // PostgreSQL's schema alone has accounts_one_owner (instances starting at once must not both create an
    // owner); SQLite's single process never races, and its schema has no such index.
    if (database.engine === 'postgres') {
      await expect(accounts.insertAccount(newAccount({ uuid: 'owner-2', isOwner: true }))).rejects.toBeInstanceOf(UniqueViolation);
      expect((await accounts.ownerAccount())?.id).toBe(ownerId);
      expect(await accounts.allAccounts()).toHaveLength(2);
    }
  });

  it('lists every account by id, ascending', async () => {
    const a = await accounts.insertAccount(newAccount({ uuid: 'a', createdAt: 30 }));
    const b = await accounts.insertAccount(newAccount({ uuid: 'b', createdAt: 10 }));
    const c = await accounts.insertAccount(newAccount({ uuid: 'c', createdAt: 20 }));
    expect((await accounts.allAccounts()).map((row) => row.id)).toEqual([a, b, c]);
    expect(a < b && b < c).toBe(true);
  });

  it("pages a partner's users newest first, ties by id descending, with their pinned usage", async () => {
    const partner = await accounts.insertAccount(newAccount({ uuid: 'partner', isPartner: true }));
    const other = await accounts.insertAccount(newAccount({ uuid: 'other-partner', isPartner: true }));
    const u1 = await accounts.insertAccount(newAccount({ uuid: 'u1', name: 'One', partnerId: partner, createdAt: 100, planId: 2 }));
    await accounts.insertAccount(newAccount({ uuid: 'u2', name: 'Two', partnerId: partner, createdAt: 300 }));
    await accounts.insertAccount(newAccount({ uuid: 'u3', name: 'Three', partnerId: partner, createdAt: 200 }));
    await accounts.insertAccount(newAccount({ uuid: 'u4', name: 'Four', partnerId: partner, createdAt: 200 }));
    await accounts.insertAccount(newAccount({ uuid: 'x1', partnerId: other, createdAt: 999 }));
    const usage = repository(database, 'usage');
    await usage.addUsage(u1, 'pinned_bytes', 2 ** 40);
    await usage.addUsage(u1, 'pinned_count', 7);

    expect(await accounts.countPartnerUsers(partner)).toBe(4);
    expect(await accounts.countPartnerUsers(other)).toBe(1);
    const all = await accounts.partnerUsersPage(partner, 10, 0);
    expect(all.map((row) => row.uuid)).toEqual(['u2', 'u4', 'u3', 'u1']);
    expect(all[3]).toEqual({ uuid: 'u1', name: 'One', planId: 2, createdAt: 100, pinnedBytes: 2 ** 40, pinnedCount: 7 });
    expect(all[0]).toEqual({ uuid: 'u2', name: 'Two', planId: 1, createdAt: 300, pinnedBytes: 0, pinnedCount: 0 });
    expect((await accounts.partnerUsersPage(partner, 2, 1)).map((row) => row.uuid)).toEqual(['u4', 'u3']);
    expect((await accounts.partnerUsersPage(partner, 2, 4)).map((row) => row.uuid)).toEqual([]);
    expect((await accounts.partnerUsersPage(partner, 0, 0)).map((row) => row.uuid)).toEqual([]);
    expect((await accounts.partnerUsersPage(partner, -1, 1)).map((row) => row.uuid)).toEqual(['u4', 'u3', 'u1']);

    expect((await accounts.partnerUser(partner, 'u3'))?.name).toBe('Three');
    expect((await accounts.partnerUser(partner, 'u3'))?.partnerId).toBe(partner);
    expect(await accounts.partnerUser(other, 'u3')).toBeNull();
    expect(await accounts.partnerUser(partner, 'partner')).toBeNull();
  });

  it('sets the partner flag, the plan (and the next plan with it) and the balance; a missing id changes nothing', async () => {
    const id = await accounts.insertAccount(newAccount({ planId: 1 }));
    await accounts.setPartnerFlag(id, true);
    expect((await accounts.accountById(id))?.isPartner).toBe(true);
    await accounts.setPartnerFlag(id, false);
    expect((await accounts.accountById(id))?.isPartner).toBe(false);
    await accounts.setPlan(id, 5);
    expect(await accounts.accountById(id)).toMatchObject({ planId: 5, nextPlanId: 5 });
    await accounts.setBalance(id, 2 ** 52);
    expect((await accounts.accountById(id))?.balanceCents).toBe(2 ** 52);
    await accounts.setBalance(id, -75);
    expect((await accounts.accountById(id))?.balanceCents).toBe(-75);
    await accounts.setPlan(id + 100, 9);
    await accounts.setBalance(id + 100, 9);
    await accounts.setPartnerFlag(id + 100, true);
    expect(await accounts.accountById(id + 100)).toBeNull();
    expect(await accounts.allAccounts()).toHaveLength(1);
  });

  it('writes ledger rows and lists an account’s in insertion order, with NULLs kept', async () => {
    const payer = await accounts.insertAccount(newAccount({ uuid: 'payer', isPartner: true }));
    const user = await accounts.insertAccount(newAccount({ uuid: 'user', partnerId: payer }));
    await accounts.insertLedger({
      accountId: payer,
      amountCents: 500,
      balanceAfterCents: 500,
      kind: 'credit',
      subjectAccountId: null,
      planId: null,
      createdAt: 20,
    });
    await accounts.insertLedger({
      accountId: payer,
      amountCents: -200,
      balanceAfterCents: 300,
      kind: 'plan_fee',
      subjectAccountId: user,
      planId: 2,
      createdAt: 10,
    });
    await accounts.insertLedger({ accountId: user, amountCents: 1, balanceAfterCents: 1, kind: 'credit', subjectAccountId: null, planId: null, createdAt: 5 });
    const ledger = await accounts.ledgerOf(payer);
    expect(ledger.map(({ id: _id, ...rest }) => rest)).toEqual([
      { accountId: payer, amountCents: 500, balanceAfterCents: 500, kind: 'credit', subjectAccountId: null, planId: null, createdAt: 20 },
      { accountId: payer, amountCents: -200, balanceAfterCents: 300, kind: 'plan_fee', subjectAccountId: user, planId: 2, createdAt: 10 },
    ]);
    expect(ledger[0]!.id).toBeLessThan(ledger[1]!.id);
    expect(await accounts.ledgerOf(user)).toHaveLength(1);
  });
});

/**
 * What only PostgreSQL has to show: two instances' transactions at once. The domain reads a balance, then
 * writes balance ± amount (credit, a partner's plan fee); a read inside a transaction locks the row, so the
 * second transaction reads what the first committed and no change is lost.
 */
describe('AccountsRepository on postgres, across concurrent transactions', () => {
  let server: PostgresServer;
  let pool: pg.Pool;
  let closePool: () => Promise<void>;
  beforeAll(async () => {
    server = await startPostgres();
    ({ pool, close: closePool } = testPool(await server.createDatabase('accounts_tx')));
    await migratePostgres(pool, PG_MIGRATIONS);
  });
  afterAll(async () => {
    await closePool();
    await server.stop();
  });

  it.each([
    ['accountById', (q: pg.PoolClient, id: number) => accountQueries.accountById(q, id)],
    ['accountByUuid', (q: pg.PoolClient) => accountQueries.accountByUuid(q, 'credited')],
    ['partnerUser', (q: pg.PoolClient, _id: number, partnerId: number) => accountQueries.partnerUser(q, partnerId, 'credited')],
  ] as const)('makes a read-then-write through %s wait for the other transaction, losing no change', async (_name, read) => {
    await pool.query('TRUNCATE accounts CASCADE');
    const partnerId = await accountQueries.insertAccount(pool, newAccount({ uuid: 'partner', isPartner: true }));
    const id = await accountQueries.insertAccount(pool, newAccount({ uuid: 'credited', partnerId, balanceCents: 100 }));
    const first = await pool.connect();
    const second = await pool.connect();
    try {
      await first.query('BEGIN');
      await second.query('BEGIN');
      const seenFirst = await read(first, id, partnerId);
      let secondRead = false;
      const secondDone = (async () => {
        const seen = await read(second, id, partnerId);
        secondRead = true;
        await accountQueries.setBalance(second, id, (seen?.balanceCents ?? 0) + 5);
      })();
      await accountQueries.setBalance(first, id, (seenFirst?.balanceCents ?? 0) + 20);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(secondRead).toBe(false);
      await first.query('COMMIT');
      await secondDone;
      await second.query('COMMIT');
      expect((await accountQueries.accountById(pool, id))?.balanceCents).toBe(125);
    } finally {
      await first.query('ROLLBACK').catch(() => undefined);
      await second.query('ROLLBACK').catch(() => undefined);
      first.release();
      second.release();
    }
  });

  it("inserts an account inside a caller's transaction under a savepoint: a failed insert undoes itself alone", async () => {
    await pool.query('TRUNCATE accounts CASCADE');
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const first = await accountQueries.insertAccount(client, newAccount({ uuid: 'one' }));
      await expect(accountQueries.insertAccount(client, newAccount({ uuid: 'one' }))).rejects.toMatchObject({ code: '23505' });
      const second = await accountQueries.insertAccount(client, newAccount({ uuid: 'two' }));
      await client.query('COMMIT');
      expect((await accountQueries.allAccounts(pool)).map((row) => row.id)).toEqual([first, second]);
      expect((await pool.query('SELECT account_id FROM usage ORDER BY account_id')).rows.map((r: { account_id: string }) => Number(r.account_id))).toEqual([
        first,
        second,
      ]);
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release();
    }
  });

  it('lets a transaction holding an account lock insert rows that reference it from another (NO KEY lock)', async () => {
    await pool.query('TRUNCATE accounts CASCADE');
    const id = await accountQueries.insertAccount(pool, newAccount({ uuid: 'locked' }));
    const holder = await pool.connect();
    try {
      await holder.query('BEGIN');
      await accountQueries.accountById(holder, id);
      await accountQueries.insertLedger(pool, {
        accountId: id,
        amountCents: 1,
        balanceAfterCents: 1,
        kind: 'credit',
        subjectAccountId: null,
        planId: null,
        createdAt: 1,
      });
      expect(await accountQueries.ledgerOf(pool, id)).toHaveLength(1);
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      holder.release();
    }
  });
});
