import { randomBytes } from 'node:crypto';
import type { SealedBox } from '../base/sealed-box.js';
import type { Db } from '../store/db/database.js';
import { metaValue, setMetaValue } from '../store/db/meta-queries.js';

const CHECK_KEY = 'master-key-check';
const CONTEXT = 'master-key-check';

export class MasterKeyMismatchError extends Error {
  override readonly name = 'MasterKeyMismatchError';
  constructor(location: string) {
    super(
      `the master key in ${location} does not open this data folder's secrets (was the data folder used with another ` +
        'master key, e.g. by the desktop app (OS keychain) and `pinfold serve` (master.key) on different machines or accounts?); ' +
        'refusing to start rather than lose access to stored keys',
    );
  }
}

/**
 * The desktop keeps the master key in the keychain and `serve` in master.key, over one data folder: if
 * one of them ever starts with a different key, every stored secret becomes unreadable. A sealed check
 * value written at first start turns that into a clear refusal instead of silent damage.
 */
export function verifyMasterKey(db: Db, box: SealedBox, location: string): void {
  const sealed = metaValue(db, CHECK_KEY);
  if (sealed === null) {
    setMetaValue(db, CHECK_KEY, box.seal(randomBytes(16), CONTEXT));
    return;
  }
  try {
    box.open(sealed, CONTEXT);
  } catch {
    throw new MasterKeyMismatchError(location);
  }
}
