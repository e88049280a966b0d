import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UniqueViolation } from '../../../main/store/repositories/index.js';
import type { NamesRepository, NewName } from '../../../main/store/repositories/names.js';
import { insertTestAccount } from '../../helpers/account-rows.js';
import { REPOSITORY_ENGINES, repository, type EngineDatabase } from '../../helpers/repository-engines.js';

function newName(accountId: number, name: string, more: Partial<NewName> = {}): NewName {
  return {
    accountId,
    name,
    alias: null,
    keyType: 'Ed25519',
    keySealed: new Uint8Array([1, 2, 3, 0, 255]),
    value: '/ipfs/bafyvalue',
    seq: 0,
    record: new Uint8Array([9, 8, 7]),
    createdAt: 1000,
    publishAt: 1000,
    validUntil: 5000,
    ...more,
  };
}

describe.each(REPOSITORY_ENGINES.map((make) => [make().name, make] as const))('NamesRepository on %s', (_name, make) => {
  const engine = make();
  let database: EngineDatabase;
  let names: NamesRepository;
  beforeAll(() => engine.start());
  afterAll(() => engine.stop());
  beforeEach(async () => {
    database = await engine.open();
    const repo: NamesRepository = repository(database, 'names');
    names = repo;
    // The cases name accounts 1 and 2: a fresh database gives them those ids.
    expect(await insertTestAccount(database, { uuid: 'account-1' })).toBe(1);
    expect(await insertTestAccount(database, { uuid: 'account-2' })).toBe(2);
  });
  afterEach(() => database.close());

  it('inserts a name and reads it back by name and by alias, bytes as Buffers; unknown ones answer null', async () => {
    expect(await names.nameByName('k51none')).toBeNull();
    expect(await names.nameByAlias(1, 'none')).toBeNull();
    // A view into a larger buffer: only its bytes are stored.
    const backing = new Uint8Array([0, 4, 5, 6, 0]);
    const id = await names.insertName(
      newName(1, 'k51one', { alias: 'site', keyType: 'RSA', keySealed: backing.subarray(1, 4), seq: 2 ** 40, validUntil: 2 ** 33 }),
    );
    expect(typeof id).toBe('number');
    const expected = {
      id,
      accountId: 1,
      name: 'k51one',
      alias: 'site',
      keyType: 'RSA',
      keySealed: Buffer.from([4, 5, 6]),
      value: '/ipfs/bafyvalue',
      seq: 2 ** 40,
      record: Buffer.from([9, 8, 7]),
      createdAt: 1000,
      publishAt: 1000,
      validUntil: 2 ** 33,
      public: false,
    };
    const byName = await names.nameByName('k51one');
    expect(byName).toEqual(expected);
    expect(Buffer.isBuffer(byName?.keySealed)).toBe(true);
    expect(Buffer.isBuffer(byName?.record)).toBe(true);
    expect(await names.nameByAlias(1, 'site')).toEqual(expected);
    expect(await names.nameByAlias(2, 'site')).toBeNull();
    const second = await names.insertName(newName(2, 'k51two'));
    expect(second).toBeGreaterThan(id);
    expect((await names.nameByName('k51two'))?.alias).toBeNull();
  });

  it('refuses a name twice (any account) and an alias twice in one account; null aliases never clash', async () => {
    await names.insertName(newName(1, 'k51a', { alias: 'blog' }));
    await expect(names.insertName(newName(2, 'k51a'))).rejects.toBeInstanceOf(UniqueViolation);
    await expect(names.insertName(newName(1, 'k51b', { alias: 'blog' }))).rejects.toBeInstanceOf(UniqueViolation);
    await names.insertName(newName(2, 'k51b', { alias: 'blog' }));
    await names.insertName(newName(1, 'k51c'));
    await names.insertName(newName(1, 'k51d'));
    expect(await names.countNamesOf(1)).toBe(3);
    expect(await names.countNamesOf(2)).toBe(1);
    expect(await names.countNamesOf(3)).toBe(0);
  });

  it('sets and clears an alias, and deletes by id (false when there was none)', async () => {
    const id = await names.insertName(newName(1, 'k51a'));
    const other = await names.insertName(newName(1, 'k51b', { alias: 'taken' }));
    await names.setNameAlias(id, 'home');
    expect((await names.nameByAlias(1, 'home'))?.id).toBe(id);
    await expect(names.setNameAlias(id, 'taken')).rejects.toBeInstanceOf(UniqueViolation);
    await names.setNameAlias(id, null);
    expect(await names.nameByAlias(1, 'home')).toBeNull();
    expect((await names.nameByName('k51a'))?.alias).toBeNull();
    await names.setNameAlias(id + 100, 'ghost');
    expect(await names.nameByAlias(1, 'ghost')).toBeNull();
    expect(await names.deleteName(other)).toBe(true);
    expect(await names.deleteName(other)).toBe(false);
    expect(await names.nameByName('k51b')).toBeNull();
    expect(await names.countNamesOf(1)).toBe(1);
  });

  it('lists an account names newest first, ties by insertion newest first, with limit and start', async () => {
    const a = await names.insertName(newName(1, 'k51a', { createdAt: 100 }));
    const b = await names.insertName(newName(1, 'k51b', { createdAt: 200 }));
    const c = await names.insertName(newName(1, 'k51c', { createdAt: 200 }));
    await names.insertName(newName(2, 'k51x', { createdAt: 300 }));
    const d = await names.insertName(newName(1, 'k51d', { createdAt: 50 }));
    const ids = async (limit: number, start: number) => (await names.namesOf(1, limit, start)).map((row) => row.id);
    expect(await ids(10, 0)).toEqual([c, b, a, d]);
    expect(await ids(2, 1)).toEqual([b, a]);
    expect(await ids(10, 4)).toEqual([]);
    expect(await ids(0, 0)).toEqual([]);
    expect(await names.namesOf(3, 10, 0)).toEqual([]);
    expect((await names.namesOf(1, 1, 0))[0]).toMatchObject({ id: c, name: 'k51c', accountId: 1, createdAt: 200 });
  });

  it('stores a newer record only on the sequence it was signed against', async () => {
    const id = await names.insertName(newName(1, 'k51a', { seq: 4 }));
    const update = { id, expectedSeq: 4, seq: 5, value: '/ipfs/bafynew', record: new Uint8Array([5, 5]), publishAt: 2000, validUntil: 9000 };
    expect(await names.updateNameRecord({ ...update, expectedSeq: 3 })).toBe(false);
    expect(await names.updateNameRecord({ ...update, id: id + 100 })).toBe(false);
    expect((await names.nameByName('k51a'))?.seq).toBe(4);
    expect(await names.updateNameRecord(update)).toBe(true);
    expect(await names.nameByName('k51a')).toMatchObject({
      seq: 5,
      value: '/ipfs/bafynew',
      record: Buffer.from([5, 5]),
      publishAt: 2000,
      validUntil: 9000,
      createdAt: 1000,
    });
    expect(await names.updateNameRecord(update)).toBe(false);
    // A republish: later validity and record, same value, sequence and publish time.
    expect(await names.updateNameValidity({ id, expectedSeq: 4, record: new Uint8Array([6]), validUntil: 20000 })).toBe(false);
    expect(await names.updateNameValidity({ id: id + 100, expectedSeq: 5, record: new Uint8Array([6]), validUntil: 20000 })).toBe(false);
    expect(await names.updateNameValidity({ id, expectedSeq: 5, record: new Uint8Array([6]), validUntil: 20000 })).toBe(true);
    expect(await names.nameByName('k51a')).toMatchObject({ seq: 5, value: '/ipfs/bafynew', record: Buffer.from([6]), publishAt: 2000, validUntil: 20000 });
  });

  it('lets exactly one of several publishes racing from the same sequence land', async () => {
    const id = await names.insertName(newName(1, 'k51a', { seq: 7 }));
    const results = await Promise.all(
      [1, 2, 3, 4].map((n) =>
        names.updateNameRecord({ id, expectedSeq: 7, seq: 8, value: `/ipfs/v${n}`, record: new Uint8Array([n]), publishAt: 2000 + n, validUntil: 9000 }),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = results.indexOf(true) + 1;
    expect(await names.nameByName('k51a')).toMatchObject({ seq: 8, value: `/ipfs/v${winner}`, record: Buffer.from([winner]) });
  });

  it('lists names whose record ends by a time, earliest first (ties by id), and the earliest end', async () => {
    expect(await names.earliestValidUntil()).toBeNull();
    expect(await names.namesValidUntil(10_000, 10)).toEqual([]);
    const a = await names.insertName(newName(1, 'k51a', { validUntil: 3000 }));
    const b = await names.insertName(newName(2, 'k51b', { validUntil: 1000 }));
    const c = await names.insertName(newName(1, 'k51c', { validUntil: 3000 }));
    await names.insertName(newName(1, 'k51d', { validUntil: 2 ** 40 }));
    const e = await names.insertName(newName(2, 'k51e', { validUntil: 0 }));
    expect(await names.earliestValidUntil()).toBe(0);
    const ids = async (until: number, limit: number) => (await names.namesValidUntil(until, limit)).map((row) => row.id);
    expect(await ids(3000, 10)).toEqual([e, b, a, c]);
    expect(await ids(2999, 10)).toEqual([e, b]);
    expect(await ids(3000, 3)).toEqual([e, b, a]);
    expect(await ids(-1, 10)).toEqual([]);
    await names.deleteName(e);
    expect(await names.earliestValidUntil()).toBe(1000);
  });

  it('marks names public and back, and pages through the public ones by id', async () => {
    const a = await names.insertName(newName(1, 'k51a'));
    const b = await names.insertName(newName(2, 'k51b'));
    const c = await names.insertName(newName(1, 'k51c'));
    expect(await names.publicNamesAfter(0, 10)).toEqual([]);
    expect(await names.setNamePublic(c, true)).toBe(true);
    expect(await names.setNamePublic(a, true)).toBe(true);
    expect(await names.setNamePublic(b, true)).toBe(true);
    expect(await names.setNamePublic(b, false)).toBe(true);
    expect(await names.setNamePublic(c + 100, true)).toBe(false);
    expect((await names.nameByName('k51a'))?.public).toBe(true);
    expect((await names.nameByName('k51b'))?.public).toBe(false);
    const ids = async (after: number, limit: number) => (await names.publicNamesAfter(after, limit)).map((row) => row.id);
    expect(await ids(0, 10)).toEqual([a, c]);
    expect(await ids(0, 1)).toEqual([a]);
    expect(await ids(a, 10)).toEqual([c]);
    expect(await ids(c, 10)).toEqual([]);
    expect((await names.publicNamesAfter(0, 1))[0]).toMatchObject({ name: 'k51a', public: true, accountId: 1 });
    // A publish leaves the mark alone.
    expect(await names.updateNameRecord({ id: a, expectedSeq: 0, seq: 1, value: '/ipfs/x', record: new Uint8Array([1]), publishAt: 1, validUntil: 2 })).toBe(
      true,
    );
    expect((await names.nameByName('k51a'))?.public).toBe(true);
  });

  it('stores, replaces and deletes records of other names', async () => {
    expect(await names.routingRecord('k51remote')).toBeNull();
    expect(await names.deleteRoutingRecord('k51remote')).toBe(false);
    const backing = new Uint8Array([0, 1, 2, 3]);
    await names.putRoutingRecord('k51remote', backing.subarray(1, 3), 100);
    const stored = await names.routingRecord('k51remote');
    expect(stored).toEqual(Buffer.from([1, 2]));
    expect(Buffer.isBuffer(stored)).toBe(true);
    await names.putRoutingRecord('k51remote', new Uint8Array([]), 200);
    expect(await names.routingRecord('k51remote')).toEqual(Buffer.alloc(0));
    await names.putRoutingRecord('k51remote', new Uint8Array([7]), 300);
    expect(await names.routingRecord('k51remote')).toEqual(Buffer.from([7]));
    expect(await names.routingRecord('k51other')).toBeNull();
    expect(await names.countRoutingRecords()).toBe(1);
    await names.putRoutingRecord('k51other', new Uint8Array([8]), 300);
    expect(await names.countRoutingRecords()).toBe(2);
    expect(await names.deleteRoutingRecord('k51remote')).toBe(true);
    expect(await names.routingRecord('k51remote')).toBeNull();
    expect(await names.countRoutingRecords()).toBe(1);
  });

  it('keeps the record seen elsewhere of a held name with the highest sequence, per name, gone with the name', async () => {
    const a = await names.insertName(newName(1, 'k51a'));
    const b = await names.insertName(newName(1, 'k51b'));
    expect(await names.seenRecord(a)).toBeNull();
    const first = { seq: 5, value: '/ipfs/bafyfirst', source: 'http://127.0.0.1:1', seenAt: 100 };
    expect(await names.noteSeenRecord(a, first)).toBe(true);
    expect(await names.seenRecord(a)).toEqual(first);
    // Lower or equal: the one kept stays.
    expect(await names.noteSeenRecord(a, { ...first, seq: 4, value: '/ipfs/bafylower', seenAt: 200 })).toBe(false);
    expect(await names.noteSeenRecord(a, { ...first, value: '/ipfs/bafysame', seenAt: 200 })).toBe(false);
    expect(await names.seenRecord(a)).toEqual(first);
    const higher = { seq: 2 ** 40, value: '/ipfs/bafyhigher', source: 'pushed', seenAt: 300 };
    expect(await names.noteSeenRecord(a, higher)).toBe(true);
    expect(await names.seenRecord(a)).toEqual(higher);
    expect(await names.seenRecord(b)).toBeNull();
    // A name gone keeps nothing, and takes what it kept with it.
    expect(await names.noteSeenRecord(9999, first)).toBe(false);
    expect(await names.seenRecord(9999)).toBeNull();
    expect(await names.deleteName(a)).toBe(true);
    expect(await names.seenRecord(a)).toBeNull();
  });
});
