import { randomBytes } from 'node:crypto';
import { readTextIfExists } from '../base/read-if-exists.js';
import { writeFileAtomic } from '../base/atomic-write.js';
import { dataFolderPaths } from '../base/data-folder.js';

/**
 * Where Pinfold keeps the few secrets that must survive restarts (the master key). Headless `serve`
 * uses {@link FileSecretStore}; a data folder whose secrets live in the OS keychain, keychain-secret-store.ts.
 */
export interface SecretStore {
  /** Human-readable location, for logs and the README ("file …/master.key", "OS keychain"). */
  readonly description: string;
  get(name: string): Promise<Buffer | null>;
  set(name: string, value: Buffer): Promise<void>;
}

/** One 0600 file per secret in the data folder: `<data>/<name>.key`. */
export class FileSecretStore implements SecretStore {
  readonly description: string;
  constructor(private readonly dir: string) {
    this.description = `files in ${dir}`;
  }

  async get(name: string): Promise<Buffer | null> {
    const text = await readTextIfExists(this.pathOf(name));
    return text === null ? null : Buffer.from(text.trim(), 'base64');
  }

  async set(name: string, value: Buffer): Promise<void> {
    await writeFileAtomic(this.pathOf(name), `${value.toString('base64')}\n`, 0o600);
  }

  private pathOf(name: string): string {
    if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`invalid secret name ${name}`);
    return dataFolderPaths(this.dir).keyFile(name);
  }
}

export const MASTER_KEY_NAME = 'master';
const KEY_BYTES = 32;

/**
 * A 32-byte key created on first use: `master` encrypts access secrets and IPNS private keys at rest;
 * `upload-signing` signs upload addresses.
 */
export async function loadOrCreateMasterKey(store: SecretStore, name = MASTER_KEY_NAME): Promise<Buffer> {
  const existing = await store.get(name);
  if (existing) {
    if (existing.length !== KEY_BYTES) throw new Error(`${name} key in ${store.description} is corrupt`);
    return existing;
  }
  const key = randomBytes(KEY_BYTES);
  await store.set(name, key);
  return key;
}
