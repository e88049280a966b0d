import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { KEYCHAIN_SERVICE, KeychainUnavailableError, osKeychainEntry, type KeychainEntryFactory } from '../secrets/keychain-entry.js';

/**
 * Secrets of access keys the user created in the window and chose to keep in the OS keychain (the
 * Keys page's "Keep in the OS keychain"), so they can be copied again later. One item per data folder
 * and access key: account `key-secret:<data folder tag>:<access key>`, where the tag is the first 16 hex
 * digits of the SHA-256 of the data folder's absolute path, so two data folders never share an item.
 */
export interface KeySecretStore {
  /** False when the keychain refused (none, locked, denied). */
  keep(accessKey: string, secret: string): Promise<boolean>;
  /** Null when none is kept, or when the keychain did not answer. */
  read(accessKey: string): Promise<string | null>;
  /** Rejects when the keychain did not answer (the secret may still be there). */
  forget(accessKey: string): Promise<void>;
}

export interface KeySecretsInit {
  dataDir: string;
  service?: string;
  entry?: KeychainEntryFactory;
}

export function dataFolderTag(dataDir: string): string {
  return createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 16);
}

export function keychainKeySecrets(init: KeySecretsInit): KeySecretStore {
  const service = init.service ?? KEYCHAIN_SERVICE;
  const entry = init.entry ?? osKeychainEntry;
  const tag = dataFolderTag(init.dataDir);
  const item = (accessKey: string) => entry(service, `key-secret:${tag}:${accessKey}`);
  const unlessUnavailable = async <T>(operation: () => Promise<T>, fallback: T): Promise<T> => {
    try {
      return await operation();
    } catch (error) {
      if (error instanceof KeychainUnavailableError) return fallback;
      throw error;
    }
  };
  return {
    keep: (accessKey, secret) => unlessUnavailable(async () => (await item(accessKey).setPassword(secret), true), false),
    read: (accessKey) => unlessUnavailable(() => item(accessKey).getPassword(), null),
    async forget(accessKey) {
      await item(accessKey).deletePassword();
    },
  };
}
