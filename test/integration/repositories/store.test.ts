import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TransactionMisuse, UniqueViolation, type Transaction } from '../../../main/store/repositories/index.js';
import { REPOSITORY_ENGINES, type EngineDatabase } from '../../helpers/repository-engines.js';
import { deferred } from '../../helpers/deferred.js';

/** The store's transactions, the same on both engines: all or nothing, typed errors, no use after the end. */
describe.each(REPOSITORY_ENGINES.map((make) => [make().name, make] as const))('Store transactions on %s', (_name, make) => {
  const engine = make();
  let database: EngineDatabase;
  beforeAll(() => engine.start());
  afterAll(() => engine.stop());
  beforeEach(async () => {
    database = await engine.open();
  });
  afterEach(() => database.close());

  const text = async (key: string): Promise<string | null> => (await database.store.meta.metaValue(key))?.toString() ?? null;

  it('commits every write of a transaction whose work resolves, and answers its result', async () => {
    const result = await database.store.transaction(async (tx) => {
      await tx.meta.setMetaValue('a', Buffer.from('1'));
      await tx.meta.setMetaValue('b', Buffer.from('2'));
      return 'done';
    });
    expect(result).toBe('done');
    expect([await text('a'), await text('b')]).toEqual(['1', '2']);
  });

  it('rolls every write back when the work throws, and passes the error on', async () => {
    const failure = new Error('refused');
    await expect(
      database.store.transaction(async (tx) => {
        await tx.meta.setMetaValue('a', Buffer.from('1'));
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await text('a')).toBeNull();
  });

  it('answers a unique key taken with UniqueViolation, in autocommit and inside a transaction, and keeps one row', async () => {
    const account = {
      uuid: 'u-1',
      name: 'a',
      email: '',
      provider: 'local',
      planId: 1,
      balanceCents: 0,
      periodStart: 0,
      createdAt: 0,
      isOwner: false,
      isPartner: false,
      partnerId: null,
    };
    await database.store.accounts.insertAccount(account);
    await expect(database.store.accounts.insertAccount(account)).rejects.toBeInstanceOf(UniqueViolation);
    await expect(database.store.transaction((tx) => tx.accounts.insertAccount(account))).rejects.toBeInstanceOf(UniqueViolation);
    expect((await database.store.accounts.allAccounts()).length).toBe(1);
  });

  it('refuses a transaction handle used after its transaction ended, writing nothing', async () => {
    let leaked: Transaction | undefined;
    await database.store.transaction(async (tx) => {
      leaked = tx;
    });
    await expect(leaked?.meta.setMetaValue('late', Buffer.from('x'))).rejects.toBeInstanceOf(TransactionMisuse);
    expect(await text('late')).toBeNull();
  });

  it('hides a transaction’s writes from other readers until it commits', async () => {
    const held = deferred();
    const written = deferred();
    const transaction = database.store.transaction(async (tx) => {
      await tx.meta.setMetaValue('pending', Buffer.from('yes'));
      written.resolve();
      await held.promise;
    });
    await written.promise;
    if (database.engine === 'postgres') {
      // Another connection reads the state from before the transaction, at once.
      expect(await text('pending')).toBeNull();
      held.resolve();
    } else {
      // SQLite's autocommit read waits for the open transaction to end, then reads what it committed.
      const during = text('pending');
      held.resolve();
      expect(await during).toBe('yes');
    }
    await transaction;
    expect(await text('pending')).toBe('yes');
  });
});
