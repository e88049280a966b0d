import { fileOwnerKeyStore, type OwnerKey } from '../accounts/owner-key.js';
import type { KeychainEntryFactory } from './keychain-entry.js';
import { homeStores } from './secrets-home.js';
import { readSecretsRecord } from './secrets-record.js';

/**
 * The owner's admin key of a data folder, from where its secrets.json says it lives (owner-key.json or
 * the OS keychain): how the CLI beside a running server, and the desktop's window, sign in without the
 * user copying a secret. A folder without a record (from before it, or never started) has at most
 * owner-key.json. Null when there is no key; a keychain that cannot be read is an error that says so.
 */
export async function locateOwnerKey(dataDir: string, entry: KeychainEntryFactory): Promise<{ key: OwnerKey | null; where: string }> {
  const home = await readSecretsRecord(dataDir);
  if (home === null) {
    const store = fileOwnerKeyStore(dataDir);
    return { key: await store.load(), where: store.description };
  }
  const stores = homeStores(home, dataDir, entry);
  return { key: await stores.ownerKey.load(), where: stores.ownerKey.description };
}
