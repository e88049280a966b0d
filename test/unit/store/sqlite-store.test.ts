import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../main/store/db/database.js';
import { sqliteStore } from '../../../main/store/db/sqlite-store.js';
import type { Store, Transaction } from '../../../main/store/repositories/index.js';
import { deferred } from '../../helpers/deferred.js';

/** What only SQLite's store does; what every engine's store does is in test/integration/repositories/store.test.ts. */
describe('sqliteStore', () => {
  let dir = '';
  let db: Db | undefined;
  afterEach(async () => {
    db?.close();
    db = undefined;
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function openStore(): Promise<Store> {
    dir = await mkdtemp(join(tmpdir(), 'pinfold-store-'));
    db = openDatabase(join(dir, 'pinfold.db'));
    return sqliteStore(db);
  }

  const metaText = async (store: Store | Transaction, key: string): Promise<string | null> => (await store.meta.metaValue(key))?.toString() ?? null;

  it('makes an autocommit read wait for the open transaction, so an uncommitted row is never seen', async () => {
    const store = await openStore();
    const held = deferred();
    const written = deferred();
    const transaction = store.transaction(async (tx) => {
      await tx.meta.setMetaValue('a', Buffer.from('uncommitted'));
      written.resolve();
      await held.promise;
      throw new Error('rolled back');
    });
    await written.promise;
    const read = metaText(store, 'a');
    const write = store.meta.setMetaValue('b', Buffer.from('after'));
    held.resolve();
    await expect(transaction).rejects.toThrow('rolled back');
    expect(await read).toBeNull();
    await write;
    expect(await metaText(store, 'b')).toBe('after');
  });

  it('runs transactions one after another', async () => {
    const store = await openStore();
    const order: string[] = [];
    const held = deferred();
    const first = store.transaction(async (tx) => {
      order.push('first begins');
      await held.promise;
      await tx.meta.setMetaValue('n', Buffer.from('1'));
      order.push('first ends');
    });
    const second = store.transaction(async (tx) => {
      order.push('second begins');
      expect(await metaText(tx, 'n')).toBe('1');
    });
    held.resolve();
    await Promise.all([first, second]);
    expect(order).toEqual(['first begins', 'first ends', 'second begins']);
  });
});
