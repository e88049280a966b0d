import type { OwnerKey, OwnerKeyStore } from '../app.js';
import { KEYCHAIN_SERVICE, osKeychainEntry, type KeychainEntryFactory } from './keychain-entry.js';

export interface KeychainOwnerKeyStoreInit {
  service?: string;
  entry?: KeychainEntryFactory;
}

const ACCOUNT = 'owner-key';

/**
 * The desktop keeps the owner's admin key in the OS keychain (contract section 1) instead of
 * owner-key.json, as JSON `{"access_key","access_secret"}` in item `owner-key`.
 */
export function keychainOwnerKeyStore(init: KeychainOwnerKeyStoreInit = {}): OwnerKeyStore {
  const service = init.service ?? KEYCHAIN_SERVICE;
  const entry = init.entry ?? osKeychainEntry;
  const item = () => entry(service, ACCOUNT);
  return {
    description: `OS keychain (service "${service}", item "${ACCOUNT}")`,
    async load() {
      const text = await item().getPassword();
      if (text === null) return null;
      return parseOwnerKey(text);
    },
    async save(key) {
      await item().setPassword(JSON.stringify({ access_key: key.access_key, access_secret: key.access_secret }));
    },
  };
}

/** A damaged item reads as "no key": createApp then issues a new admin key instead of failing to start. */
export function parseOwnerKey(text: string): OwnerKey | null {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { access_key, access_secret } = parsed as Record<string, unknown>;
    if (typeof access_key !== 'string' || typeof access_secret !== 'string' || access_key === '' || access_secret === '') return null;
    return { access_key, access_secret };
  } catch {
    return null;
  }
}
