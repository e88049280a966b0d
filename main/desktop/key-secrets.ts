import { KEYCHAIN_SERVICE, osKeychainEntry, type KeychainEntryFactory } from '../secrets/keychain-entry.js';
import { keptKeySecrets, type KeySecretStore } from '../secrets/kept-key-secrets.js';

export type { KeySecretStore } from '../secrets/kept-key-secrets.js';

/**
 * The secrets of access keys the window keeps (the Keys page's "Keep in the OS keychain"; ipc keepSecret,
 * readSecret, forgetSecret), for the data folder the app runs: filed with the folder's other secrets, where
 * its secrets.json says (main/secrets/kept-key-secrets.ts), so they follow the folder and `pinfold secrets
 * move`. `service` is the keychain service of this installation, under which earlier versions filed them.
 */
export interface KeySecretsInit {
  dataDir: string;
  service?: string;
  entry?: KeychainEntryFactory;
}

export function keychainKeySecrets(init: KeySecretsInit): KeySecretStore {
  return keptKeySecrets({ dataDir: init.dataDir, keychain: { service: init.service ?? KEYCHAIN_SERVICE, entry: init.entry ?? osKeychainEntry } });
}
