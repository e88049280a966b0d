import { hostname } from 'node:os';
import { resolve } from 'node:path';
import type { ServiceConfig } from '../base/config.js';
import { dataFolderPaths } from '../base/data-folder.js';
import { MASTER_KEY_NAME } from '../secrets/secret-store.js';
import type { SealedBox } from '../base/sealed-box.js';
import { MasterKeyMismatchError, verifyMasterKey } from '../accounts/master-key-check.js';
import { fileOwnerKeyStore, type OwnerKeyStore } from '../accounts/owner-key.js';
import type { Store } from '../store/repositories/index.js';
import type { KeychainAccess } from '../secrets/keychain-entry.js';
import { MasterKeyFileError, readMasterKeyFile } from '../secrets/master-key-file.js';
import { openSecrets } from '../secrets/open-secrets.js';
import type { SecretsHomeKind } from '../secrets/secrets-record.js';

/** The master key this instance runs with, where it came from, and where the owner key goes. */
export interface InstanceSecrets {
  masterKey: Buffer;
  /** Where the master key is, in words (openSecrets' description of its home, or the key file). */
  description: string;
  /** The master key's own place: the key file's absolute path, or the keychain in words. */
  masterKeyPlace: string;
  /** True when the key came from `--master-key-file` (PINFOLD_MASTER_KEY_FILE), not the data folder. */
  fromKeyFile: boolean;
  ownerKeyStore: OwnerKeyStore;
  /** Set when the folder keeps its secrets elsewhere than preferred (openSecrets). */
  note: string | null;
}

export interface InstanceSecretsInit {
  config: ServiceConfig;
  env: NodeJS.ProcessEnv;
  prefer: SecretsHomeKind;
  keychain: KeychainAccess;
}

/** `--master-key-file PATH`, else `PINFOLD_MASTER_KEY_FILE`; undefined when neither is set. */
export function masterKeyFileOf(config: ServiceConfig, env: NodeJS.ProcessEnv): string | undefined {
  const path = config.masterKeyFile ?? env.PINFOLD_MASTER_KEY_FILE;
  return path === undefined || path === '' ? undefined : path;
}

/**
 * The data folder's own secrets (main/secrets), or with `--master-key-file` on a shared database the
 * master key every instance uses; the owner key then goes to the data folder's 0600 file. A shared key
 * is refused without `--db`: a data folder's SQLite secrets are sealed under the folder's own key.
 */
export async function openInstanceSecrets(init: InstanceSecretsInit): Promise<InstanceSecrets> {
  const { config } = init;
  const keyFile = masterKeyFileOf(config, init.env);
  if (keyFile === undefined) {
    const opened = await openSecrets({ dataDir: config.dataDir, prefer: init.prefer, keychain: init.keychain });
    const masterKeyPlace = opened.home.kind === 'file' ? resolve(dataFolderPaths(config.dataDir).keyFile(MASTER_KEY_NAME)) : opened.description;
    return { ...opened, masterKeyPlace, fromKeyFile: false };
  }
  if (config.database === undefined) {
    throw new MasterKeyFileError(
      '--master-key-file (PINFOLD_MASTER_KEY_FILE) is for instances sharing a PostgreSQL database (--db); without --db the data folder keeps its own key',
    );
  }
  const path = resolve(keyFile);
  return {
    masterKey: await readMasterKeyFile(path),
    description: path,
    masterKeyPlace: path,
    fromKeyFile: true,
    ownerKeyStore: fileOwnerKeyStore(config.dataDir),
    note: null,
  };
}

/** A place on this machine as other machines' instances should read it: the host name, then the place. */
export function placeOnThisHost(description: string): string {
  return `${hostname()}:${description}`;
}

/** The meta row naming where the master key of a shared database was first used (printed to later instances). */
const MASTER_KEY_HOME = 'master-key-home';

/** Another instance sealed the shared database's secrets under another master key; the message says what to do. */
export class SharedMasterKeyError extends Error {
  override readonly name = 'SharedMasterKeyError';
}

/**
 * The master key against the shared database's sealed check (run under the setup lock, so two first
 * starts cannot both write a check). The first instance records where its key is; a later one with
 * another key (its data folder's new one, most likely) is told to start with `--master-key-file` naming
 * that key, and where it is. Returns where the database's master key is, for the start-up lines.
 */
export async function verifySharedMasterKey(
  store: Store,
  box: SealedBox,
  secrets: Pick<InstanceSecrets, 'description' | 'masterKeyPlace' | 'fromKeyFile'>,
): Promise<string> {
  const ownHome = placeOnThisHost(secrets.masterKeyPlace);
  try {
    if ((await verifyMasterKey(store, box, secrets.description)) === 'written') {
      await store.meta.setMetaValue(MASTER_KEY_HOME, Buffer.from(ownHome, 'utf8'));
      return ownHome;
    }
  } catch (error) {
    if (!(error instanceof MasterKeyMismatchError)) throw error;
    const home = (await store.meta.metaValue(MASTER_KEY_HOME))?.toString('utf8') ?? 'the data folder of the first instance on this database';
    throw new SharedMasterKeyError(
      `the master key in ${secrets.description} does not open the secrets of this PostgreSQL database, which other instances share. ` +
        (secrets.fromKeyFile
          ? 'Pass the key the database was started with: '
          : 'Start this instance with --master-key-file PATH (or PINFOLD_MASTER_KEY_FILE) naming ') +
        `the first instance's master key file, ${home}, copied to this machine with mode 0600. Nothing was written to the database`,
      { cause: error },
    );
  }
  return (await store.meta.metaValue(MASTER_KEY_HOME))?.toString('utf8') ?? ownHome;
}
