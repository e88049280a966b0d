import { hkdfSync } from 'node:crypto';

/**
 * The HMAC key of signed upload addresses (contract section 4; upload-address.ts signs and checks with it): a
 * file of the data folder's secret store under this name, or, with `--db`, {@link deriveUploadSigningKey}.
 */
export const UPLOAD_KEY_NAME = 'upload-signing';

/** HKDF's `info`: binds the derived key to this one use, so it never equals a key derived for another. */
const UPLOAD_SIGNING_INFO = 'pinfold upload-address signing';

/**
 * The HMAC key of signed upload addresses when several instances share one database (`--db`): derived
 * from the master key they already share (HKDF-SHA256), so an address one instance signs is valid on all
 * of them with nothing more to store, to race for or to keep in step. The master key itself never signs.
 */
export function deriveUploadSigningKey(masterKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), UPLOAD_SIGNING_INFO, 32));
}
