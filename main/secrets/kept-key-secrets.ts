import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createSealedBox } from '../base/sealed-box.js';
import { KeychainUnavailableError, type KeychainAccess, type KeychainEntry, type KeychainEntryFactory } from './keychain-entry.js';
import { readKeySecretsFile, writeKeySecretsFile, type KeptSecretPlace, type KeySecretsFile } from './key-secrets-file.js';
import { homeStores } from './secrets-home.js';
import { readSecretsRecord, type SecretsHome } from './secrets-record.js';

/**
 * Secrets of access keys the user created in the desktop window and chose to keep (the Keys page), so they
 * can be copied again later. They live with the data folder's other secrets, where its secrets.json says
 * (issue 22, item 10), so moving the folder keeps them and `pinfold secrets move` moves them:
 *
 * - keychain home: one item per key, `<namespace>/key-secret:<access key>` under the recorded service
 *   (`key-secret:<access key>` for the desktop's folder from before namespaces);
 * - file home: sealed under the folder's master key in `<data>/key-secrets.json`, beside `master.key`: as
 *   safe as the key that opens everything else in the folder, and carried along wherever it goes. (Kept in
 *   the keychain instead, they would be lost with the folder copied to another machine, and a folder whose
 *   secrets are in files may live where no keychain is.)
 *
 * key-secrets.json lists every kept key and its place (key-secrets-file.ts). Earlier versions filed the
 * items under a hash of the folder's path, `key-secret:<tag>:<access key>`: the first open records that
 * tag, and a secret found there is moved to its place when it is first asked for.
 */
export interface KeySecretStore {
  /** False when the keychain refused (none, locked, denied), or the folder has no secrets home yet. */
  keep(accessKey: string, secret: string): Promise<boolean>;
  /** Null when none is kept, or when the keychain did not answer. */
  read(accessKey: string): Promise<string | null>;
  /** Rejects when the keychain did not answer (the secret may still be there). */
  forget(accessKey: string): Promise<void>;
}

export interface KeptKeySecretsInit {
  dataDir: string;
  /** The keychain, and the service the desktop filed kept secrets under before they followed the folder. */
  keychain: KeychainAccess;
}

/** The tag earlier versions filed a folder's kept secrets under: the first 16 hex digits of the SHA-256 of its absolute path. */
export function legacyFolderTag(dataDir: string): string {
  return createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 16);
}

export function legacyKeySecretItemName(tag: string, accessKey: string): string {
  return `key-secret:${tag}:${accessKey}`;
}

/** The keychain item of a kept secret in a keychain home. */
export function keySecretItemName(accessKey: string, namespace: string | null): string {
  return namespace === null ? `key-secret:${accessKey}` : `${namespace}/key-secret:${accessKey}`;
}

type KeychainHome = Extract<SecretsHome, { kind: 'keychain' }>;

export function keySecretItem(home: KeychainHome, entry: KeychainEntryFactory, accessKey: string): KeychainEntry {
  return entry(home.service, keySecretItemName(accessKey, home.namespace));
}

/** Sealed for one access key: a sealed secret moved to another key's entry does not open. */
export function sealKeySecret(masterKey: Buffer, accessKey: string, secret: string): string {
  return createSealedBox(masterKey).seal(Buffer.from(secret, 'utf8'), `key-secret:${accessKey}`).toString('base64');
}

export function openKeySecret(masterKey: Buffer, accessKey: string, sealed: string): string {
  return createSealedBox(masterKey).open(Buffer.from(sealed, 'base64'), `key-secret:${accessKey}`).toString('utf8');
}

class NoSecretsHomeError extends Error {
  override readonly name = 'NoSecretsHomeError';
}

