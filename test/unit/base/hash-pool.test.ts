import { hash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { OFFLOAD_MIN_BYTES, hashPool, sharedBytes } from '../../../main/base/hash-pool.js';

describe('hashPool', () => {
  it('hashes shared buffers on workers exactly as inline, many at once', async () => {
    const inputs = Array.from({ length: 12 }, (_, i) => {
      const bytes = sharedBytes(OFFLOAD_MIN_BYTES + i * 1000);
      bytes.set(randomBytes(bytes.byteLength));
      return bytes;
    });
    const digests = await Promise.all(inputs.map((bytes) => hashPool().digest('sha256', bytes)));
    for (const [i, bytes] of inputs.entries()) expect(digests[i]?.equals(hash('sha256', bytes, 'buffer'))).toBe(true);
  });

  it('hashes a view into the middle of a shared buffer', async () => {
    const whole = sharedBytes(3 * OFFLOAD_MIN_BYTES);
    whole.set(randomBytes(whole.byteLength));
    const view = whole.subarray(1000, 1000 + 2 * OFFLOAD_MIN_BYTES);
    expect((await hashPool().digest('sha512', view)).equals(hash('sha512', view, 'buffer'))).toBe(true);
  });

  it('hashes small or unshared bytes inline, and reports a bad algorithm', async () => {
    const small = randomBytes(100);
    expect((await hashPool().digest('sha256', small)).equals(hash('sha256', small, 'buffer'))).toBe(true);
    const shared = sharedBytes(OFFLOAD_MIN_BYTES);
    await expect(hashPool().digest('no-such-hash', shared)).rejects.toThrow();
  });
});
