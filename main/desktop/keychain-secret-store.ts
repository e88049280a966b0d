import type { SecretStore } from '../base/secret-store.js';
import { KEYCHAIN_SERVICE, osKeychainEntry, type KeychainEntryFactory } from './keychain-entry.js';

export interface KeychainSecretStoreInit {
  /** Keychain service name; tests use their own so they never touch the user's items. */
  service?: string;
  entry?: KeychainEntryFactory;
}

const NAME = /^[a-z0-9-]+$/;

/**
 * The desktop's {@link SecretStore}: each secret is one keychain item, account `secret:<name>`, holding
 * the bytes as base64 (keychains store text). The keychain encrypts it at rest; Pinfold never writes it
 * to a file.
 */
export function keychainSecretStore(init: KeychainSecretStoreInit = {}): SecretStore {
  const service = init.service ?? KEYCHAIN_SERVICE;
  const entry = init.entry ?? osKeychainEntry;
  const itemOf = (name: string) => {
    if (!NAME.test(name)) throw new Error(`invalid secret name ${JSON.stringify(name)}: use a-z, 0-9 and -`);
    return entry(service, `secret:${name}`);
  };
  return {
    description: `OS keychain (service "${service}")`,
    async get(name) {
      const text = await itemOf(name).getPassword();
      if (text === null) return null;
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw new Error(`keychain item secret:${name} of service "${service}" is not base64`);
      return Buffer.from(text, 'base64');
    },
    async set(name, value) {
      await itemOf(name).setPassword(value.toString('base64'));
    },
  };
}
