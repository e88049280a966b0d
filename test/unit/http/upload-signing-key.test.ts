import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveUploadSigningKey } from '../../../main/http/upload-signing-key.js';

describe('upload signing key derived from the shared master key', () => {
  it('is the same for the same master key (every instance signs alike) and 32 bytes long', () => {
    const master = randomBytes(32);
    const key = deriveUploadSigningKey(master);
    expect(key).toHaveLength(32);
    expect(deriveUploadSigningKey(Buffer.from(master)).equals(key)).toBe(true);
  });

  it('is neither the master key nor shared with another master key', () => {
    const master = randomBytes(32);
    expect(deriveUploadSigningKey(master).equals(master)).toBe(false);
    expect(deriveUploadSigningKey(randomBytes(32)).equals(deriveUploadSigningKey(master))).toBe(false);
  });

  it('is HKDF-SHA256 with info "pinfold upload-address signing" and no salt (RFC 5869, one block)', () => {
    const master = Buffer.alloc(32, 1);
    const prk = createHmac('sha256', Buffer.alloc(32)).update(master).digest();
    const okm = createHmac('sha256', prk)
      .update(Buffer.concat([Buffer.from('pinfold upload-address signing'), Buffer.from([1])]))
      .digest();
    expect(deriveUploadSigningKey(master).equals(okm)).toBe(true);
  });
});
