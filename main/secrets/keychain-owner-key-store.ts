import type { OwnerKey, OwnerKeyStore } from '../accounts/owner-key.js';
import { KEYCHAIN_SERVICE, osKeychainEntry, type KeychainEntryFactory } from './keychain-entry.js';

export interface KeychainOwnerKeyStoreInit {
  service?: string;
  entry?: KeychainEntryFactory;
  /** The data folder's item prefix (see keychainSecretStore); absent: the desktop's item from before. */
  namespace?: string | null;
}

/** The keychain item (account) the owner key is kept in. */
export function ownerKeyItemName(namespace: string | null = null): string {
  return namespace === null ? 'owner-key' : `${namespace}/owner-key`;
}

/**
 * The owner's admin key in the OS keychain instead of owner-key.json (contract section 1), as JSON
 * `{"access_key","access_secret"}` in one item.
 */
export function keychainOwnerKeyStore(init: KeychainOwnerKeyStoreInit = {}): OwnerKeyStore & { delete(): Promise<boolean> } {
  const service = init.service ?? KEYCHAIN_SERVICE;
  const entry = init.entry ?? osKeychainEntry;
  const account = ownerKeyItemName(init.namespace ?? null);
  const item = () => entry(service, account);
  return {
    description: `the OS keychain (service "${service}", item "${account}")`,
    async load() {
      const text = await item().getPassword();
      if (text === null) return null;
      return parseOwnerKey(text);
    },
    async save(key) {
      await item().setPassword(JSON.stringify({ access_key: key.access_key, access_secret: key.access_secret }));
    },
    delete: () => item().deletePassword(),
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
