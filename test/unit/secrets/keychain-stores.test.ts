import { describe, expect, it } from 'vitest';
import { keychainOwnerKeyStore, parseOwnerKey } from '../../../main/secrets/keychain-owner-key-store.js';
import { keychainSecretStore } from '../../../main/secrets/keychain-secret-store.js';
import { memoryKeychain } from '../../helpers/memory-keychain.js';

describe('keychainSecretStore', () => {
  it('round-trips bytes, including ones that are not text', async () => {
    const { items, factory } = memoryKeychain();
    const store = keychainSecretStore({ service: 'T', entry: factory });
    const key = Buffer.from([0, 1, 2, 250, 255, 10, 13]);
    expect(await store.get('master')).toBeNull();
    await store.set('master', key);
    expect(await store.get('master')).toEqual(key);
    // Stored as base64 text under a namespaced account name, never as the raw bytes.
    expect([...items.entries()]).toEqual([['T\u0000secret:master', key.toString('base64')]]);
    expect(store.description).toContain('keychain');
  });

  it("keeps a data folder's items under its namespace", async () => {
    const { accounts, factory } = memoryKeychain();
    await keychainSecretStore({ service: 'T', entry: factory, namespace: 'folder-a' }).set('master', Buffer.from('aaaa'));
    await keychainOwnerKeyStore({ service: 'T', entry: factory, namespace: 'folder-a' }).save({ access_key: 'k', access_secret: 's' });
    expect(accounts('T')).toEqual(['folder-a/owner-key', 'folder-a/secret:master']);
    expect(await keychainSecretStore({ service: 'T', entry: factory }).get('master')).toBeNull();
    expect(await keychainSecretStore({ service: 'T', entry: factory, namespace: 'folder-b' }).get('master')).toBeNull();
  });

  it('keeps services apart', async () => {
    const { factory } = memoryKeychain();
    const a = keychainSecretStore({ service: 'A', entry: factory });
    const b = keychainSecretStore({ service: 'B', entry: factory });
    await a.set('master', Buffer.from('aaaa'));
    expect(await b.get('master')).toBeNull();
  });

  it('rejects a bad secret name before touching the keychain', async () => {
    const { items, factory } = memoryKeychain();
    const store = keychainSecretStore({ service: 'T', entry: factory });
    await expect(store.set('../master', Buffer.from('x'))).rejects.toThrow(/invalid secret name/);
    await expect(store.get('Master')).rejects.toThrow(/invalid secret name/);
    expect(items.size).toBe(0);
  });

  it('refuses an item that is not base64 instead of decoding garbage', async () => {
    const { items, factory } = memoryKeychain();
    items.set('T\u0000secret:master', 'not base64!');
    await expect(keychainSecretStore({ service: 'T', entry: factory }).get('master')).rejects.toThrow(/not base64/);
  });
});

describe('keychainOwnerKeyStore', () => {
  const key = { access_key: '3f0c1c9e-6a7e-4c43-9d3e-2b5c0f6e9a11', access_secret: 's'.repeat(64) };

  it('saves and loads the owner key as one item', async () => {
    const { items, factory } = memoryKeychain();
    const store = keychainOwnerKeyStore({ service: 'T', entry: factory });
    expect(await store.load()).toBeNull();
    await store.save(key);
    expect(await store.load()).toEqual(key);
    expect([...items.keys()]).toEqual(['T\u0000owner-key']);
  });

  it('reads a damaged item as no key', () => {
    expect(parseOwnerKey('{')).toBeNull();
    expect(parseOwnerKey('null')).toBeNull();
    expect(parseOwnerKey(JSON.stringify({ access_key: 'k' }))).toBeNull();
    expect(parseOwnerKey(JSON.stringify({ access_key: '', access_secret: 's' }))).toBeNull();
    expect(parseOwnerKey(JSON.stringify(key))).toEqual(key);
  });
});
