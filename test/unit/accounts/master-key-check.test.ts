import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MasterKeyMismatchError, verifyMasterKey } from '../../../main/accounts/master-key-check.js';
import { createSealedBox } from '../../../main/base/sealed-box.js';
import { openDatabase } from '../../../main/store/db/database.js';
import { sqliteStore } from '../../../main/store/db/sqlite-store.js';

describe('master key check', () => {
  let dir = '';
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('accepts the key that first opened the folder and refuses another one', async () => {
    dir = await mkdtemp(join(tmpdir(), 'pinfold-mk-'));
    const db = openDatabase(join(dir, 'pinfold.db'));
    const store = sqliteStore(db);
    const key = randomBytes(32);
    await expect(verifyMasterKey(store, createSealedBox(key), 'test')).resolves.toBe('written');
    await expect(verifyMasterKey(store, createSealedBox(key), 'test')).resolves.toBe('opened');
    await expect(verifyMasterKey(store, createSealedBox(randomBytes(32)), 'the keychain')).rejects.toThrow(MasterKeyMismatchError);
    await expect(verifyMasterKey(store, createSealedBox(randomBytes(32)), 'the keychain')).rejects.toThrow(/the keychain/);
    db.close();
  });
});
