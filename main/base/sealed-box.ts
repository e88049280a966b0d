import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM under the master key. Layout: 12-byte nonce | ciphertext | 16-byte tag.
 * `context` is bound as associated data so that a sealed value cannot be moved to another row
 * (an access secret pasted into an IPNS key's column fails to open).
 */
export interface SealedBox {
  seal(plain: Uint8Array, context: string): Buffer;
  open(sealed: Uint8Array, context: string): Buffer;
}

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export function createSealedBox(masterKey: Buffer): SealedBox {
  if (masterKey.length !== 32) throw new Error('master key must be 32 bytes');
  return {
    seal(plain, context) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', masterKey, nonce);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plain), cipher.final()]);
      return Buffer.concat([nonce, body, cipher.getAuthTag()]);
    },
    open(sealed, context) {
      const buf = Buffer.from(sealed);
      if (buf.length < NONCE_BYTES + TAG_BYTES) throw new Error('sealed value too short');
      const nonce = buf.subarray(0, NONCE_BYTES);
      const tag = buf.subarray(buf.length - TAG_BYTES);
      const decipher = createDecipheriv('aes-256-gcm', masterKey, nonce);
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(buf.subarray(NONCE_BYTES, buf.length - TAG_BYTES)), decipher.final()]);
    },
  };
}
