import { randomBytes } from 'node:crypto';
import { masterKeyOpens, MasterKeyMismatchError } from '../accounts/master-key-check.js';
import type { OwnerKeyStore } from '../accounts/owner-key.js';
import { peekSealedData, type SealedDataPeek } from '../store/db/sealed-data-peek.js';
import type { KeychainAccess } from './keychain-entry.js';
import { homeStores, type HomeStores } from './secrets-home.js';
import { newKeychainNamespace, readSecretsRecord, SECRETS_FILE, writeSecretsRecord, type SecretsHome, type SecretsHomeKind } from './secrets-record.js';
import { dataFolderPaths } from '../base/data-folder.js';

const KEY_BYTES = 32;

export interface OpenSecretsInit {
  dataDir: string;
  /** Where a new data folder keeps its secrets: the desktop app and `serve --keychain` say keychain. */
  prefer: SecretsHomeKind;
  /** The OS keychain (or, in the desktop's service process, the main process's keychain) and the service for new items. */
  keychain: KeychainAccess;
}

export interface OpenedSecrets {
  home: SecretsHome;
  description: string;
  masterKey: Buffer;
  ownerKeyStore: OwnerKeyStore;
  /** True when this start made the folder's master key (a new folder). */
  created: boolean;
  /** Set when the folder keeps its secrets elsewhere than preferred: the record wins, and this says so. */
  note: string | null;
}

/** The folder holds sealed secrets, but the place its record names has no master key. */
export class MissingMasterKeyError extends Error {
  override readonly name = 'MissingMasterKeyError';
}

/**
 * The master key of a data folder, from the one place its `secrets.json` names, judged against the
 * folder's sealed check value before anything is written:
 *
 * - recorded home: the key there must open the check; missing while the folder holds sealed secrets is
 *   an error (a new key could not open them); missing in a folder with nothing sealed yet (a first start
 *   that stopped half-way) is made there.
 * - no record, sealed secrets (a folder from before the record): the key is looked for where earlier
 *   versions kept it, `master.key`, then the desktop's keychain item; the one that opens the check is
 *   recorded. None: an error, nothing written.
 * - no record, nothing sealed (a new folder): a new key at the preferred home (an existing master.key
 *   is kept), then the record.
 */
export async function openSecrets(init: OpenSecretsInit): Promise<OpenedSecrets> {
  const { dataDir, keychain } = init;
  const sealed = peekSealedData(dataFolderPaths(dataDir).database);
  const holdsSecrets = sealed.check !== null || sealed.sealedRows;
  const recorded = await readSecretsRecord(dataDir);
  const note = (home: SecretsHome): string | null =>
    home.kind === init.prefer
      ? null
      : `${dataDir} keeps its secrets in ${homeStores(home, dataDir, keychain.entry).description} (recorded in ${SECRETS_FILE}); ` +
        `\`pinfold secrets move --to ${init.prefer}\` moves them`;

  if (recorded !== null) {
    const stores = homeStores(recorded, dataDir, keychain.entry);
    const key = await readMasterKey(stores);
    if (key !== null) return opened(stores, judged(key, sealed, stores.description), false, note(recorded));
    if (holdsSecrets)
      throw new MissingMasterKeyError(
        `the master key of ${dataDir} should be in ${stores.description} (as ${SECRETS_FILE} records) but is not there; ` +
          'Pinfold will not make a new one, which could not open the secrets stored in the folder: restore the key, or start over with a new data folder. Nothing was written',
      );
    return opened(stores, await makeMasterKey(stores), true, note(recorded));
  }

  if (holdsSecrets) return adoptEarlierHome(init, sealed);

  const fileStores = homeStores({ kind: 'file' }, dataDir, keychain.entry);
  const existingFile = await fileStores.master.get();
  const home: SecretsHome =
    existingFile !== null || init.prefer === 'file' ? { kind: 'file' } : { kind: 'keychain', service: keychain.service, namespace: newKeychainNamespace() };
  const stores = homeStores(home, dataDir, keychain.entry);
  // The key before the record: a keychain that refuses (locked, absent) leaves no record behind. A crash
  // in between leaves an unused key and no record, which the next start treats as a new folder again.
  const key = existingFile !== null ? checkedLength(existingFile, stores.description) : await makeMasterKey(stores);
  await writeSecretsRecord(dataDir, home);
  return opened(stores, key, existingFile === null, note(home));
}

/** A folder from before secrets.json: find the key where earlier versions kept it, and record where that was. */
async function adoptEarlierHome(init: OpenSecretsInit, sealed: SealedDataPeek): Promise<OpenedSecrets> {
  const { dataDir, keychain } = init;
  const candidates: SecretsHome[] = [{ kind: 'file' }, { kind: 'keychain', service: keychain.service, namespace: null }];
  const looked: string[] = [];
  let mismatched: string | null = null;
  for (const home of candidates) {
    const stores = homeStores(home, dataDir, keychain.entry);
    let key: Buffer | null;
    try {
      key = await readMasterKey(stores);
    } catch (error) {
      looked.push(`${stores.description} could not be read (${error instanceof Error ? error.message : String(error)})`);
      continue;
    }
    if (key === null) {
      looked.push(`${stores.description} holds none`);
      continue;
    }
    if (key.length !== KEY_BYTES || !masterKeyOpens(sealed, key)) {
      mismatched ??= stores.description;
      looked.push(`the one in ${stores.description} does not open the folder's secrets`);
      continue;
    }
    await writeSecretsRecord(dataDir, home);
    return opened(
      stores,
      checkedLength(key, stores.description),
      false,
      home.kind === init.prefer
        ? null
        : `${dataDir} keeps its secrets in ${stores.description} (now recorded in ${SECRETS_FILE}); \`pinfold secrets move --to ${init.prefer}\` moves them`,
    );
  }
  if (mismatched !== null && looked.every((line) => !line.includes('could not be read'))) throw new MasterKeyMismatchError(mismatched);
  throw new MissingMasterKeyError(
    `no master key that opens the secrets stored in ${dataDir} was found: ${looked.join('; ')}. Pinfold will not make a new one, ` +
      'which could not open them. Nothing was written',
  );
}

async function readMasterKey(stores: HomeStores): Promise<Buffer | null> {
  try {
    return await stores.master.get();
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new Error(`the master key lives in ${stores.description}, which could not be read: ${detail}. Nothing was written`, { cause: error });
  }
}

function judged(key: Buffer, sealed: SealedDataPeek, where: string): Buffer {
  checkedLength(key, where);
  if (!masterKeyOpens(sealed, key)) throw new MasterKeyMismatchError(where);
  return key;
}

function checkedLength(key: Buffer, where: string): Buffer {
  if (key.length !== KEY_BYTES) throw new Error(`the master key in ${where} is corrupt (${key.length} bytes, not ${KEY_BYTES}); nothing was written`);
  return key;
}

async function makeMasterKey(stores: HomeStores): Promise<Buffer> {
  const key = randomBytes(KEY_BYTES);
  await stores.master.set(key);
  // Read back: a keychain that accepted the write but returns something else must not start a folder.
  const stored = await stores.master.get();
  if (stored === null || !stored.equals(key)) throw new Error(`${stores.description} did not keep the new master key; nothing else was written`);
  return key;
}

function opened(stores: HomeStores, masterKey: Buffer, created: boolean, note: string | null): OpenedSecrets {
  return { home: stores.home, description: stores.description, masterKey, ownerKeyStore: stores.ownerKey, created, note };
}
