import { rm } from 'node:fs/promises';
import { FileSecretStore, MASTER_KEY_NAME } from './secret-store.js';
import { fileOwnerKeyStore, type OwnerKeyStore } from '../accounts/owner-key.js';
import type { KeychainEntryFactory } from './keychain-entry.js';
import { keychainOwnerKeyStore } from './keychain-owner-key-store.js';
import { keychainSecretStore } from './keychain-secret-store.js';
import { describeHome, type SecretsHome } from './secrets-record.js';
import { dataFolderPaths } from '../base/data-folder.js';

/** The master key's and the owner key's places in one home, each readable, writable and removable. */
export interface HomeStores {
  readonly home: SecretsHome;
  readonly description: string;
  master: {
    get(): Promise<Buffer | null>;
    set(key: Buffer): Promise<void>;
    remove(): Promise<void>;
  };
  ownerKey: OwnerKeyStore & { remove(): Promise<void> };
}

export function homeStores(home: SecretsHome, dataDir: string, entry: KeychainEntryFactory): HomeStores {
  const description = describeHome(home, dataDir);
  if (home.kind === 'file') {
    const files = new FileSecretStore(dataDir);
    const owner = fileOwnerKeyStore(dataDir);
    return {
      home,
      description,
      master: {
        get: () => files.get(MASTER_KEY_NAME),
        set: (key) => files.set(MASTER_KEY_NAME, key),
        remove: () => rm(dataFolderPaths(dataDir).keyFile(MASTER_KEY_NAME), { force: true }),
      },
      ownerKey: { ...owner, remove: () => rm(dataFolderPaths(dataDir).ownerKey, { force: true }) },
    };
  }
  const items = { service: home.service, entry, namespace: home.namespace };
  const secrets = keychainSecretStore(items);
  const owner = keychainOwnerKeyStore(items);
  return {
    home,
    description,
    master: {
      get: () => secrets.get(MASTER_KEY_NAME),
      set: (key) => secrets.set(MASTER_KEY_NAME, key),
      remove: async () => void (await secrets.delete(MASTER_KEY_NAME)),
    },
    ownerKey: {
      description: owner.description,
      load: () => owner.load(),
      save: (key) => owner.save(key),
      remove: async () => void (await owner.delete()),
    },
  };
}
