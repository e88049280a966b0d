import { existsSync } from 'node:fs';
import { acquireDataFolderLock } from '../base/lock-file.js';
import type { KeychainAccess } from './keychain-entry.js';
import { openSecrets } from './open-secrets.js';
import { stageKeptSecretsMove } from './move-kept-key-secrets.js';
import { homeStores } from './secrets-home.js';
import { newKeychainNamespace, SECRETS_FILE, writeSecretsRecord, type SecretsHome, type SecretsHomeKind } from './secrets-record.js';
import { dataFolderPaths } from '../base/data-folder.js';

export interface MoveSecretsInit {
  dataDir: string;
  to: SecretsHomeKind;
  keychain: KeychainAccess;
}

export interface MoveResult {
  moved: boolean;
  from: string;
  to: string;
  /** Copies left at the old home that could not be removed (the move itself is done). */
  leftBehind: string[];
  /** Secrets of access keys the desktop window keeps (kept-key-secrets.ts), moved with the keys. */
  keptSecrets: number;
  /** Kept secrets listed in key-secrets.json but not found where it said: dropped from the list. */
  keptMissing: string[];
}

export class NothingToMoveError extends Error {
  override readonly name = 'NothingToMoveError';
}

/**
 * `pinfold secrets move`: the master key, the owner key and the kept key secrets (the secrets of access keys
 * the desktop window keeps, kept-key-secrets.ts) to another home. It holds the data folder's
 * lock throughout, so it is refused while a server (or the desktop app) runs on the folder: a server keeps
 * the key in memory and the owner key where it found it, and a move under it would leave the next start
 * looking in the wrong place. Order: copy to the new home and read back; then the record (one atomic
 * rename, the moment the move happens); then remove the old copies. A crash before the record leaves the
 * old home in force (the copies are overwritten by the next move); after it, only stale copies.
 */
export async function moveSecrets(init: MoveSecretsInit): Promise<MoveResult> {
  const { dataDir, to, keychain } = init;
  if (!existsSync(dataFolderPaths(dataDir).database) && !existsSync(dataFolderPaths(dataDir).secretsRecord))
    throw new NothingToMoveError(`${dataDir} is not a Pinfold data folder yet (no pinfold.db, no ${SECRETS_FILE}); start it once with the home you want`);
  const lock = acquireDataFolderLock(dataDir);
  try {
    // Finds the current home (recording it for a folder from before secrets.json) and judges the key.
    const current = await openSecrets({ dataDir, prefer: to, keychain });
    const from = homeStores(current.home, dataDir, keychain.entry);
    if (current.home.kind === to) return { moved: false, from: from.description, to: from.description, leftBehind: [], keptSecrets: 0, keptMissing: [] };
    const target: SecretsHome = to === 'file' ? { kind: 'file' } : { kind: 'keychain', service: keychain.service, namespace: newKeychainNamespace() };
    const next = homeStores(target, dataDir, keychain.entry);
    const ownerKey = await current.ownerKeyStore.load();

    await next.master.set(current.masterKey);
    if (ownerKey !== null) await next.ownerKey.save(ownerKey);
    const masterBack = await next.master.get();
    const ownerBack = ownerKey === null ? null : await next.ownerKey.load();
    if (masterBack === null || !masterBack.equals(current.masterKey) || (ownerKey !== null && ownerBack?.access_secret !== ownerKey.access_secret))
      throw new Error(`${next.description} did not keep the keys written to it; the secrets stay in ${from.description}`);
    const kept = await stageKeptSecretsMove({ dataDir, from: current.home, to: target, masterKey: current.masterKey, entry: keychain.entry });

    await writeSecretsRecord(dataDir, target);

    const leftBehind: string[] = await kept.settle();
    for (const [what, remove] of [
      ['master key', () => from.master.remove()],
      ['owner key', () => from.ownerKey.remove()],
    ] as const) {
      try {
        await remove();
      } catch (error) {
        leftBehind.push(`${what} in ${from.description} (${error instanceof Error ? error.message : String(error)})`);
      }
    }
    return { moved: true, from: from.description, to: next.description, leftBehind, keptSecrets: kept.count, keptMissing: [...kept.missing] };
  } finally {
    lock.release();
  }
}