export function keptKeySecrets(init: KeptKeySecretsInit): KeySecretStore {
  const { dataDir, keychain } = init;
  let queue: Promise<unknown> = Promise.resolve();
  /** One operation at a time: each reads key-secrets.json and may write it back. */
  const serial = <T>(operation: () => Promise<T>): Promise<T> => {
    const run = queue.then(operation, operation);
    queue = run.catch(() => undefined);
    return run;
  };
  const homeOf = async (): Promise<SecretsHome> => {
    const home = await readSecretsRecord(dataDir);
    if (home === null) throw new NoSecretsHomeError(`${dataDir} has no secrets.json yet`);
    return home;
  };
  const masterKey = async (home: SecretsHome): Promise<Buffer> => {
    const key = await homeStores(home, dataDir, keychain.entry).master.get();
    if (key === null) throw new Error(`the master key of ${dataDir} is missing from its home`);
    return key;
  };
  /** The list, made on the folder's first open with the tag its path had (where earlier versions filed its secrets). */
  const listOf = async (): Promise<KeySecretsFile> =>
    (await readKeySecretsFile(dataDir)) ?? { keys: {}, legacyTags: existsSync(dataDir) ? [legacyFolderTag(dataDir)] : [] };
  const legacyItem = (tag: string, accessKey: string) => keychain.entry(keychain.service, legacyKeySecretItemName(tag, accessKey));

  const place = async (home: SecretsHome, accessKey: string, secret: string): Promise<KeptSecretPlace> => {
    if (home.kind === 'file') return { sealed: sealKeySecret(await masterKey(home), accessKey, secret) };
    await keySecretItem(home, keychain.entry, accessKey).setPassword(secret);
    return { keychain: true };
  };
  const keepIn = async (list: KeySecretsFile, home: SecretsHome, accessKey: string, secret: string): Promise<void> => {
    const next: KeySecretsFile = { ...list, keys: { ...list.keys, [accessKey]: await place(home, accessKey, secret) } };
    await writeKeySecretsFile(dataDir, next);
  };
  /** A secret filed the old way (under a path tag): moved to its place, the old item removed. */
  const adopt = async (list: KeySecretsFile, home: SecretsHome, accessKey: string): Promise<string | null> => {
    for (const tag of list.legacyTags) {
      const old = legacyItem(tag, accessKey);
      const secret = await old.getPassword();
      if (secret === null) continue;
      await keepIn(list, home, accessKey, secret);
      await old.deletePassword();
      return secret;
    }
    return null;
  };
  const unlessUnavailable = async <T>(operation: () => Promise<T>, fallback: T): Promise<T> => {
    try {
      return await operation();
    } catch (error) {
      if (error instanceof KeychainUnavailableError || error instanceof NoSecretsHomeError) return fallback;
      throw error;
    }
  };

  // The first open records the tag of the folder's path now, before the folder can move away from it.
  serial(async () => {
    if (existsSync(dataDir) && (await readKeySecretsFile(dataDir)) === null) await writeKeySecretsFile(dataDir, await listOf());
  }).catch(() => undefined);

  return {
    keep: (accessKey, secret) =>
      serial(() =>
        unlessUnavailable(async () => {
          await keepIn(await listOf(), await homeOf(), accessKey, secret);
          return true;
        }, false),
      ),
    read: (accessKey) =>
      serial(() =>
        unlessUnavailable(async () => {
          const list = await listOf();
          const home = await homeOf();
          const kept = list.keys[accessKey];
          if (kept === undefined) return adopt(list, home, accessKey);
          if ('sealed' in kept) return openKeySecret(await masterKey(home), accessKey, kept.sealed);
          return home.kind === 'keychain' ? keySecretItem(home, keychain.entry, accessKey).getPassword() : null;
        }, null),
      ),
    forget: (accessKey) =>
      serial(async () => {
        const list = await listOf();
        const home = await readSecretsRecord(dataDir);
        if (home?.kind === 'keychain') await keySecretItem(home, keychain.entry, accessKey).deletePassword();
        for (const tag of list.legacyTags) await legacyItem(tag, accessKey).deletePassword();
        if (list.keys[accessKey] === undefined) return;
        const keys = { ...list.keys };
        delete keys[accessKey];
        await writeKeySecretsFile(dataDir, { ...list, keys });
      }),
  };
}
