import type { SecretStore } from './secret-store.js';
import { KEYCHAIN_SERVICE, osKeychainEntry, type KeychainEntryFactory } from './keychain-entry.js';

export interface KeychainSecretStoreInit {
  /** Keychain service name; tests use their own so they never touch the user's items. */
  service?: string;
  entry?: KeychainEntryFactory;
  /**
   * The data folder's own prefix for item names (`<namespace>/secret:<name>`), so that two data
   * folders never share a key. Absent: the desktop's items from before data folders recorded their
   * secrets' home (`secret:<name>`).
   */
  namespace?: string | null;
}

const NAME = /^[a-z0-9-]+$/;

/** The keychain item (account) a secret is kept in. */
export function secretItemName(name: string, namespace: string | null = null): string {
  if (!NAME.test(name)) throw new Error(`invalid secret name ${JSON.stringify(name)}: use a-z, 0-9 and -`);
  return namespace === null ? `secret:${name}` : `${namespace}/secret:${name}`;
}

/**
 * A {@link SecretStore} in the keychain: each secret is one item holding the bytes as base64
 * (keychains store text). The keychain encrypts it at rest; Pinfold never writes it to a file.
 */
export function keychainSecretStore(init: KeychainSecretStoreInit = {}): SecretStore & { delete(name: string): Promise<boolean> } {
  const service = init.service ?? KEYCHAIN_SERVICE;
  const entry = init.entry ?? osKeychainEntry;
  const namespace = init.namespace ?? null;
  const itemOf = (name: string) => entry(service, secretItemName(name, namespace));
  return {
    description: `the OS keychain (service "${service}"${namespace === null ? '' : `, items "${namespace}/…"`})`,
    async get(name) {
      const text = await itemOf(name).getPassword();
      if (text === null) return null;
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw new Error(`keychain item ${secretItemName(name, namespace)} of service "${service}" is not base64`);
      return Buffer.from(text, 'base64');
    },
    async set(name, value) {
      await itemOf(name).setPassword(value.toString('base64'));
    },
    delete: (name) => itemOf(name).deletePassword(),
  };
}
