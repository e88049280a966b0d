import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AccessKeyRow, AccessKeysRepository } from '../../../main/store/repositories/keys.js';
import { UniqueViolation } from '../../../main/store/repositories/index.js';
import { insertTestAccount } from '../../helpers/account-rows.js';
import { REPOSITORY_ENGINES, repository, type EngineDatabase } from '../../helpers/repository-engines.js';

describe.each(REPOSITORY_ENGINES.map((make) => [make().name, make] as const))('AccessKeysRepository on %s', (_name, make) => {
  const engine = make();
  let database: EngineDatabase;
  let keys: AccessKeysRepository;
  let accountId: number;
  let otherId: number;
  beforeAll(() => engine.start());
  afterAll(() => engine.stop());
  beforeEach(async () => {
    database = await engine.open();
    keys = repository(database, 'keys');
    accountId = await insertTestAccount(database, { uuid: 'a' });
    otherId = await insertTestAccount(database, { uuid: 'b' });
  });
  afterEach(() => database.close());

  function key(accessKey: string, overrides: Partial<AccessKeyRow> = {}): AccessKeyRow {
    return {
      accessKey,
      accountId,
      name: `name-${accessKey}`,
      permissions: ['pins:read', 'pins:write'],
      secretSealed: Buffer.from([0, 1, 2, 255]),
      createdAt: 1_700_000_000,
      expiresAt: null,
      ...overrides,
    };
  }

  it('stores a key and reads it back by access key and by name; missing ones are null', async () => {
    const row = key('k1', { expiresAt: 1_700_000_600 });
    await keys.insertAccessKey(row);
    expect(await keys.accessKeyById('k1')).toEqual(row);
    expect(await keys.accessKeyByName(accountId, 'name-k1')).toEqual(row);
    expect(await keys.accessKeyById('nope')).toBeNull();
    expect(await keys.accessKeyByName(otherId, 'name-k1')).toBeNull();
    expect(await keys.accessKeyByName(accountId, 'nope')).toBeNull();
    expect(await keys.accessKeysOf(otherId)).toEqual([]);
  });

  it('keeps empty and single permission lists and binary secrets as they were', async () => {
    await keys.insertAccessKey(key('empty', { permissions: [] }));
    await keys.insertAccessKey(key('one', { permissions: ['admin'], secretSealed: Buffer.alloc(64, 0xab) }));
    expect((await keys.accessKeyById('empty'))?.permissions).toEqual([]);
    expect(await keys.accessKeyById('one')).toMatchObject({ permissions: ['admin'], secretSealed: Buffer.alloc(64, 0xab) });
  });

  it('refuses a second key with the same access key, or the same name on one account (UniqueViolation)', async () => {
    await keys.insertAccessKey(key('k1'));
    await expect(keys.insertAccessKey(key('k1', { name: 'other' }))).rejects.toBeInstanceOf(UniqueViolation);
    await expect(keys.insertAccessKey(key('k2', { name: 'name-k1' }))).rejects.toBeInstanceOf(UniqueViolation);
    await keys.insertAccessKey(key('k3', { name: 'name-k1', accountId: otherId }));
    expect((await keys.accessKeysOf(accountId)).map((row) => row.accessKey)).toEqual(['k1']);
    expect((await keys.accessKeysOf(otherId)).map((row) => row.accessKey)).toEqual(['k3']);
  });

  it("lists an account's keys newest first, keys of the same second the later inserted first", async () => {
    await keys.insertAccessKey(key('b', { createdAt: 100 }));
    await keys.insertAccessKey(key('a', { createdAt: 200 }));
    await keys.insertAccessKey(key('z', { createdAt: 100 }));
    await keys.insertAccessKey(key('c', { createdAt: 100 }));
    await keys.insertAccessKey(key('o', { createdAt: 300, accountId: otherId }));
    expect((await keys.accessKeysOf(accountId)).map((row) => row.accessKey)).toEqual(['a', 'c', 'z', 'b']);
    await keys.deleteAccessKey('z');
    await keys.insertAccessKey(key('y', { createdAt: 100 }));
    expect((await keys.accessKeysOf(accountId)).map((row) => row.accessKey)).toEqual(['a', 'y', 'c', 'b']);
  });

  it('deletes a key (a missing one is no error) and frees its name', async () => {
    await keys.insertAccessKey(key('k1'));
    await keys.deleteAccessKey('k1');
    await keys.deleteAccessKey('k1');
    expect(await keys.accessKeyById('k1')).toBeNull();
    await keys.insertAccessKey(key('k2', { name: 'name-k1' }));
    expect((await keys.accessKeyByName(accountId, 'name-k1'))?.accessKey).toBe('k2');
  });

  it('finds the session keys whose expiry has come, through the second itself, never ordinary keys', async () => {
    await keys.insertAccessKey(key('plain'));
    await keys.insertAccessKey(key('past', { expiresAt: 90 }));
    await keys.insertAccessKey(key('now', { expiresAt: 100 }));
    await keys.insertAccessKey(key('later', { expiresAt: 101 }));
    await keys.insertAccessKey(key('other', { expiresAt: 50, accountId: otherId }));
    const expired = (await keys.expiredSessionKeys(100)).map((row) => row.accessKey).sort();
    expect(expired).toEqual(['now', 'other', 'past']);
    expect(await keys.expiredSessionKeys(10)).toEqual([]);
    expect((await keys.expiredSessionKeys(2 ** 40)).map((row) => row.accessKey).sort()).toEqual(['later', 'now', 'other', 'past']);
  });
});
