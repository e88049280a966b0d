import { randomBytes } from 'node:crypto';
import { createSealedBox, type SealedBox } from '../base/sealed-box.js';
import type { Store } from '../store/repositories/index.js';
import { sealContext } from './access-keys.js';

const CHECK_KEY = 'master-key-check';
const CONTEXT = 'master-key-check';

export class MasterKeyMismatchError extends Error {
  override readonly name = 'MasterKeyMismatchError';
  constructor(location: string) {
    super(
      `the master key in ${location} does not open this data folder's secrets (was the folder's key replaced, or the folder ` +
        'copied from another machine or user account without its key?); refusing to start rather than lose access to stored keys',
    );
  }
}

/**
 * A data folder's secrets are sealed under one master key (kept where secrets.json says): if a program
 * ever started on it with a different key, every stored secret would become unreadable. A sealed check
 * value written at first start turns that into a clear refusal instead of silent damage. The secrets
 * module judges the key against this value before opening the database for writing (masterKeyOpens);
 * this runs again on the open database and writes the value at first start (then it answers `written`).
 */
export async function verifyMasterKey(store: Store, box: SealedBox, location: string): Promise<'written' | 'opened'> {
  const sealed = await store.meta.metaValue(CHECK_KEY);
  if (sealed === null) {
    await store.meta.setMetaValue(CHECK_KEY, box.seal(randomBytes(16), CONTEXT));
    return 'written';
  }
  try {
    box.open(sealed, CONTEXT);
  } catch {
    throw new MasterKeyMismatchError(location);
  }
  return 'opened';
}

/**
 * Whether `key` opens the folder's sealed data as read by peekSealedData, before anything is written:
 * the check value, or in a folder from before it, one sealed access secret. A folder with neither has
 * nothing a key could be judged by (and nothing it could lose).
 */
export function masterKeyOpens(
  sealed: { check: Uint8Array | null; sampleAccessSecret: { accessKey: string; sealed: Uint8Array } | null },
  key: Buffer,
): boolean {
  try {
    const box = createSealedBox(key);
    if (sealed.check !== null) box.open(sealed.check, CONTEXT);
    else if (sealed.sampleAccessSecret !== null) box.open(sealed.sampleAccessSecret.sealed, sealContext(sealed.sampleAccessSecret.accessKey));
    return true;
  } catch {
    return false;
  }
}
