import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSealedBox } from '../../../main/base/sealed-box.js';

describe('sealed box (AES-256-GCM under the master key)', () => {
  const box = createSealedBox(randomBytes(32));
  const plain = Buffer.from('the secret text', 'utf8');

  it('opens what it sealed under the same context, and never stores the plaintext', () => {
    const sealed = box.seal(plain, 'ctx-a');
    expect(sealed.includes(plain)).toBe(false);
    expect(sealed.length).toBe(12 + plain.length + 16);
    expect(box.open(sealed, 'ctx-a').equals(plain)).toBe(true);
  });

  it('uses a fresh nonce per seal', () => {
    expect(box.seal(plain, 'ctx').equals(box.seal(plain, 'ctx'))).toBe(false);
  });

  it('refuses another context, a tampered byte, a short value and another master key', () => {
    const sealed = box.seal(plain, 'ctx-a');
    expect(() => box.open(sealed, 'ctx-b')).toThrow();
    const tampered = Buffer.from(sealed);
    tampered[14] = (tampered[14] ?? 0) ^ 1;
    expect(() => box.open(tampered, 'ctx-a')).toThrow();
    expect(() => box.open(sealed.subarray(0, 20), 'ctx-a')).toThrow(/too short/);
    expect(() => createSealedBox(randomBytes(32)).open(sealed, 'ctx-a')).toThrow();
  });

  it('wants a 32-byte master key', () => {
    expect(() => createSealedBox(randomBytes(16))).toThrow(/32 bytes/);
  });
});
