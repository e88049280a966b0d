import { describe, expect, it } from 'vitest';
import { dataFolderTag, keychainKeySecrets } from '../../../main/desktop/key-secrets.js';
import { KeychainUnavailableError, type KeychainEntry, type KeychainEntryFactory } from '../../../main/secrets/keychain-entry.js';

const KEY = '3f0c1c9e-6a7e-4c43-9d3e-2b5c0f6e9a11';
const SECRET = 'S'.repeat(64);

function memoryKeychain() {
  const items = new Map<string, string>();
  const factory: KeychainEntryFactory = (service, account): KeychainEntry => {
    const id = `${service}\u0000${account}`;
    return {
      getPassword: async () => items.get(id) ?? null,
      setPassword: async (password) => void items.set(id, password),
      deletePassword: async () => items.delete(id),
    };
  };
  return { items, factory };
}

/** A keychain that is there but does not answer (locked, no Secret Service). */
const lockedKeychain: KeychainEntryFactory = (service) => {
  const fail = async (): Promise<never> => Promise.reject(new KeychainUnavailableError(service, new Error('the keyring is locked')));
  return { getPassword: fail, setPassword: fail, deletePassword: fail };
};

describe('keychainKeySecrets', () => {
  it('keeps, reads and forgets a secret under the data folder and the access key', async () => {
    const { items, factory } = memoryKeychain();
    const secrets = keychainKeySecrets({ dataDir: '/home/me/.local/share/pinfold', service: 'T', entry: factory });
    expect(await secrets.read(KEY)).toBeNull();
    expect(await secrets.keep(KEY, SECRET)).toBe(true);
    expect(await secrets.read(KEY)).toBe(SECRET);
    expect([...items.keys()]).toEqual([`T\u0000key-secret:${dataFolderTag('/home/me/.local/share/pinfold')}:${KEY}`]);
    await secrets.forget(KEY);
    expect(await secrets.read(KEY)).toBeNull();
    expect(items.size).toBe(0);
    // Forgetting what is not kept is no error.
    await secrets.forget(KEY);
  });

  it('keeps two data folders apart', async () => {
    const { factory } = memoryKeychain();
    const one = keychainKeySecrets({ dataDir: '/data/one', service: 'T', entry: factory });
    const two = keychainKeySecrets({ dataDir: '/data/two', service: 'T', entry: factory });
    await one.keep(KEY, SECRET);
    expect(await two.read(KEY)).toBeNull();
    expect(dataFolderTag('/data/one/')).toBe(dataFolderTag('/data/one'));
    expect(dataFolderTag('/data/one')).toMatch(/^[0-9a-f]{16}$/);
  });

  it('a keychain that does not answer: keep says false, read says null, forget rejects with the reason', async () => {
    const secrets = keychainKeySecrets({ dataDir: '/data', service: 'T', entry: lockedKeychain });
    expect(await secrets.keep(KEY, SECRET)).toBe(false);
    expect(await secrets.read(KEY)).toBeNull();
    await expect(secrets.forget(KEY)).rejects.toThrow(/locked/);
  });
});
